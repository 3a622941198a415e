package dev.tidemill;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.function.Consumer;

/**
 * A named, process-wide publish/subscribe channel. Messages are published to a dotted
 * <em>subject</em> ({@code room.42.message}); a subscription names one or more <em>patterns</em>:
 * an exact subject, a prefix wildcard ({@code room.*}: every subject with a dot after
 * {@code room}, at any depth) or the catch-all {@code *}. A message reaches a subscription at most
 * once, however many of its patterns match.
 *
 * <p>Every subscription has its own bounded queue ({@link Builder#capacity}, default
 * {@value #DEFAULT_CAPACITY}); what happens when it is full is the topic's {@link Overflow}
 * policy. Nothing grows without bound: a slow subscriber costs at most its capacity.
 *
 * <p>Publishing is thread-safe from any thread. Messages get a topic-wide {@link MessageId}, in
 * process {@code 1-0}, {@code 2-0} and on, and every subscription receives them in id order. A topic can keep the last messages for
 * resuming clients ({@link Builder#replay}, used by SSE's {@code Last-Event-ID}).
 *
 * <pre>{@code
 * Topic<String> chat = Topic.<String>builder("chat").overflow(Topic.Overflow.DROP_OLDEST).build();
 * try (Subscription<String> room = chat.subscribe("room.42")) {   // on a virtual thread
 *     chat.publish("room.42", "hello");
 *     Topic.Message<String> m = room.next();
 * }
 * }</pre>
 *
 * @param <T> the message type
 */
public interface Topic<T> {
    /** Messages a subscription holds before its topic's {@link Overflow} policy applies. */
    int DEFAULT_CAPACITY = 1024;

    /** What a publish does when a subscription's queue is full. */
    enum Overflow {
        /** The subscription's oldest pending message is dropped to make room (the default). */
        DROP_OLDEST,
        /** The new message is dropped for that subscription. */
        DROP_NEWEST,
        /**
         * The publisher waits until there is room: lossless. Refused at publish time, with an
         * {@link IllegalStateException}, on a thread that must never block (an I/O event loop or
         * a worker loop).
         */
        BLOCK,
        /**
         * The publish delivers to every subscription with room, then throws a
         * {@link TopicOverflowException} naming how many it missed.
         */
        ERROR,
        /** A subscription that falls behind is closed, with a reason that says so. */
        DISCONNECT
    }

    /** What a topic promises about an acknowledged publish ({@link Builder#durability}). */
    enum Durability {
        /** What the store keeps as it is configured (the default): in process, messages go with the process. */
        AS_CONFIGURED,
        /**
         * An acknowledged publish survives a crash of the store's machine. Checked when the topic is
         * built: in process it cannot be (refused); on Redis the server must have {@code appendonly yes},
         * {@code appendfsync always} and {@code maxmemory-policy noeviction}, read with {@code CONFIG GET},
         * and a Redis that refuses {@code CONFIG} is refused too.
         */
        STRICT,
        /** As {@link #STRICT}, but a Redis that refuses {@code CONFIG} (a managed one, an ACL) is taken on trust. */
        STRICT_ON_TRUST
    }

    /**
     * A published message.
     *
     * @param id the topic-wide id, increasing with each publish (in process {@code <n>-0}, n from 1)
     * @param subject the subject it was published to
     * @param value the payload
     * @param publishedNanos {@link System#nanoTime()} at publish (for latency measurements)
     * @param <T> the payload type
     */
    record Message<T>(MessageId id, String subject, T value, long publishedNanos) { }

    /**
     * What a replay returns: the messages after an id still in the buffer, and how many were
     * already gone.
     *
     * @param messages the messages after the asked-for id, oldest first
     * @param lost how many messages after that id are no longer kept (0: none lost; -1: some, the
     *     backend cannot say how many)
     * @param <T> the payload type
     */
    record Replay<T>(List<Message<T>> messages, long lost) { }

    /**
     * Counters, read without stopping publishers (each is exact, together they are a snapshot of
     * moments close to each other).
     *
     * @param published messages published
     * @param delivered messages handed to subscribers (taken from their queues)
     * @param dropped messages a subscription did not get (overflow, or closed while pending)
     * @param pending messages waiting in subscription queues now
     * @param subscriptions open subscriptions now
     */
    record Stats(long published, long delivered, long dropped, long pending, int subscriptions) { }

