package dev.tidemill.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemill.ConsumerGroup;
import dev.tidemill.Topic;
import io.lettuce.core.RedisClient;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.api.StatefulRedisConnection;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Consumer groups on Redis Streams against a real redis-server, two nodes (two backends): each
 * message handled once across the nodes and acknowledged; a failing message retried after
 * claimAfter and moved to the dead-letter stream with its reason after maxDeliveries; a consumer that
 * stops with messages unfinished has them claimed by the other; one started again under its name
 * takes up its own; a deleted group is made again and consumption goes on.
 */
class RedisConsumerGroupTest {
    @TempDir
    static Path dir;
    static RedisServer redis;
    static RedisTopics nodeA;
    static RedisTopics nodeB;
    static RedisClient client;
    static StatefulRedisConnection<String, String> cli;
    final ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor();

    @BeforeAll
    static void start() {
        redis = RedisServer.start(dir.resolve("redis"));
        nodeA = RedisTopics.connect(redis.url());
        nodeB = RedisTopics.connect(redis.url());
        client = RedisClient.create("redis://127.0.0.1:" + redis.port());
        cli = client.connect();
    }

    @AfterAll
    static void stop() {
        if (cli != null) cli.close();
        if (client != null) client.shutdown();
        if (nodeA != null) nodeA.close();
        if (nodeB != null) nodeB.close();
        if (redis != null) redis.close();
    }

    static long pending(String topic, String group) {
        return cli.sync().xpending(RedisTopics.KEY_PREFIX + topic, group).getCount();
    }

    @Test
    void eachMessageIsHandledOnceAcrossTheNodesAndAcknowledged() throws Exception {
        Topic<String> a = nodeA.<String>builder("cg-share").build();
        Topic<String> b = nodeB.<String>builder("cg-share").build();
        Map<String, String> by = new ConcurrentHashMap<>();
        AtomicInteger twice = new AtomicInteger();
        try {
            a.consume(ConsumerGroup.builder("jobs").consumer("node-a").build(), pool, (m, d) -> {
                if (by.put(m.value(), "a") != null) twice.incrementAndGet();
            });
            b.consume(ConsumerGroup.builder("jobs").consumer("node-b").build(), pool, (m, d) -> {
                if (by.put(m.value(), "b") != null) twice.incrementAndGet();
            });
            for (int i = 0; i < 200; i++) (i % 2 == 0 ? a : b).publish("job", "j" + i);
            await().atMost(Duration.ofSeconds(20)).until(() -> by.size() == 200);
            await().atMost(Duration.ofSeconds(10)).until(() -> pending("cg-share", "jobs") == 0);
            assertThat(twice.get()).isZero();
            assertThat(by.values()).as("both nodes worked").contains("a", "b");
        } finally {
            a.close();
            b.close();
        }
    }

    @Test
    void aFailingMessageIsRetriedThenDeadLetteredWithItsReason() throws Exception {
        Topic<String> t = nodeA.<String>builder("cg-dead").build();
        Map<String, List<Integer>> deliveries = new ConcurrentHashMap<>();
        try {
            Topic.Consumption c = t.consume(ConsumerGroup.builder("work").consumer("a").claimAfter(Duration.ofMillis(100)).maxDeliveries(3)
                    .build(), pool, (m, d) -> {
                        deliveries.computeIfAbsent(m.value(), k -> new CopyOnWriteArrayList<>()).add(d);
                        if (m.value().equals("poison")) throw new IllegalArgumentException("cannot do " + d);
                    });
            t.publish("x", "poison");
            t.publish("x", "fine");
            await().atMost(Duration.ofSeconds(30)).until(() -> c.stats().deadLettered() == 1);
            assertThat(deliveries.get("poison")).containsExactly(1, 2, 3);
            assertThat(deliveries.get("fine")).containsExactly(1);
            List<StreamMessage<String, String>> dead = cli.sync().xrange(RedisTopics.KEY_PREFIX + "cg-dead:dead:work",
                    io.lettuce.core.Range.create("-", "+"));
            assertThat(dead).singleElement().satisfies(d -> {
                assertThat(d.getBody()).containsEntry("value", "poison").containsEntry("subject", "x")
                        .containsEntry("reason", "java.lang.IllegalArgumentException: cannot do 3").containsEntry("deliveries", "3");
            });
            await().atMost(Duration.ofSeconds(10)).until(() -> pending("cg-dead", "work") == 0);
        } finally {
            t.close();
        }
    }

