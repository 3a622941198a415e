package dev.tidemill.tests.topics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemill.ConsumerGroup;
import dev.tidemill.ExecutionMode;
import dev.tidemill.Response;
import dev.tidemill.Server;
import dev.tidemill.Tidemill;
import dev.tidemill.Topic;
import dev.tidemill.testing.TestClient;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;

/**
 * Consumers declared on the app ({@code app.consume}): started with the server, the worker in the
 * consumer's execution mode (an event loop, a worker loop, a virtual thread), fed by a route over a
 * real socket; and a graceful stop that takes no more messages and lets the one in the worker finish.
 */
class ConsumerRoutesTest {

    @ParameterizedTest
    @EnumSource(ExecutionMode.class)
    void aPostedJobIsHandledOnceInTheConsumersMode(ExecutionMode mode) {
        Topic<String> jobs = Topic.<String>builder("jobs-" + mode).build();
        List<String> where = new CopyOnWriteArrayList<>();
        Tidemill app = Tidemill.create(TestClient.config().build());
        app.post("/jobs", req -> jobs.publishAsync("job", req.body(String.class)).thenApply(id -> Response.status(202)));
        app.consume(jobs, ConsumerGroup.builder("workers").build(), (m, delivery) -> {
            Thread t = Thread.currentThread();
            where.add(m.value() + " " + delivery + " " + (t.isVirtual() ? "virtual" : t.getName()));
        }).mode(mode);
        try (TestClient client = TestClient.start(app)) {
            for (int i = 0; i < 5; i++) assertThat(client.post("/jobs", "application/json", "\"j" + i + "\"").status()).isEqualTo(202);
            await().atMost(Duration.ofSeconds(10)).until(() -> where.size() == 5);
            String expected = switch (mode) {
                case IO -> "tidemill-io";
                case LOOP -> "tidemill-loop";
                case VIRTUAL, AUTO -> "virtual"; // a consumer in AUTO stays where AUTO starts
            };
            assertThat(where).allSatisfy(w -> assertThat(w.split(" ")[1]).as("first delivery").isEqualTo("1"))
                    .allSatisfy(w -> assertThat(w.split(" ")[2]).startsWith(expected));
            assertThat(where).extracting(w -> w.split(" ")[0]).containsExactlyInAnyOrder("j0", "j1", "j2", "j3", "j4");
            assertThat(client.server().startupReport()).anyMatch(l -> l.startsWith("consumer ") && l.contains("group workers")
                    && l.endsWith("mode " + mode));
            String node = ConsumerGroup.defaultConsumer(client.server().port());
            assertThat(node).as("no TIDEMILL_NODE_ID here: <host>-<port>").endsWith("-" + client.server().port());
            assertThat(client.server().startupReport()).as("the consumer is named after the node")
                    .anyMatch(l -> l.startsWith("consumer " + node + " of group workers"));
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(client.get("/metrics").text())
                    .as("the consumer's counters on /metrics (the last worker may still be returning)")
                    .contains("tidemill_consumer_done_total{consumer=\"" + node + "\",group=\"workers\",topic=\"jobs-" + mode + "\"} 5.0")
                    .contains("tidemill_consumer_pending{consumer=\"" + node + "\",group=\"workers\",topic=\"jobs-" + mode + "\"} 0.0"));
        } finally {
            jobs.close();
        }
    }

    @Test
    void aGracefulStopLetsTheMessageInTheWorkerFinishAndTakesNoMore() throws Exception {
        Topic<String> jobs = Topic.<String>builder("jobs-stop").build();
        CountDownLatch started = new CountDownLatch(1);
        List<String> finished = new CopyOnWriteArrayList<>();
        Tidemill app = Tidemill.create(TestClient.config().build());
        CountDownLatch stopping = new CountDownLatch(1);
        app.consume(jobs, ConsumerGroup.builder("workers").build(), (m, delivery) -> {
            started.countDown();
            stopping.await(10, TimeUnit.SECONDS); // still working when the stop begins
            finished.add(m.value());
        }).mode(ExecutionMode.VIRTUAL);
        Server server = app.start();
        try {
            jobs.publish("job", "slow");
            assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
            Thread.ofVirtual().start(() -> {
                await().atMost(Duration.ofSeconds(10)).until(() -> server.diagnostics().get("server.draining") == 1L);
                stopping.countDown(); // the worker finishes only once the stop is under way
            });
            server.stop(Duration.ofSeconds(10));
            assertThat(finished).as("the stop waited for the worker").containsExactly("slow");
            jobs.publish("job", "after the stop");
            await("nothing picks it up").during(Duration.ofMillis(200)).atMost(Duration.ofSeconds(5))
                    .until(() -> finished.equals(List.of("slow")));
        } finally {
            jobs.close();
        }
    }
}
