package dev.tidemill.internal.redis;

import dev.tidemill.ConsumerGroup;
import dev.tidemill.MessageId;
import dev.tidemill.Subscription;
import dev.tidemill.Topic;
import dev.tidemill.TopicOverflowException;
import dev.tidemill.TopicUnavailableException;
import dev.tidemill.internal.topic.LocalTopic;
import dev.tidemill.internal.topic.TopicReadings;
import dev.tidemill.internal.topic.StreamSource;
import dev.tidemill.redis.RedisTopics;
import io.lettuce.core.Limit;
import io.lettuce.core.Range;
import io.lettuce.core.RedisException;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.XAddArgs;
import io.lettuce.core.XReadArgs;
import io.lettuce.core.XTrimArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A topic stored in a Redis stream. A publish is an XADD (trimmed approximately to the topic's
 * length); the entry's id is the message's id. One virtual thread per topic and node reads the stream
 * with blocking XREADs on a connection of its own and hands each entry, in stream order, to this
 * node's subscriptions through a {@link LocalTopic#relay} (patterns, queues and overflow policies as in
 * process); an entry read twice after a reconnect is skipped there by its id. The reader starts after
 * the stream's last entry at build, and after a failure resumes after the last entry it delivered, so
 * a subscriber misses nothing while Redis is away and gets nothing twice.
 */
final class RedisTopic<T> implements Topic<T>, StreamSource<T> {
    private static final Logger LOG = LoggerFactory.getLogger(RedisTopic.class);
    /** Entries one blocking read takes at most. */
    static final int READ_BATCH = 512;
    /** How long one blocking read waits: also how long closing may wait for the reader. */
    static final Duration READ_BLOCK = Duration.ofSeconds(1);
    /** The reader's first and longest wait between attempts while Redis is unreachable (doubling). */
    static final Duration BACKOFF_MIN = Duration.ofMillis(100);
    static final Duration BACKOFF_MAX = Duration.ofSeconds(5);
    /** How often the reader trims entries older than the topic's age. */
    static final Duration AGE_TRIM_INTERVAL = Duration.ofMinutes(1);
    static final String SUBJECT = "subject";
    static final String VALUE = "value";

    private final RedisStore store;
    private final String name;
    private final String key;
    private final LocalTopic<T> fanout;
    private final Payload<T> payload;
    private final int maxLength;
    private final Duration maxAge;
    private final StatefulRedisConnection<String, String> reader;
    private final Thread readerThread;
    private final java.util.Queue<RedisConsumer<T>> consumers = new java.util.concurrent.ConcurrentLinkedQueue<>();
    private volatile boolean open = true;
    /** How old (ms, by the entry id's time) the newest entry of the last read was when read; 0 after a read that found nothing new. */
    private volatile long lagMillis;
    private final java.util.concurrent.atomic.LongAdder reconnects = new java.util.concurrent.atomic.LongAdder();

    RedisTopic(RedisStore store, String name, int capacity, Overflow overflow, Payload<T> payload, int maxLength, Duration maxAge) {
        this.store = store;
        this.name = name;
        this.key = RedisTopics.KEY_PREFIX + name;
        this.fanout = LocalTopic.relay(name, capacity, overflow);
        this.payload = payload;
        this.maxLength = maxLength;
        this.maxAge = maxAge;
        MessageId start = lastStored();
        this.reader = store.readerConnection();
        this.readerThread = Thread.ofVirtual().name("tidemill-redis-" + name).unstarted(() -> read(start));
    }

    /** Registers the topic with its store and starts its reader; on a name already open, frees what it holds and throws. */
    void open() {
        try {
            store.register(this);
        } catch (IllegalStateException taken) {
            reader.close();
            throw taken;
        }
        readerThread.start();
        java.util.Map<String, String> tags = java.util.Map.of("topic", name);
        // the same meters as an in-process topic's (its fan-out is not registered as a topic of its own), for this node
        TopicReadings.add("tidemill.topic.published", "messages of the topic this node read from Redis (published on any node)",
                TopicReadings.Kind.COUNTER, tags, this, t -> t.stats().published());
        TopicReadings.add("tidemill.topic.delivered", "messages handed to a subscriber on this node", TopicReadings.Kind.COUNTER,
                tags, this, t -> t.stats().delivered());
        TopicReadings.add("tidemill.topic.dropped", "messages a full subscription on this node dropped (its overflow policy)",
                TopicReadings.Kind.COUNTER, tags, this, t -> t.stats().dropped());
        TopicReadings.add("tidemill.topic.subscribers", "subscriptions open on this node now", TopicReadings.Kind.GAUGE, tags, this,
                t -> t.stats().subscriptions());
        TopicReadings.add("tidemill.topic.pending", "messages queued in this node's subscriptions, not yet delivered",
                TopicReadings.Kind.GAUGE, tags, this, t -> t.stats().pending());
        TopicReadings.add("tidemill.topic.lag", "seconds between an entry's time in its id and this node's reader reading it, at "
                + "the last read (0: nothing new)", TopicReadings.Kind.GAUGE, tags, this, t -> t.lagMillis / 1000.0);
        TopicReadings.add("tidemill.topic.reconnects", "times this node's reader of the topic read again after Redis stopped answering",
                TopicReadings.Kind.COUNTER, tags, this, t -> t.reconnects.sum());
    }