    /**
     * @param name the topic's name, unique in the process
     * @param <T> the message type
     * @return a builder; {@link Builder#build()} registers the topic
     */
    static <T> Builder<T> builder(String name) {
        return TopicBackends.backend().builder(name);
    }

    /**
     * @param name a topic's name
     * @return the open topic of that name, if there is one
     */
    static Optional<Topic<?>> find(String name) {
        return TopicBackends.backend().find(name);
    }

    /** @return the name */
    String name();

    /** @return messages each subscription holds before {@link #overflow()} applies */
    int capacity();

    /** @return the overflow policy */
    Overflow overflow();

    /**
     * Publishes to every subscription with a matching pattern.
     *
     * @param subject a dotted subject: non-empty segments of any characters but {@code .} and
     *     {@code *}, no leading or trailing dot
     * @param value the payload (not null)
     * @return the message's id
     * @throws IllegalArgumentException for a malformed subject
     * @throws TopicOverflowException under {@link Overflow#ERROR}, when a subscription was full
     * @throws IllegalStateException under {@link Overflow#BLOCK} on a thread that must not block,
     *     or when the topic is closed; on a backend that stores messages elsewhere (Redis), on any
     *     thread that must not block: use {@link #publishAsync} there
     */
    MessageId publish(String subject, T value);

