package dev.tidemill;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.netty.channel.DefaultEventLoop;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Topics in process: patterns, ids, the five overflow policies, callback delivery, replay, counters. */
@Timeout(30)
class TopicTest {
    private final List<Topic<?>> topics = new ArrayList<>();

    @AfterEach
    void closeTopics() {
        topics.forEach(Topic::close);
    }

    private <T> Topic<T> topic(String name, Topic.Overflow policy, int capacity) {
        Topic<T> t = Topic.<T>builder(name).overflow(policy).capacity(capacity).build();
        topics.add(t);
        return t;
    }

    private static List<Long> drain(Subscription<?> s) throws InterruptedException {
        List<Long> ids = new ArrayList<>();
        for (Topic.Message<?> m; (m = s.poll(Duration.ZERO)) != null; ) ids.add(m.id().major());
        return ids;
    }

    @Test
    void patternsMatchAsInStario() throws Exception {
        Topic<String> t = topic("patterns", Topic.Overflow.DROP_OLDEST, 16);
        Subscription<String> exact = t.subscribe("chat");
        Subscription<String> below = t.subscribe("chat.*");
        Subscription<String> all = t.subscribe("*");
        t.publish("chat", "a");
        t.publish("chat.room1", "b");
        t.publish("chat.room1.typing", "c");
        t.publish("chatter", "d");
        assertThat(drain(exact)).containsExactly(1L);
        assertThat(drain(below)).as("chat.* is everything below chat, not chat itself").containsExactly(2L, 3L);
        assertThat(drain(all)).containsExactly(1L, 2L, 3L, 4L);
    }

    @Test
    void aMessageReachesASubscriptionOnceWhateverItsPatternsOverlap() throws Exception {
        Topic<String> t = topic("overlap", Topic.Overflow.DROP_OLDEST, 16);
        Subscription<String> s = t.subscribe("room.42.message", "room.*", "room.42.*", "*", "room.42.message");
        t.publish("room.42.message", "hi");
        Topic.Message<String> m = s.next();
        assertThat(m.subject()).isEqualTo("room.42.message");
        assertThat(m.value()).isEqualTo("hi");
        assertThat(s.poll(Duration.ZERO)).isNull();
        assertThat(t.stats().delivered()).isEqualTo(1);
    }

