package dev.tidemill.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemill.redis.RedisServer;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two demo processes and one real redis-server ({@code ./tidemill cluster} without the balancer):
 * numbered chat messages are published through both nodes while Redis is killed with
 * {@code kill -9} and started again, and then one node is killed with jobs unfinished. Every
 * subscriber (on both nodes, resuming with {@code Last-Event-ID} on the other node when its own
 * dies) gets every message whose publish was acknowledged, once; every job ends done; nothing is
 * left pending in the group.
 */
class ClusterFaultTest {
    static final String ROOM = "fault";
    static final int PER_PHASE = 30;
    static final int JOBS = 40;

    @TempDir
    Path dir;
    private final DemoNodes demo = new DemoNodes();
    private final HttpClient http = demo.http();
    private final List<Thread> readers = new ArrayList<>();

    @AfterEach
    void stop() {
        readers.forEach(Thread::interrupt);
        demo.close();
    }

    @Test
    void aRedisCrashAndANodeCrashLoseNothingAcknowledged() throws Exception {
        try (RedisServer redis = RedisServer.start(dir.resolve("redis"))) {
            int a = freePort();
            int b = freePort();
            Process nodeA = startNode(a, "node-a", redis.port());
            Process nodeB = startNode(b, "node-b", redis.port());
            awaitReady(a);
            awaitReady(b);

            List<Subscriber> subscribers = List.of(new Subscriber(a, b), new Subscriber(a, b), new Subscriber(b, a), new Subscriber(b, a));
            subscribers.forEach(Subscriber::start);
            await().atMost(Duration.ofSeconds(20)).until(() -> subscribers.stream().allMatch(s -> s.connected));

            Set<String> acknowledged = ConcurrentHashMap.newKeySet();
            AtomicInteger number = new AtomicInteger();
            AtomicInteger refused = new AtomicInteger();
            publish(PER_PHASE, a, b, number, acknowledged, refused);
            redis.kill(); // kill -9
            await().atMost(Duration.ofSeconds(20)).until(() -> get(a, "/readyz").statusCode() == 503 && get(b, "/readyz").statusCode() == 503);
            publish(5, a, b, number, acknowledged, refused); // while Redis is away: 503s, none acknowledged
            assertThat(refused.get()).as("publishes while Redis is down fail fast with 503").isGreaterThanOrEqualTo(5);
            redis.start();
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100)).until(() -> ready(a) && ready(b));
            publish(PER_PHASE, a, b, number, acknowledged, refused);

            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                for (Subscriber s : subscribers) assertThat(s.texts).as("subscriber on %d", s.home).containsAll(acknowledged);
            });
            for (Subscriber s : subscribers) {
                assertThat(s.duplicates.get()).as("duplicates seen by the subscriber on %d", s.home).isZero();
                assertThat(s.outOfOrder.get()).as("ids out of order on %d", s.home).isZero();
            }

            // Jobs: posted through both nodes, then node B dies with some of them unfinished.
            for (int i = 0; i < JOBS; i++) {
                HttpResponse<String> r = post(i % 2 == 0 ? a : b, "/jobs", "{\"id\":\"job-" + i + "\",\"workMs\":300}");
                assertThat(r.statusCode()).as("%s", r.body()).isEqualTo(202);
            }
            assertThat(post(a, "/jobs", "{\"id\":\"job-0\"}").statusCode()).as("the same id again").isEqualTo(200);
            nodeB.destroyForcibly(); // kill -9: its unfinished jobs stay pending under node-b's name
            nodeB.waitFor(10, TimeUnit.SECONDS);
            publish(10, a, a, number, acknowledged, refused); // the rooms go on on node A
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250)).untilAsserted(() -> {
                for (int i = 0; i < JOBS; i++) {
                    assertThat(get(a, "/jobs/job-" + i).body()).as("job-%d", i).contains("\"state\":\"done\"");
                }
            });
            try (RedisClient client = RedisClient.create("redis://127.0.0.1:" + redis.port());
                    StatefulRedisConnection<String, String> c = client.connect()) {
                await().atMost(Duration.ofSeconds(30)).until(() ->
                        c.sync().xpending("tidemill:topic:" + DemoJobs.TOPIC, DemoJobs.GROUP).getCount() == 0);
            }
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                for (Subscriber s : subscribers) assertThat(s.texts).as("subscriber from %d, after node B died", s.home)
                        .containsAll(acknowledged);
            });
            for (Subscriber s : subscribers) assertThat(s.duplicates.get()).as("duplicates after resuming on the other node").isZero();
            int again = 0;
            for (int i = 0; i < JOBS; i++) {
                if (!get(a, "/jobs/job-" + i).body().contains("\"deliveries\":1,")) again++;
            }
            assertThat(again).as("jobs node B had taken and not finished were delivered again, on node A").isPositive();
            String metrics = get(a, "/metrics").body();
            assertThat(meter(metrics, "tidemill_consumer_claimed_total{consumer=\"node-a\",group=\"demo-jobs\",topic=\"demo.jobs\"}"))
                    .as("node A's claims of node B's jobs, in its metrics").isGreaterThanOrEqualTo(1);
            assertThat(meter(metrics, "tidemill_topic_reconnects_total{topic=\"demo.rooms\"}"))
                    .as("node A's reader of the rooms came back after Redis did").isGreaterThanOrEqualTo(1);
            assertThat(meter(metrics, "tidemill_topic_published_total{topic=\"demo.rooms\"}"))
                    .as("the entries node A's reader read: every acknowledged publish, through either node")
                    .isGreaterThanOrEqualTo(acknowledged.size());
            assertThat(nodeA.isAlive()).isTrue();
            System.out.printf("cluster fault run: %d publishes acknowledged, %d refused while Redis was down, 0 lost, 0 duplicates;"
                    + " %d jobs done, %d of them delivered more than once, 0 pending%n", acknowledged.size(), refused.get(), JOBS, again);
        }
    }

    /** Publishes {@code n} numbered messages, alternating between the two nodes; a 202 is an acknowledged publish. */
    private void publish(int n, int a, int b, AtomicInteger number, Set<String> acknowledged, AtomicInteger refused) throws Exception {
        for (int i = 0; i < n; i++) {
            String text = "m-" + number.incrementAndGet();
            int port = i % 2 == 0 ? a : b;
            try {
                HttpResponse<String> r = post(port, "/rooms/" + ROOM + "/messages", "{\"text\":\"" + text + "\"}");
                if (r.statusCode() == 202) {
                    acknowledged.add(text);
                } else {
                    assertThat(r.statusCode()).as("a publish that fails: %s", r.body()).isEqualTo(503);
                    assertThat(r.headers().firstValue("Retry-After")).isPresent();
                    refused.incrementAndGet();
                }
            } catch (IOException e) {
                refused.incrementAndGet();
            }
        }
    }

    /** One SSE client of the room: it reads on its node, and after the node is gone resumes on the other with Last-Event-ID. */
    final class Subscriber {
        final int home;
        final int other;
        final Set<String> texts = ConcurrentHashMap.newKeySet();
        final AtomicInteger duplicates = new AtomicInteger();
        final AtomicInteger outOfOrder = new AtomicInteger();
        volatile boolean connected;
        private volatile String lastId;
        private dev.tidemill.MessageId lastSeen = dev.tidemill.MessageId.ZERO;

        Subscriber(int home, int other) {
            this.home = home;
            this.other = other;
        }

        void start() {
            readers.add(Thread.ofVirtual().start(this::run));
        }

        private void run() {
            int port = home;
            while (!Thread.currentThread().isInterrupted()) {
                try {
                    HttpRequest.Builder req = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/rooms/" + ROOM + "/events"));
                    if (lastId != null) req.header("Last-Event-ID", lastId);
                    HttpResponse<InputStream> r = http.send(req.build(), HttpResponse.BodyHandlers.ofInputStream());
                    connected = r.statusCode() == 200;
                    read(r.body());
                } catch (IOException e) {
                    connected = false;
                } catch (InterruptedException e) {
                    return;
                }
                port = port == home ? other : home; // the stream ended: the node is gone, try the other
                try {
                    Thread.sleep(100);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }

        private void read(InputStream in) throws IOException {
            BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            String id = null;
            for (String line; (line = r.readLine()) != null; ) {
                if (line.startsWith("id: ")) id = line.substring(4);
                if (line.startsWith("data: ") && id != null) {
                    dev.tidemill.MessageId seen = dev.tidemill.MessageId.parse(id).orElseThrow();
                    if (seen.compareTo(lastSeen) <= 0) outOfOrder.incrementAndGet();
                    lastSeen = seen;
                    lastId = id;
                    if (!texts.add(line.substring(6))) duplicates.incrementAndGet();
                }
            }
        }
    }

    /** @return the value of the Prometheus sample named exactly {@code series}, or -1 */
    private static double meter(String metrics, String series) {
        for (String line : metrics.split("\n")) {
            if (line.startsWith(series + " ")) return Double.parseDouble(line.substring(series.length() + 1).strip());
        }
        return -1;
    }

    private Process startNode(int port, String id, int redisPort) throws IOException {
        return demo.start(port, id, redisPort, Map.of());
    }

    private void awaitReady(int port) {
        demo.awaitReady(port);
    }

    private boolean ready(int port) {
        return demo.ready(port);
    }

    private HttpResponse<String> get(int port, String path) throws IOException {
        return demo.get(port, path);
    }

    private HttpResponse<String> post(int port, String path, String json) throws IOException {
        return demo.post(port, path, json);
    }

    private static int freePort() throws IOException {
        return DemoNodes.freePort();
    }
}