    /** @return the id of the stream's last entry, or {@link MessageId#ZERO}: where the reader starts */
    private MessageId lastStored() {
        try {
            List<StreamMessage<String, String>> last = store.commands().sync().xrevrange(key, Range.create("-", "+"), Limit.from(1));
            return last.isEmpty() ? MessageId.ZERO : MessageId.fromText(last.get(0).getId());
        } catch (RedisException e) {
            throw new IllegalStateException("topic " + name + ": cannot read its stream " + key + " at " + store.display() + ": "
                    + e.getMessage(), e);
        }
    }

    /** The reader: blocking reads, each entry to the fan-out; on failure, backoff and resume after the last delivered. */
    private void read(MessageId start) {
        MessageId after = start;
        Duration backoff = BACKOFF_MIN;
        boolean down = false;
        long nextTrim = System.nanoTime();
        while (open) {
            try {
                List<StreamMessage<String, String>> got = reader.sync().xread(XReadArgs.Builder.block(READ_BLOCK).count(READ_BATCH),
                        XReadArgs.StreamOffset.from(key, after.toString()));
                if (down) {
                    LOG.info("topic {}: Redis at {} answers again; reading after {}", name, store.display(), after);
                    reconnects.increment();
                    down = false;
                    backoff = BACKOFF_MIN;
                }
                for (StreamMessage<String, String> m : got) {
                    after = MessageId.fromText(m.getId());
                    deliver(after, m.getBody());
                }
                lagMillis = got.isEmpty() ? 0 : Math.max(0, System.currentTimeMillis() - after.major());
                if (System.nanoTime() - nextTrim >= 0) {
                    trimByAge();
                    nextTrim = System.nanoTime() + AGE_TRIM_INTERVAL.toNanos();
                }
            } catch (RedisException e) {
                if (!open) break;
                if (!down) {
                    // once per outage, not per attempt
                    LOG.warn("topic {}: cannot read from Redis at {} ({}); retrying, up to every {} s", name, store.display(),
                            e.getMessage(), BACKOFF_MAX.toSeconds());
                    down = true;
                }
                try {
                    Thread.sleep(backoff);
                } catch (InterruptedException stop) {
                    break;
                }
                backoff = backoff.multipliedBy(2).compareTo(BACKOFF_MAX) > 0 ? BACKOFF_MAX : backoff.multipliedBy(2);
            }
        }
    }

    private void deliver(MessageId id, Map<String, String> body) {
        String subject = body.get(SUBJECT);
        T value;
        try {
            value = payload.decode(body.get(VALUE));
            LocalTopic.checkSubject(subject);
        } catch (RuntimeException bad) {
            LOG.warn("topic {}: entry {} of {} is not a message of this topic ({}); skipped", name, id, key, bad.getMessage());
            return;
        }
        try {
            fanout.deliver(id, subject, value);
        } catch (TopicOverflowException full) {
            // ERROR policy: the subscriptions with room got it; the drop is counted in the fan-out's stats
        } catch (IllegalStateException closed) {
            // the topic closed while delivering
        }
    }

