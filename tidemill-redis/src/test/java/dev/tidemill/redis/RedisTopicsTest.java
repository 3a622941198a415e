package dev.tidemill.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.tidemill.MessageId;
import dev.tidemill.Subscription;
import dev.tidemill.Topic;
import io.netty.channel.DefaultEventLoop;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Topics on Redis Streams against a real redis-server: two nodes (two backends, each with its own
 * connections, as two processes would have) see every message in the same order with the stream's
 * ids; replay after an id; payload types; and a publish that would wait refused on an event loop.
 */
class RedisTopicsTest {
    @TempDir
    static Path dir;
    static RedisServer redis;
    static RedisTopics nodeA;
    static RedisTopics nodeB;

    @BeforeAll
    static void start() {
        redis = RedisServer.start(dir.resolve("redis"));
        nodeA = RedisTopics.connect(redis.url());
        nodeB = RedisTopics.connect(redis.url());
    }

    @AfterAll
    static void stop() {
        if (nodeA != null) nodeA.close();
        if (nodeB != null) nodeB.close();
        if (redis != null) redis.close();
    }

    record Note(String author, String text) {}

    @Test
    void everyNodeSeesEveryMessageInTheSameStreamOrder() throws Exception {
        Topic<String> a = nodeA.<String>builder("order").build();
        Topic<String> b = nodeB.<String>builder("order").build();
        try (Subscription<String> onA = a.subscribe("room.*"); Subscription<String> onB = b.subscribe("room.*")) {
            List<CompletionStage<MessageId>> sent = new ArrayList<>();
            for (int i = 0; i < 200; i++) sent.add((i % 2 == 0 ? a : b).publishAsync("room." + (i % 3), "m" + i));
            List<MessageId> ids = new ArrayList<>();
            for (CompletionStage<MessageId> s : sent) ids.add(s.toCompletableFuture().get(10, TimeUnit.SECONDS));
            List<Topic.Message<String>> gotA = read(onA, 200);
            List<Topic.Message<String>> gotB = read(onB, 200);
            assertThat(gotA).extracting(Topic.Message::id).as("stream order, ids increasing").isSorted().doesNotHaveDuplicates()
                    .containsExactlyInAnyOrderElementsOf(ids);
            assertThat(gotB).extracting(Topic.Message::id).as("the same order on the other node").isEqualTo(gotA.stream()
                    .map(Topic.Message::id).toList());
            assertThat(gotB).extracting(Topic.Message::value).isEqualTo(gotA.stream().map(Topic.Message::value).toList());
            assertThat(ids.get(0).major()).as("a stream id: milliseconds").isGreaterThan(1_700_000_000_000L);
            assertThat(onA.poll(Duration.ofMillis(200))).as("nothing twice").isNull();
        } finally {
            a.close();
            b.close();
        }
    }

    @Test
    void aSubscriptionGetsOnlyItsPatternsAndMessagesAfterItSubscribed() throws Exception {
        Topic<String> a = nodeA.<String>builder("patterns").build();
        Topic<String> b = nodeB.<String>builder("patterns").build();
        try {
            MessageId before = b.publishAsync("x.1", "before").toCompletableFuture().get(10, TimeUnit.SECONDS);
            // node A has read it (to no subscription) before the subscription starts
            await().atMost(Duration.ofSeconds(10)).until(() -> !before.isAfter(a.lastId()));
            Subscription<String> one = a.subscribe("x.1");
            b.publishAsync("x.2", "other").toCompletableFuture().get(10, TimeUnit.SECONDS);
            b.publishAsync("x.1", "after").toCompletableFuture().get(10, TimeUnit.SECONDS);
            assertThat(one.next().value()).isEqualTo("after");
            assertThat(one.poll(Duration.ofMillis(200))).isNull();
        } finally {
            a.close();
            b.close();
        }
    }

    @Test
    void replayGivesWhatTheStreamHoldsAfterAnIdAndSaysWhenSomeWereTrimmed() throws Exception {
        Topic<String> t = nodeA.<String>builder("replay").replay(1_000, Duration.ofHours(1)).build();
        try {
            List<MessageId> ids = new ArrayList<>();
            for (int i = 1; i <= 5; i++) ids.add(t.publishAsync("x", "m" + i).toCompletableFuture().get(10, TimeUnit.SECONDS));
            Topic.Replay<String> after2 = t.replayAsync(ids.get(1)).toCompletableFuture().get(10, TimeUnit.SECONDS);
            assertThat(after2.messages()).extracting(Topic.Message::value).containsExactly("m3", "m4", "m5");
            assertThat(after2.messages()).extracting(Topic.Message::id).containsExactlyElementsOf(ids.subList(2, 5));
            assertThat(after2.lost()).isZero();
            assertThat(t.replay(MessageId.ZERO).messages()).hasSize(5);
            assertThat(t.replay(ids.get(4)).messages()).as("after the last: nothing").isEmpty();
        } finally {
            t.close();
        }
        // A short stream: MAXLEN ~ trims whole nodes of 100 entries, so publish enough that some go.
        Topic<String> small = nodeA.<String>builder("trimmed").replay(10, Duration.ofHours(1)).build();
        try {
            MessageId first = small.publishAsync("x", "first").toCompletableFuture().get(10, TimeUnit.SECONDS);
            CompletableFuture<?>[] all = new CompletableFuture<?>[600];
            for (int i = 0; i < all.length; i++) all[i] = small.publishAsync("x", "n" + i).toCompletableFuture();
            CompletableFuture.allOf(all).get(20, TimeUnit.SECONDS);
            Topic.Replay<String> r = small.replayAsync(first).toCompletableFuture().get(10, TimeUnit.SECONDS);
            assertThat(r.lost()).as("entries after the id were trimmed: some, the stream does not say how many").isEqualTo(-1);
            assertThat(r.messages()).as("what is still there").isNotEmpty().hasSizeLessThan(601);
            assertThat(r.messages().getLast().value()).isEqualTo("n599");
        } finally {
            small.close();
        }
    }