    @Test
    void whatAStoppedConsumerLeftIsClaimedByAnotherAndOneThatComesBackTakesUpItsOwn() throws Exception {
        Topic<String> a = nodeA.<String>builder("cg-claim").build();
        Topic<String> b = nodeB.<String>builder("cg-claim").build();
        CountDownLatch never = new CountDownLatch(1);
        try {
            ConsumerGroup stuck = ConsumerGroup.builder("work").consumer("a").claimAfter(Duration.ofHours(1)).maxInFlight(2).build();
            Topic.Consumption dying = a.consume(stuck, pool, (m, d) -> never.await());
            for (int i = 0; i < 4; i++) a.publish("x", "m" + i);
            await().atMost(Duration.ofSeconds(10)).until(() -> dying.stats().inFlight() == 2);
            dying.close(); // as if its process died: two messages read and never acknowledged, two never read
            List<String> again = new CopyOnWriteArrayList<>();
            // the same consumer name, started again: its own unfinished messages first, then the rest
            Topic.Consumption back = a.consume(stuck, pool, (m, d) -> again.add(m.value() + "#" + d));
            await().atMost(Duration.ofSeconds(20)).until(() -> again.size() == 4);
            assertThat(again).contains("m0#2", "m1#2", "m2#1", "m3#1");
            back.close();

            Topic.Consumption dies = a.consume(ConsumerGroup.builder("other").consumer("a").build(), pool, (m, d) -> never.await());
            a.publish("x", "left");
            await().atMost(Duration.ofSeconds(10)).until(() -> dies.stats().inFlight() == 1);
            dies.close();
            List<String> claimed = new CopyOnWriteArrayList<>();
            Topic.Consumption other = b.consume(ConsumerGroup.builder("other").consumer("b").claimAfter(Duration.ofMillis(200)).build(), pool,
                    (m, d) -> claimed.add(m.value() + "#" + d));
            await().atMost(Duration.ofSeconds(20)).until(() -> claimed.contains("left#2"));
            assertThat(other.stats().claimed()).isEqualTo(1);
            await().atMost(Duration.ofSeconds(10)).until(() -> pending("cg-claim", "other") == 0);
        } finally {
            never.countDown();
            a.close();
            b.close();
        }
    }

    @Test
    void aDeletedGroupIsMadeAgainAndConsumptionGoesOn() throws Exception {
        Topic<String> t = nodeA.<String>builder("cg-nogroup").build();
        List<String> got = new CopyOnWriteArrayList<>();
        try {
            t.consume(ConsumerGroup.builder("g").consumer("a").build(), pool, (m, d) -> got.add(m.value()));
            t.publish("x", "before");
            await().atMost(Duration.ofSeconds(10)).until(() -> got.contains("before"));
            await().atMost(Duration.ofSeconds(10)).until(() -> pending("cg-nogroup", "g") == 0);
            cli.sync().xgroupDestroy(RedisTopics.KEY_PREFIX + "cg-nogroup", "g");
            // published while the group may not exist yet: the group is made again from the last id acknowledged, so it is not lost
            t.publish("x", "after");
            await().atMost(Duration.ofSeconds(20)).until(() -> got.contains("after"));
            assertThat(got).as("made again from the last acknowledged id: nothing twice").containsExactly("before", "after");
        } finally {
            t.close();
        }
    }
}