    @Test
    void malformedSubjectsAndPatternsAreRefused() {
        Topic<String> t = topic("malformed", Topic.Overflow.DROP_OLDEST, 16);
        assertThatThrownBy(() -> t.publish("room.*", "x")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("only allowed in a pattern");
        assertThatThrownBy(() -> t.subscribe("room.*.message")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> t.publish("room", null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void idsIncreaseByOneAndEverySubscriptionSeesThemInOrderUnderConcurrentPublishers() throws Exception {
        Topic<Integer> t = topic("order", Topic.Overflow.BLOCK, 64);
        int publishers = 4;
        int each = 5_000;
        try (Subscription<Integer> a = t.subscribe("*"); Subscription<Integer> b = t.subscribe("n.*");
                ExecutorService vts = Executors.newVirtualThreadPerTaskExecutor()) {
            Future<List<Long>> readA = vts.submit(() -> read(a, publishers * each));
            Future<List<Long>> readB = vts.submit(() -> read(b, publishers * each));
            List<Future<?>> pubs = new ArrayList<>();
            for (int p = 0; p < publishers; p++) {
                int from = p;
                pubs.add(vts.submit(() -> {
                    for (int i = 0; i < each; i++) t.publish("n." + from, i);
                }));
            }
            for (Future<?> f : pubs) f.get();
            List<Long> expected = new ArrayList<>();
            for (long id = 1; id <= publishers * each; id++) expected.add(id);
            assertThat(readA.get()).as("BLOCK is lossless, and ids arrive in order").isEqualTo(expected);
            assertThat(readB.get()).isEqualTo(expected);
        }
        assertThat(t.lastId()).isEqualTo(MessageId.of(publishers * each));
        assertThat(t.stats().dropped()).isZero();
    }

    private static List<Long> read(Subscription<Integer> s, int n) throws InterruptedException {
        List<Long> ids = new ArrayList<>(n);
        for (int i = 0; i < n; i++) ids.add(s.next().id().major());
        return ids;
    }

    @Test
    void dropOldestKeepsTheNewest() throws Exception {
        Topic<String> t = topic("oldest", Topic.Overflow.DROP_OLDEST, 2);
        Subscription<String> s = t.subscribe("x");
        for (int i = 0; i < 5; i++) t.publish("x", "m" + i);
        assertThat(s.stats()).isEqualTo(new Subscription.Stats(0, 3, 2));
        assertThat(drain(s)).containsExactly(4L, 5L);
        assertThat(t.stats()).isEqualTo(new Topic.Stats(5, 2, 3, 0, 1));
    }

    @Test
    void dropNewestKeepsTheOldest() throws Exception {
        Topic<String> t = topic("newest", Topic.Overflow.DROP_NEWEST, 2);
        Subscription<String> s = t.subscribe("x");
        for (int i = 0; i < 5; i++) t.publish("x", "m" + i);
        assertThat(drain(s)).containsExactly(1L, 2L);
        assertThat(s.stats().dropped()).isEqualTo(3);
    }

    @Test
    void errorThrowsATypedExceptionAfterDeliveringToTheSubscriptionsWithRoom() throws Exception {
        Topic<String> t = topic("error", Topic.Overflow.ERROR, 1);
        Subscription<String> slow = t.subscribe("x");
        Subscription<String> fast = t.subscribe("x");
        t.publish("x", "first");
        fast.next();
        assertThatThrownBy(() -> t.publish("x", "second")).isInstanceOfSatisfying(TopicOverflowException.class, e -> {
            assertThat(e.messageId()).isEqualTo(MessageId.of(2));
            assertThat(e.missed()).isEqualTo(1);
            assertThat(e).hasMessageContaining("topic error").hasMessageContaining("capacity");
        });
        assertThat(fast.next().id()).isEqualTo(MessageId.of(2));
        assertThat(drain(slow)).containsExactly(1L);
    }

    @Test
    void disconnectClosesASubscriptionThatFallsBehindWithAReason() throws Exception {
        Topic<String> t = topic("disconnect", Topic.Overflow.DISCONNECT, 2);
        Subscription<String> slow = t.subscribe("x");
        Subscription<String> fast = t.subscribe("x");
        CompletableFuture<String> reason = slow.closed().toCompletableFuture();
        for (int i = 0; i < 3; i++) {
            t.publish("x", "m" + i);
            fast.next();
        }
        assertThat(slow.isOpen()).isFalse();
        assertThat(reason.get(1, TimeUnit.SECONDS)).contains("fell behind").contains("2 messages pending");
        assertThat(slow.stats().dropped()).as("the one that did not fit and the two pending").isEqualTo(3);
        assertThatThrownBy(slow::next).isInstanceOf(NoSuchElementException.class).hasMessageContaining("fell behind");
        assertThat(fast.isOpen()).isTrue();
        assertThat(t.stats().subscriptions()).isEqualTo(1);
    }

    @Test
    void blockMakesThePublisherWaitForRoom() throws Exception {
        Topic<String> t = topic("block", Topic.Overflow.BLOCK, 1);
        Subscription<String> s = t.subscribe("x");
        t.publish("x", "first");
        AtomicInteger published = new AtomicInteger();
        Thread publisher = Thread.ofVirtual().start(() -> {
            t.publish("x", "second");
            published.incrementAndGet();
        });
        await().until(() -> publisher.getState() == Thread.State.WAITING);
        assertThat(published).hasValue(0);
        assertThat(s.next().value()).isEqualTo("first");
        publisher.join(5_000);
        assertThat(published).hasValue(1);
        assertThat(s.next().value()).isEqualTo("second");
    }

    @Test
    void publishAsyncCompletesWithTheIdOrFailsAsPublishWouldThrow() throws Exception {
        Topic<String> t = topic("async", Topic.Overflow.DROP_OLDEST, 4);
        Subscription<String> s = t.subscribe("x");
        assertThat(t.publishAsync("x", "a").toCompletableFuture().get()).isEqualTo(MessageId.of(1));
        assertThat(s.next().id()).isEqualTo(MessageId.of(1));
        assertThat(t.publishAsync("x.*", "bad").toCompletableFuture()).isCompletedExceptionally();
        Topic<String> block = topic("async-block", Topic.Overflow.BLOCK, 1);
        block.subscribe("x");
        DefaultEventLoop loop = new DefaultEventLoop();
        try {
            var stage = loop.submit(() -> block.publishAsync("x", "m")).get();
            assertThat(stage.toCompletableFuture()).as("refused on the loop, as a failed stage, not a throw")
                    .failsWithin(java.time.Duration.ofSeconds(5)).withThrowableThat().withCauseInstanceOf(IllegalStateException.class);
        } finally {
            loop.shutdownGracefully(0, 0, TimeUnit.SECONDS);
        }
    }

    @Test
    void blockIsRefusedOnAnEventLoopBeforeAnythingBlocks() throws Exception {
        Topic<String> t = topic("block-io", Topic.Overflow.BLOCK, 1);
        t.subscribe("x");
        DefaultEventLoop loop = new DefaultEventLoop();
        try {
            Throwable refused = loop.submit(() -> t.publish("x", "m")).await().cause();
            assertThat(refused).isInstanceOf(IllegalStateException.class).hasMessageContaining("BLOCK")
                    .hasMessageContaining("virtual thread");
            assertThat(t.lastId()).as("refused before it got an id").isEqualTo(MessageId.ZERO);
        } finally {
            loop.shutdownGracefully(0, 0, TimeUnit.SECONDS);
        }
    }

    @Test
    void closingASubscriptionWakesABlockedPublisher() throws Exception {
        Topic<String> t = topic("block-close", Topic.Overflow.BLOCK, 1);
        Subscription<String> s = t.subscribe("x");
        t.publish("x", "first");
        Thread publisher = Thread.ofVirtual().start(() -> t.publish("x", "second"));
        await().until(() -> publisher.getState() == Thread.State.WAITING);
        s.close();
        publisher.join(5_000);
        assertThat(publisher.isAlive()).isFalse();
        assertThat(t.lastId()).isEqualTo(MessageId.of(2));
    }

    /** An executor that only queues tasks, so a test decides when they run and counts them. */
    private static final class ManualExecutor implements Executor {
        final ArrayDeque<Runnable> tasks = new ArrayDeque<>();
        int submitted;

        @Override
        public synchronized void execute(Runnable r) {
            submitted++;
            tasks.add(r);
        }

        synchronized Runnable next() {
            return tasks.poll();
        }

        void runAll() {
            for (Runnable r; (r = next()) != null; ) r.run();
        }
    }

    @Test
    void callbackDeliveryIsOneTaskPerBurst() {
        Topic<Integer> t = topic("burst", Topic.Overflow.DROP_OLDEST, 1024);
        ManualExecutor loop = new ManualExecutor();
        List<Integer> got = Collections.synchronizedList(new ArrayList<>());
        t.subscribe(loop, m -> got.add(m.value()), "x");
        for (int i = 0; i < 100; i++) t.publish("x", i);
        assertThat(loop.submitted).as("100 messages published while the loop was busy wake it once").isEqualTo(1);
        loop.runAll();
        assertThat(got).hasSize(100).startsWith(0, 1, 2).endsWith(99);
        assertThat(loop.submitted).as("the task yields after 64 messages and comes back once").isEqualTo(2);
        t.publish("x", 100);
        assertThat(loop.submitted).isEqualTo(3);
        loop.runAll();
        assertThat(got).hasSize(101);
    }

    @Test
    void aCallbackThatThrowsClosesItsSubscription() throws Exception {
        Topic<Integer> t = topic("throws", Topic.Overflow.DROP_OLDEST, 16);
        ManualExecutor loop = new ManualExecutor();
        Subscription<Integer> s = t.subscribe(loop, m -> {
            throw new IllegalStateException("boom");
        }, "x");
        t.publish("x", 1);
        t.publish("x", 2);
        loop.runAll();
        assertThat(s.isOpen()).isFalse();
        assertThat(s.closed().toCompletableFuture().get(1, TimeUnit.SECONDS)).contains("boom");
        assertThat(s.stats().dropped()).as("the message behind the failing one").isEqualTo(1);
        assertThatThrownBy(s::next).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void callbacksRunOnTheirExecutorNeverTwoAtOnce() throws Exception {
        Topic<Integer> t = topic("serial", Topic.Overflow.BLOCK, 8);
        AtomicInteger running = new AtomicInteger();
        AtomicInteger overlap = new AtomicInteger();
        AtomicLong lastId = new AtomicLong();
        AtomicInteger outOfOrder = new AtomicInteger();
        try (ExecutorService pool = Executors.newFixedThreadPool(4)) {
            t.subscribe(pool, m -> {
                if (running.incrementAndGet() > 1) overlap.incrementAndGet();
                if (m.id().major() != lastId.get() + 1 || m.id().minor() != 0) outOfOrder.incrementAndGet();
                lastId.set(m.id().major());
                running.decrementAndGet();
            }, "*");
            Thread publisher = Thread.ofVirtual().start(() -> {
                for (int i = 0; i < 20_000; i++) t.publish("n", i);
            });
            publisher.join();
            await().untilAsserted(() -> assertThat(lastId.get()).isEqualTo(20_000));
        }
        assertThat(overlap).hasValue(0);
        assertThat(outOfOrder).hasValue(0);
    }

    @Test
    void replayGivesWhatIsKeptAndCountsWhatIsLost() {
        Topic<String> t = Topic.<String>builder("replay").replay(3, Duration.ofMinutes(5)).build();
        topics.add(t);
        assertThat(t.replay(MessageId.of(0))).isEqualTo(new Topic.Replay<String>(List.of(), 0));
        for (int i = 1; i <= 5; i++) t.publish("x", "m" + i);
        Topic.Replay<String> fromStart = t.replay(MessageId.of(0));
        assertThat(fromStart.messages()).extracting(Topic.Message::id).containsExactly(MessageId.of(3), MessageId.of(4), MessageId.of(5));
        assertThat(fromStart.lost()).isEqualTo(2);
        assertThat(t.replay(MessageId.of(3)).messages()).extracting(Topic.Message::value).containsExactly("m4", "m5");
        assertThat(t.replay(MessageId.of(3)).lost()).isZero();
        assertThat(t.replay(MessageId.of(5))).isEqualTo(new Topic.Replay<String>(List.of(), 0));
        assertThat(t.replay(MessageId.of(99))).as("an id from the future (another process)").isEqualTo(new Topic.Replay<String>(List.of(), 0));
    }

    @Test
    void replayForgetsMessagesOlderThanItsAge() {
        Topic<String> t = Topic.<String>builder("replay-age").replay(100, Duration.ofMillis(50)).build();
        topics.add(t);
        t.publish("x", "old");
        await().atMost(Duration.ofSeconds(5)).until(() -> t.replay(MessageId.of(0)).messages().isEmpty());
        assertThat(t.replay(MessageId.of(0)).lost()).isEqualTo(1);
        t.publish("x", "new");
        assertThat(t.replay(MessageId.of(1)).messages()).extracting(Topic.Message::value).containsExactly("new");
    }

    @Test
    void withoutAReplayBufferEverythingMissedIsCountedAsLost() {
        Topic<String> t = topic("no-replay", Topic.Overflow.DROP_OLDEST, 4);
        t.publish("x", "a");
        t.publish("x", "b");
        assertThat(t.replay(MessageId.of(0))).isEqualTo(new Topic.Replay<String>(List.of(), 2));
    }

    @Test
    void namesAreUniqueWhileOpenAndClosingFreesThemAndEndsSubscriptions() throws Exception {
        Topic<String> t = Topic.<String>builder("unique").build();
        assertThat(Topic.find("unique")).containsSame(t);
        assertThatThrownBy(() -> Topic.builder("unique").build()).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("already open");
        Subscription<String> s = t.subscribe("*");
        t.publish("a", "pending");
        t.close();
        assertThat(s.closed().toCompletableFuture().get(1, TimeUnit.SECONDS)).isEqualTo("topic closed");
        assertThat(s.stats().dropped()).isEqualTo(1);
        assertThatThrownBy(() -> t.publish("a", "late")).isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
        assertThat(Topic.find("unique")).isEmpty();
        Topic.builder("unique").build().close();
    }

    @Test
    void settingsAreChecked() {
        assertThatThrownBy(() -> Topic.builder("c").capacity(0)).hasMessageContaining("capacity 0");
        assertThatThrownBy(() -> Topic.builder("c").replay(0, Duration.ofSeconds(1))).hasMessageContaining("replay size");
        assertThatThrownBy(() -> Topic.builder("c").replay(1, Duration.ZERO)).hasMessageContaining("positive");
        assertThatThrownBy(() -> Topic.builder(" ")).hasMessageContaining("name");
        assertThat(Topic.<String>builder("defaults").build()).satisfies(t -> {
            topics.add(t);
            assertThat(t.capacity()).isEqualTo(1024);
            assertThat(t.overflow()).isEqualTo(Topic.Overflow.DROP_OLDEST);
        });
    }

    @Test
    void aPullSubscriptionIteratesUntilClosed() throws Exception {
        Topic<String> t = topic("iterate", Topic.Overflow.DROP_OLDEST, 16);
        Subscription<String> s = t.subscribe("x");
        List<String> seen = new CopyOnWriteArrayList<>();
        Thread reader = Thread.ofVirtual().start(() -> s.forEach(m -> seen.add(m.value())));
        t.publish("x", "a");
        t.publish("x", "b");
        await().until(() -> seen.size() == 2);
        s.close();
        reader.join(5_000);
        assertThat(reader.isAlive()).isFalse();
        assertThat(seen).containsExactly("a", "b");
    }
}
