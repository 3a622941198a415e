package dev.tidemill.internal.topic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.tidemill.ConsumerGroup;
import dev.tidemill.Topic;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Consumer groups of in-process topics ({@link LocalGroup}): one consumer per message, retries, dead letters, the in-flight bound. */
class ConsumerGroupTest {
    private final ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor();
    private Topic<String> topic;

    @AfterEach
    void close() {
        if (topic != null) topic.close();
        pool.shutdownNow();
    }

    @Test
    void eachMessageGoesToOneConsumerOfTheGroupAndEveryGroupGetsEveryMessage() {
        topic = Topic.<String>builder("cg-share").build();
        Map<String, String> handledBy = new ConcurrentHashMap<>();
        AtomicInteger twice = new AtomicInteger();
        ConsumerGroup jobs = ConsumerGroup.builder("jobs").build();
        Topic.Consumption a = topic.consume(jobs, pool, (m, d) -> { if (handledBy.put(m.value(), "a") != null) twice.incrementAndGet(); });
        Topic.Consumption b = topic.consume(jobs, pool, (m, d) -> { if (handledBy.put(m.value(), "b") != null) twice.incrementAndGet(); });
        List<String> audit = new CopyOnWriteArrayList<>();
        topic.consume(ConsumerGroup.builder("audit").build(), pool, (m, d) -> audit.add(m.value()));
        for (int i = 0; i < 200; i++) topic.publish("job", "j" + i);
        await().atMost(Duration.ofSeconds(10)).until(() -> handledBy.size() == 200 && audit.size() == 200);
        assertThat(twice.get()).as("no message twice within a group").isZero();
        assertThat(handledBy.values()).as("both consumers worked").contains("a", "b");
        assertThat(a.stats().done() + b.stats().done()).isEqualTo(200);
        assertThat(a.consumer()).isNotEqualTo(b.consumer());
    }

    @Test
    void aFailedDeliveryIsRetriedAfterClaimAfterAndOneThatAlwaysFailsBecomesADeadLetter() {
        topic = Topic.<String>builder("cg-retry").build();
        Map<String, List<Integer>> deliveries = new ConcurrentHashMap<>();
        Topic.Consumption c = topic.consume(ConsumerGroup.builder("retry").claimAfter(Duration.ofMillis(50)).maxDeliveries(3).build(), pool,
                (m, d) -> {
                    deliveries.computeIfAbsent(m.value(), k -> new CopyOnWriteArrayList<>()).add(d);
                    if (m.value().equals("poison") || (m.value().equals("flaky") && d == 1)) throw new IllegalStateException("no " + d);
                });
        topic.publish("x", "flaky");
        topic.publish("x", "poison");
        topic.publish("x", "fine");
        await().atMost(Duration.ofSeconds(10)).until(() -> c.stats().deadLettered() == 1 && c.stats().done() == 2);
        assertThat(deliveries.get("flaky")).containsExactly(1, 2);
        assertThat(deliveries.get("poison")).as("delivered maxDeliveries times, then no more").containsExactly(1, 2, 3);
        assertThat(deliveries.get("fine")).containsExactly(1);
        assertThat(c.stats().failed()).isEqualTo(4);
        var dead = ((LocalTopic<String>) topic).deadLetters("retry");
        assertThat(dead).singleElement().satisfies(d -> {
            assertThat(d.message().value()).isEqualTo("poison");
            assertThat(d.deliveries()).isEqualTo(3);
            assertThat(d.reason()).isEqualTo("java.lang.IllegalStateException: no 3");
        });
    }

    @Test
    void aConsumerNeverHasMoreThanMaxInFlightInItsWorker() throws Exception {
        topic = Topic.<String>builder("cg-bound").build();
        AtomicInteger now = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        CountDownLatch go = new CountDownLatch(1);
        Topic.Consumption c = topic.consume(ConsumerGroup.builder("bound").maxInFlight(3).build(), pool, (m, d) -> {
            most.accumulateAndGet(now.incrementAndGet(), Math::max);
            go.await();
            now.decrementAndGet();
        });
        for (int i = 0; i < 20; i++) topic.publish("x", "m" + i);
        await().atMost(Duration.ofSeconds(10)).until(() -> c.stats().inFlight() == 3);
        // nothing more starts while the three are busy
        await().during(Duration.ofMillis(100)).atMost(Duration.ofSeconds(5)).until(() -> most.get() == 3);
        go.countDown();
        await().atMost(Duration.ofSeconds(10)).until(() -> c.stats().done() == 20);
        assertThat(most.get()).isEqualTo(3);
    }

    @Test
    void aGroupTakesOnlyItsPatternsAndAClosedConsumerLeavesTheRestToTheOthers() {
        topic = Topic.<String>builder("cg-patterns").build();
        List<String> got = new CopyOnWriteArrayList<>();
        ConsumerGroup rooms = ConsumerGroup.builder("rooms").patterns("room.*").build();
        Topic.Consumption first = topic.consume(rooms, pool, (m, d) -> got.add("first " + m.value()));
        first.close();
        topic.consume(rooms, pool, (m, d) -> got.add("second " + m.value()));
        topic.publish("room.1", "a");
        topic.publish("lobby", "b");
        await().atMost(Duration.ofSeconds(10)).until(() -> got.size() == 1);
        assertThat(got).containsExactly("second a");
    }

    @Test
    void settingsHaveDefaultsAndRanges() {
        ConsumerGroup g = ConsumerGroup.builder("g").build();
        assertThat(g.claimAfter()).isEqualTo(ConsumerGroup.DEFAULT_CLAIM_AFTER);
        assertThat(g.maxDeliveries()).isEqualTo(5);
        assertThat(g.maxInFlight()).isEqualTo(16);
        assertThat(g.patterns()).containsExactly("*");
        assertThatThrownBy(() -> ConsumerGroup.builder("a b")).hasMessageContaining("group name");
        assertThatThrownBy(() -> ConsumerGroup.builder("g").maxDeliveries(0).build()).hasMessageContaining("maxDeliveries");
        assertThatThrownBy(() -> ConsumerGroup.builder("g").claimAfter(Duration.ZERO).build()).hasMessageContaining("claimAfter");
        topic = Topic.<String>builder("cg-bad").build();
        assertThatThrownBy(() -> topic.consume(ConsumerGroup.builder("g").patterns("a..b").build(), pool, (m, d) -> { }))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