    /**
     * Publishes without waiting: the stage completes with the message's id once the backend has
     * stored it (in process: at once), or exceptionally with what {@link #publish} would throw.
     * Callable from any thread, event loops included.
     *
     * @param subject as {@link #publish}
     * @param value the payload (not null)
     * @return the message's id, once stored
     */
    default CompletionStage<MessageId> publishAsync(String subject, T value) {
        try {
            return CompletableFuture.completedFuture(publish(subject, value));
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /**
     * Consumes the topic as one consumer of a consumer group (a work queue; see {@link ConsumerGroup}):
     * each message after the group was first made, and matching its patterns, goes to one consumer of
     * the group, at least once. The group is made on first use.
     *
     * @param group the group and this consumer's settings
     * @param executor where {@code worker} runs (a worker loop, a virtual-thread executor)
     * @param worker called once per delivery; returning marks the message done, throwing fails the delivery
     * @return the consumer; close it to stop taking messages
     * @throws IllegalStateException when the topic is closed
     */
    Consumption consume(ConsumerGroup group, Executor executor, Worker<T> worker);

    /**
     * What a consumer of a {@link ConsumerGroup} does with a message.
     *
     * @param <T> the message type
     */
    @FunctionalInterface
    interface Worker<T> {
        /**
         * @param message the message
         * @param delivery 1 the first time, more when delivered again after a failure or a consumer that stopped
         * @throws Exception to fail this delivery: it is delivered again after
         *     {@link ConsumerGroup#claimAfter()}, or goes to the dead letters after
         *     {@link ConsumerGroup#maxDeliveries()}
         */
        void handle(Message<T> message, int delivery) throws Exception;
    }

    /** One consumer of a consumer group ({@link #consume}). */
    interface Consumption extends AutoCloseable {
        /** @return this consumer's name in its group */
        String consumer();

        /** @return this consumer's counters */
        ConsumptionStats stats();

        /**
         * Stops taking messages; those in the worker finish. Unfinished ones stay with the group, to
         * be delivered again after {@link ConsumerGroup#claimAfter()}. Idempotent.
         */
        @Override
        void close();
    }

    /**
     * A consumer's counters.
     *
     * @param done deliveries whose worker returned
     * @param failed deliveries whose worker threw
     * @param deadLettered messages this consumer moved to the dead letters
     * @param claimed messages this consumer took over from consumers that had left them unfinished
     * @param inFlight messages in its worker now
     * @param pending messages of the whole group handed out or waiting and not yet done (in process:
     *     queued, in workers, or waiting to be delivered again; on Redis: the group's XPENDING count
     *     as of this consumer's last claim check, about every {@code claimAfter / 2})
     */
    record ConsumptionStats(long done, long failed, long deadLettered, long claimed, int inFlight, long pending) { }

    /**
     * A subscription read by pulling ({@link Subscription#next()}), typically on a virtual thread.
     *
     * @param patterns subjects, prefix wildcards ({@code a.b.*}) or {@code *}; at least one
     * @return the subscription; it receives every message published after this returns
     * @throws IllegalArgumentException for a malformed pattern
     */
    Subscription<T> subscribe(String... patterns);

    /**
     * A subscription whose messages run {@code onMessage} on {@code executor}: one task per burst
     * of messages, never two at once, in id order. If {@code onMessage} throws, the subscription
     * closes with the exception as its reason.
     *
     * @param executor where {@code onMessage} runs (a worker loop, an event loop, a virtual-thread executor)
     * @param onMessage called once per message
     * @param patterns as {@link #subscribe(String...)}
     * @return the subscription ({@link Subscription#next()} is not available on it)
     */
    Subscription<T> subscribe(Executor executor, Consumer<Message<T>> onMessage, String... patterns);

    /**
     * @param afterId the last id a client saw ({@link MessageId#ZERO}: it saw none)
     * @return the kept messages after {@code afterId}, and how many after it are gone; empty
     *     when the topic keeps no replay buffer
     */
    Replay<T> replay(MessageId afterId);

    /**
     * {@link #replay} without waiting: in process it completes at once; a backend that stores
     * messages elsewhere reads them there. Callable from any thread, event loops included.
     *
     * @param afterId as {@link #replay}
     * @return the kept messages after {@code afterId}, and how many after it are gone ({@code -1}:
     *     some are, how many is not known)
     */
    default CompletionStage<Replay<T>> replayAsync(MessageId afterId) {
        try {
            return CompletableFuture.completedFuture(replay(afterId));
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** @return the id of the last message published ({@link MessageId#ZERO} before the first) */
    MessageId lastId();

    /** @return the topic's counters */
    Stats stats();

    /** Closes every subscription (reason "topic closed") and frees the name. Idempotent. */
    void close();

    /**
     * Where topics live: the service {@link #builder} and {@link #find} use, found with
     * {@link java.util.ServiceLoader}. The core provides the in-process one (topics in this JVM,
     * lost with it); an add-on module can provide another that keeps the same contract, and is
     * used instead when it is {@link #enabled()} (tidemill-redis with {@code TIDEMILL_REDIS_URL}).
     */
    interface Backend {
        /**
         * @param name the topic's name, unique in the process; not blank
         * @param <T> the message type
         * @return a builder; {@link Builder#build()} registers the topic
         * @throws IllegalArgumentException for a blank name
         */
        <T> Builder<T> builder(String name);

        /**
         * @param name a topic's name
         * @return the open topic of that name, if there is one
         */
        Optional<Topic<?>> find(String name);

        /**
         * Whether this backend is configured to be used. An add-on backend may be on the path but not
         * configured (Redis without {@code TIDEMILL_REDIS_URL}); then topics stay in process.
         *
         * @return true (the default) when it is
         */
        default boolean enabled() {
            return true;
        }

        /**
         * What {@code /readyz} checks for this backend: every app whose topics are on it gets the
         * check as {@code topics} unless it registers a check of that name itself. In process there
         * is nothing to check (empty, the default); on Redis the check fails while Redis does not answer.
         *
         * @return the check, if there is one
         */
        default Optional<ReadinessCheck> readiness() {
            return Optional.empty();
        }
    }

    /**
     * Settings of a new topic.
     *
     * @param <T> the message type
     */
    interface Builder<T> {
        /**
         * @param messages queue size per subscription, 1 to 1,048,576; default {@value Topic#DEFAULT_CAPACITY}
         * @return this
         */
        Builder<T> capacity(int messages);

        /**
         * @param policy what a publish does when a subscription is full; default {@link Overflow#DROP_OLDEST}
         * @return this
         */
        Builder<T> overflow(Overflow policy);

        /**
         * Keeps the last messages for {@link Topic#replay}: at most {@code messages} of them, none
         * older than {@code maxAge}. Default: no replay buffer.
         *
         * @param messages how many to keep, 1 to 1,048,576
         * @param maxAge how long to keep one (positive)
         * @return this
         */
        Builder<T> replay(int messages, Duration maxAge);

        /**
         * The payload's type, for a backend that stores messages outside the process (as JSON, or as
         * they are for {@code String}); in process it is not needed. Default: {@code String}.
         *
         * @param type the class of {@code T}
         * @return this
         */
        default Builder<T> type(Class<T> type) {
            return this;
        }

        /**
         * @param durability what an acknowledged publish must survive; default {@link Durability#AS_CONFIGURED}
         * @return this
         */
        Builder<T> durability(Durability durability);

        /**
         * @return the topic, registered under its name
         * @throws IllegalStateException if an open topic already has the name
         */
        Topic<T> build();
    }
}