    @Test
    void payloadsOfARecordTypeTravelAsJsonAndAStringTopicRefusesOthersSayingWhatToDo() throws Exception {
        Topic<Note> notes = nodeA.<Note>builder("notes").type(Note.class).build();
        Topic<Note> there = nodeB.<Note>builder("notes").type(Note.class).build();
        try (Subscription<Note> s = there.subscribe("*")) {
            notes.publishAsync("board", new Note("ada", "hi <b>")).toCompletableFuture().get(10, TimeUnit.SECONDS);
            assertThat(s.next().value()).isEqualTo(new Note("ada", "hi <b>"));
        } finally {
            notes.close();
            there.close();
        }
        Topic<Object> untyped = nodeA.builder("untyped").build();
        try {
            assertThat(untyped.publishAsync("x", new Note("a", "b")).toCompletableFuture())
                    .failsWithin(Duration.ofSeconds(5)).withThrowableThat().havingCause().withMessageContaining(".type(Note.class)");
        } finally {
            untyped.close();
        }
    }

    @Test
    void aPublishThatWaitsIsRefusedOnAnEventLoopWherePublishAsyncWorks() throws Exception {
        Topic<String> t = nodeA.<String>builder("loops").build();
        DefaultEventLoop loop = new DefaultEventLoop();
        try {
            Throwable refused = loop.submit(() -> t.publish("x", "m")).await().cause();
            assertThat(refused).isInstanceOf(IllegalStateException.class).hasMessageContaining("publishAsync");
            MessageId id = loop.submit(() -> t.publishAsync("x", "m")).get().toCompletableFuture().get(10, TimeUnit.SECONDS);
            assertThat(id).isNotNull();
            MessageId onVirtual = CompletableFuture.supplyAsync(() -> t.publish("x", "v"),
                    r -> Thread.ofVirtual().start(r)).get(10, TimeUnit.SECONDS);
            assertThat(onVirtual.isAfter(id)).isTrue();
        } finally {
            loop.shutdownGracefully(0, 0, TimeUnit.SECONDS);
            t.close();
        }
    }

    @Test
    void aNameIsOpenOncePerBackendAndFoundByIt() {
        Topic<String> t = nodeA.<String>builder("once").build();
        try {
            assertThatThrownBy(() -> nodeA.<String>builder("once").build()).hasMessageContaining("already open");
            assertThat(nodeA.find("once")).containsSame(t);
            assertThat(nodeB.find("once")).isEmpty();
        } finally {
            t.close();
        }
        assertThat(nodeA.find("once")).isEmpty();
    }

    @Test
    void theUrlNeverShowsItsCredentials() {
        RedisUrl u = RedisUrl.parse("rediss://app:s3cret@redis.example:6380/2");
        assertThat(u.toString()).isEqualTo("rediss://***@redis.example:6380/2").doesNotContain("s3cret", "app");
        assertThat(u.tls()).isTrue();
        assertThat(RedisUrl.parse("redis://h").port()).isEqualTo(RedisUrl.DEFAULT_PORT);
        for (String bad : List.of("http://h", "redis://", "redis://:pw@/x", "redis://h/db", "")) {
            assertThatThrownBy(() -> RedisUrl.parse(bad)).isInstanceOf(IllegalArgumentException.class)
                    .satisfies(e -> assertThat(e.getMessage()).doesNotContain("pw"));
        }
    }

    @Test
    void withoutTheVariableTheBackendIsNotEnabledAndTopicsStayInProcess() {
        assertThat(System.getenv(RedisUrl.VARIABLE)).as("this test runs without " + RedisUrl.VARIABLE).isNull();
        assertThat(new RedisTopics().enabled()).isFalse();
        Topic<String> t = Topic.<String>builder("in-process").build();
        try {
            assertThat(t.getClass().getName()).isEqualTo("dev.tidemill.internal.topic.LocalTopic");
        } finally {
            t.close();
        }
    }

    private static <T> List<Topic.Message<T>> read(Subscription<T> s, int n) throws InterruptedException {
        List<Topic.Message<T>> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Topic.Message<T> m = s.poll(Duration.ofSeconds(10));
            assertThat(m).as("message %d of %d", i + 1, n).isNotNull();
            out.add(m);
        }
        return out;
    }
}