    /** XTRIM MINID ~ now - maxAge: entries are ids of milliseconds, so older entries have smaller ids. */
    private void trimByAge() {
        long minMillis = System.currentTimeMillis() - maxAge.toMillis();
        if (minMillis > 0) store.commands().async().xtrim(key, XTrimArgs.Builder.minId(minMillis + "-0").approximateTrimming());
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public int capacity() {
        return fanout.capacity();
    }

    @Override
    public Overflow overflow() {
        return fanout.overflow();
    }

    /** Waits for Redis: refused on an event loop or a worker loop, where {@link #publishAsync} is the way. */
    @Override
    public MessageId publish(String subject, T value) {
        if (LocalTopic.mustNotBlock()) {
            throw new IllegalStateException("topic " + name + " is stored in Redis: a publish waits for it, which would stall this "
                    + "event loop or worker loop and every connection it serves; use publishAsync here, or publish from a virtual thread");
        }
        return await(publishAsync(subject, value));
    }

    @Override
    public CompletionStage<MessageId> publishAsync(String subject, T value) {
        String encoded;
        try {
            LocalTopic.checkSubject(subject);
            encoded = payload.encode(Objects.requireNonNull(value, "value"));
            if (!open) throw new IllegalStateException("topic " + name + " is closed");
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        Map<String, String> body = new LinkedHashMap<>();
        body.put(SUBJECT, subject);
        body.put(VALUE, encoded);
        CompletableFuture<MessageId> out = new CompletableFuture<>();
        try {
            store.commands().async().xadd(key, XAddArgs.Builder.maxlen(maxLength).approximateTrimming(), body).whenComplete((id, e) -> {
                if (e == null) out.complete(MessageId.fromText(id));
                else out.completeExceptionally(unavailable("the message was not stored", e));
            });
        } catch (RuntimeException e) {
            out.completeExceptionally(unavailable("the message was not stored", e));
        }
        return out;
    }

    private TopicUnavailableException unavailable(String what, Throwable e) {
        Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
        return new TopicUnavailableException(name, what + " (Redis at " + store.display() + ": " + cause.getMessage() + ")", cause);
    }

    /** A stream consumer group ({@link RedisConsumer}); the consumer's name defaults to this node's id ({@link RedisStore#nodeId}). */
    @Override
    public Consumption consume(ConsumerGroup group, Executor executor, Worker<T> worker) {
        Objects.requireNonNull(executor, "executor");
        Objects.requireNonNull(worker, "worker");
        group.patterns().forEach(LocalTopic::checkPattern);
        if (!open) throw new IllegalStateException("topic " + name + " is closed");
        RedisConsumer<T> c = new RedisConsumer<>(store, name, key, group, group.consumer().orElse(store.nodeId()), executor, worker, payload);
        consumers.add(c);
        return c;
    }

    @Override
    public Subscription<T> subscribe(String... patterns) {
        return fanout.subscribe(patterns);
    }

    @Override
    public Subscription<T> subscribe(Executor executor, Consumer<Message<T>> onMessage, String... patterns) {
        return fanout.subscribe(executor, onMessage, patterns);
    }

    @Override
    public Subscription<T> subscribeAsync(Executor executor, Function<Message<T>, CompletionStage<?>> onMessage, String... patterns) {
        return fanout.subscribeAsync(executor, onMessage, patterns);
    }

    /** Waits for Redis: refused where a publish is ({@link #publish}). */
    @Override
    public Replay<T> replay(MessageId afterId) {
        if (LocalTopic.mustNotBlock()) {
            throw new IllegalStateException("topic " + name + " is stored in Redis: use replayAsync on an event loop or a worker loop");
        }
        return await(replayAsync(afterId));
    }

    /**
     * XRANGE after the id (exclusive), every entry the stream holds after it; and whether entries
     * after it are gone (XINFO STREAM, Redis 7.0: see {@link StreamInfo#lostAfter}): then {@code lost} is -1,
     * some, the stream does not say how many.
     */
    @Override
    public CompletionStage<Replay<T>> replayAsync(MessageId afterId) {
        Objects.requireNonNull(afterId, "afterId");
        CompletableFuture<Replay<T>> out = new CompletableFuture<>();
        try {
            var async = store.commands().async();
            // Everything the stream holds after the id: it is trimmed to about maxLength entries, and a
            // replay cut short would leave a silent gap before the live messages.
            var range = async.xrange(key, Range.from(Range.Boundary.excluding(afterId.toString()), Range.Boundary.unbounded()));
            var info = async.xinfoStream(key);
            range.thenCombine(info.handle((i, e) -> e == null ? i : List.<Object>of()), (entries, xinfo) -> {
                List<Message<T>> messages = new ArrayList<>(entries.size());
                long now = System.nanoTime();
                for (StreamMessage<String, String> m : entries) {
                    try {
                        messages.add(new Message<>(MessageId.fromText(m.getId()), m.getBody().get(SUBJECT),
                                payload.decode(m.getBody().get(VALUE)), now));
                    } catch (RuntimeException bad) {
                        LOG.warn("topic {}: entry {} of {} is not a message of this topic ({}); skipped", name, m.getId(), key, bad.getMessage());
                    }
                }
                return new Replay<>(List.copyOf(messages), StreamInfo.lostAfter(xinfo, afterId) ? -1 : 0);
            }).whenComplete((r, e) -> {
                if (e == null) out.complete(r);
                else out.completeExceptionally(unavailable("the messages after " + afterId + " were not read", e));
            });
        } catch (RuntimeException e) {
            out.completeExceptionally(unavailable("the messages after " + afterId + " were not read", e));
        }
        return out;
    }

    /** @return the id of the last message this node delivered to its subscriptions ({@link MessageId#ZERO} before the first) */
    @Override
    public MessageId lastId() {
        return fanout.lastId();
    }

    /** @return this node's counters: published counts the messages this node delivered, from every node */
    @Override
    public Stats stats() {
        return fanout.stats();
    }

    @Override
    public void close() {
        if (!open) return;
        open = false;
        store.unregister(this);
        consumers.forEach(RedisConsumer::close);
        fanout.close();
        readerThread.interrupt();
        try {
            readerThread.join(READ_BLOCK.toMillis() * 3);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        reader.close();
    }

    private <R> R await(CompletionStage<R> stage) {
        try {
            return stage.toCompletableFuture().get(RedisTopics.COMMAND_TIMEOUT.toMillis() + 1_000, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) throw r;
            throw new IllegalStateException(e.getCause());
        } catch (TimeoutException e) {
            throw unavailable("no answer in time", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for Redis", e);
        }
    }

    @Override
    public String toString() {
        return "topic " + name + " (Redis stream " + key + ", " + overflow() + ", capacity " + capacity() + ")";
    }
}
