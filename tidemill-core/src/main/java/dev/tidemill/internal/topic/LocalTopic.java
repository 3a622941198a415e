package dev.tidemill.internal.topic;

import dev.tidemill.Subscription;
import dev.tidemill.MessageId;
import dev.tidemill.Topic;
import dev.tidemill.TopicOverflowException;
import dev.tidemill.internal.dispatch.WorkerLoop;
import io.netty.util.internal.ThreadExecutorMap;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * A topic in this process. A publish takes the topic's publish lock, gives the message the next
 * id, keeps it for replay, and offers it to the subscriptions of each pattern that can match the
 * subject ({@link Subjects#keys}); holding the lock through the fan-out is what makes every
 * subscription see ids in order. Subscriptions per pattern are arrays replaced on change, so a
 * fan-out that closes a subscription (DISCONNECT) iterates safely.
 */
public final class LocalTopic<T> implements Topic<T>, StreamSource<T> {
    /** Largest capacity and replay size accepted. */
    public static final int MAX_CAPACITY = 1 << 20;
    private static final Map<String, LocalTopic<?>> TOPICS = new ConcurrentHashMap<>();
    @SuppressWarnings("rawtypes")
    private static final LocalSubscription[] NONE = new LocalSubscription[0];

    private final String name;
    private final int capacity;
    private final Overflow overflow;
    private final ReentrantLock publishLock = new ReentrantLock();
    // Guarded by publishLock.
    private final Map<String, LocalSubscription<T>[]> byPattern = new HashMap<>();
    private final ReplayBuffer<T> replay;
    private final Map<String, LocalGroup<T>> groups = new HashMap<>(); // guarded by publishLock
    private final boolean relay;
    private long lastNumber; // in-process ids: <lastNumber>-0
    private int subscriptions;
    private boolean closed;
    private volatile MessageId lastIdSeen = MessageId.ZERO;
    private final LongAdder published = new LongAdder();
    private final LongAdder delivered = new LongAdder();
    private final LongAdder dropped = new LongAdder();

    LocalTopic(String name, int capacity, Overflow overflow, ReplayBuffer<T> replay, boolean relay) {
        this.name = name;
        this.capacity = capacity;
        this.overflow = overflow;
        this.replay = replay;
        this.relay = relay;
    }

    /**
     * The fan-out of a topic stored elsewhere: subscriptions, patterns and overflow as in process,
     * messages handed in by {@link #deliver} with their stored ids. Not registered under its name
     * (the backend's topic is), no replay buffer (the store replays).
     *
     * @param name the topic's name, for messages and metrics
     * @param capacity messages per subscription
     * @param overflow the overflow policy
     * @param <T> the message type
     * @return the fan-out
     */
    public static <T> LocalTopic<T> relay(String name, int capacity, Overflow overflow) {
        if (capacity < 1 || capacity > MAX_CAPACITY) throw new IllegalArgumentException("capacity " + capacity + " is outside 1 to " + MAX_CAPACITY);
        return new LocalTopic<>(name, capacity, Objects.requireNonNull(overflow, "overflow"), null, true);
    }

    /** @see Topic#builder */
    public static <T> Topic.Builder<T> builder(String name) {
        if (name == null || name.isBlank()) throw new IllegalArgumentException("a topic needs a name");
        return new LocalTopicBuilder<>(name);
    }

    /**
     * @param pattern a well-formed pattern
     * @param subject a well-formed subject
     * @return whether the pattern matches the subject
     */
    public static boolean matches(String pattern, String subject) {
        if (pattern.equals("*") || pattern.equals(subject)) return true;
        return pattern.endsWith(".*") && subject.length() > pattern.length() - 1
                && subject.startsWith(pattern.substring(0, pattern.length() - 1));
    }

    /** @throws IllegalArgumentException unless {@code pattern} is well-formed */
    public static void checkPattern(String pattern) {
        Subjects.checkPattern(pattern);
    }

    /** @return every open topic of the process, for the metrics scrape */
    public static java.util.Collection<LocalTopic<?>> open() {
        return java.util.List.copyOf(TOPICS.values());
    }

    /**
     * The ranges every backend's builder takes (in process and on Redis alike).
     *
     * @param what {@code capacity} or {@code replay size}
     * @param n the number
     * @return n
     * @throws IllegalArgumentException unless 1 to {@value #MAX_CAPACITY}
     */
    public static int checkSize(String what, int n) {
        if (n < 1 || n > MAX_CAPACITY) throw new IllegalArgumentException(what + " " + n + " is outside 1 to " + MAX_CAPACITY);
        return n;
    }

    /** @return the age @throws IllegalArgumentException unless positive */
    public static java.time.Duration checkAge(java.time.Duration age) {
        if (age == null || age.isNegative() || age.isZero()) throw new IllegalArgumentException("replay age must be positive");
        return age;
    }

    /** Registers a topic under its name. @throws IllegalStateException if an open topic has it */
    static void register(LocalTopic<?> t) {
        LocalTopic<?> existing = TOPICS.putIfAbsent(t.name, t);
        if (existing != null) throw new IllegalStateException("a topic named " + t.name + " is already open: " + existing);
    }

    /** @see Topic#find */
    public static Optional<Topic<?>> find(String name) {
        return Optional.ofNullable(TOPICS.get(name));
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public int capacity() {
        return capacity;
    }

    @Override
    public Overflow overflow() {
        return overflow;
    }

    @Override
    public MessageId publish(String subject, T value) {
        Subjects.checkSubject(subject);
        Objects.requireNonNull(value, "value");
        if (relay) throw new IllegalStateException("topic " + name + " relays messages stored elsewhere: publish through its backend");
        if (overflow == Overflow.BLOCK && mustNotBlock()) {
            throw new IllegalStateException("topic " + name + " uses the BLOCK overflow policy: a publish on an I/O event "
                    + "loop or a worker loop could block it and every connection it serves; publish from a virtual "
                    + "thread (ExecutionMode.VIRTUAL) or choose another policy");
        }
        return fanOut(null, subject, value);
    }

    /**
     * For a backend that stores messages elsewhere (a {@link #relay}): hands a stored message to this
     * process's subscriptions with the id it was stored under. An id that is not after the last one
     * delivered is skipped, so a message read twice (a reconnect) reaches no subscription twice.
     * Under {@link Overflow#BLOCK} it waits for room, so call it from a thread that may block.
     *
     * @param id the id the message was stored under
     * @param subject its subject
     * @param value its payload
     * @return whether it was delivered (false: a duplicate)
     * @throws TopicOverflowException under {@link Overflow#ERROR}, when a subscription was full
     */
    public boolean deliver(MessageId id, String subject, T value) {
        return fanOut(Objects.requireNonNull(id, "id"), subject, value) != null;
    }

    /** Numbers the message (or takes {@code given}), keeps it, offers it to each matching subscription. */
    private MessageId fanOut(MessageId given, String subject, T value) {
        String[] keys = Subjects.keys(subject);
        int missed = 0;
        MessageId id;
        List<LocalGroup<T>> taking = null;
        publishLock.lock();
        try {
            if (closed) throw new IllegalStateException("topic " + name + " is closed");
            if (given == null) {
                id = MessageId.of(++lastNumber);
            } else if (given.isAfter(lastIdSeen)) {
                id = given;
            } else {
                return null;
            }
            lastIdSeen = id;
            Message<T> m = new Message<>(id, subject, value, System.nanoTime());
            published.increment();
            if (replay != null) replay.add(m);
            for (LocalGroup<T> g : groups.values()) {
                if (!g.takes(subject)) continue;
                g.enqueue(m);
                if (taking == null) taking = new ArrayList<>(groups.size());
                taking.add(g);
            }
            for (String key : keys) {
                LocalSubscription<T>[] subs = byPattern.get(key);
                if (subs == null) continue;
                for (LocalSubscription<T> s : subs) {
                    if (s.offer(m, overflow) == LocalSubscription.Offer.FULL) missed++;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for room in a subscription of topic " + name
                    + " (BLOCK): the message has id " + lastIdSeen + " and was not delivered to every subscription", e);
        } finally {
            publishLock.unlock();
        }
        if (taking != null) taking.forEach(LocalGroup::pump); // after the lock: a worker may run inline and publish
        if (missed > 0) throw new TopicOverflowException(name, id, missed, capacity);
        return id;
    }

    /** In process: the group lives with the topic ({@link LocalGroup}), made by its first consumer with that consumer's settings. */
    @Override
    public Topic.Consumption consume(dev.tidemill.ConsumerGroup group, Executor executor, Topic.Worker<T> worker) {
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(executor, "executor");
        Objects.requireNonNull(worker, "worker");
        if (relay) throw new IllegalStateException("topic " + name + " relays messages stored elsewhere: consume through its backend");
        for (String p : group.patterns()) Subjects.checkPattern(p);
        LocalGroup<T> g;
        Topic.Consumption c;
        publishLock.lock();
        try {
            if (closed) throw new IllegalStateException("topic " + name + " is closed");
            g = groups.computeIfAbsent(group.name(), n -> new LocalGroup<>(name, group, capacity));
            c = g.join(group, executor, worker);
        } finally {
            publishLock.unlock();
        }
        g.pump();
        return c;
    }

    /** @return the dead letters a group of this topic keeps, oldest first (empty for an unknown group) */
    List<LocalGroup.DeadLetter<T>> deadLetters(String group) {
        publishLock.lock();
        try {
            LocalGroup<T> g = groups.get(group);
            return g == null ? List.of() : g.deadLetters();
        } finally {
            publishLock.unlock();
        }
    }

    /** @throws IllegalArgumentException unless {@code subject} is well-formed (a publish's subject) */
    public static void checkSubject(String subject) {
        Subjects.checkSubject(subject);
    }

    /** @return whether the calling thread serves other work that blocking would stall (an event loop, a worker loop) */
    public static boolean mustNotBlock() {
        return ThreadExecutorMap.currentExecutor() != null || WorkerLoop.onWorkerThread();
    }

    @Override
    public Subscription<T> subscribe(String... patterns) {
        return add(new LocalSubscription<>(this, Subjects.merge(patterns), capacity, null, null));
    }

    @Override
    public Subscription<T> subscribe(Executor executor, Consumer<Message<T>> onMessage, String... patterns) {
        Objects.requireNonNull(executor, "executor");
        Objects.requireNonNull(onMessage, "onMessage");
        return add(new LocalSubscription<>(this, Subjects.merge(patterns), capacity, executor, m -> {
            onMessage.accept(m);
            return null;
        }));
    }

    @Override
    public Subscription<T> subscribeAsync(Executor executor, java.util.function.Function<Message<T>, java.util.concurrent.CompletionStage<?>> onMessage,
            String... patterns) {
        Objects.requireNonNull(executor, "executor");
        Objects.requireNonNull(onMessage, "onMessage");
        return add(new LocalSubscription<>(this, Subjects.merge(patterns), capacity, executor, onMessage));
    }

    @SuppressWarnings("unchecked")
    private Subscription<T> add(LocalSubscription<T> s) {
        publishLock.lock();
        try {
            if (closed) throw new IllegalStateException("topic " + name + " is closed");
            for (String p : s.patterns()) {
                LocalSubscription<T>[] old = byPattern.getOrDefault(p, NONE);
                LocalSubscription<T>[] grown = Arrays.copyOf(old, old.length + 1);
                grown[old.length] = s;
                byPattern.put(p, grown);
            }
            subscriptions++;
        } finally {
            publishLock.unlock();
        }
        return s;
    }

    /** A subscription closed: it is taken out of the fan-out. */
    @SuppressWarnings("unchecked")
    void remove(LocalSubscription<T> s) {
        publishLock.lock();
        try {
            boolean found = false;
            for (String p : s.patterns()) {
                LocalSubscription<T>[] old = byPattern.get(p);
                if (old == null) continue;
                List<LocalSubscription<T>> rest = new ArrayList<>(old.length);
                for (LocalSubscription<T> o : old) {
                    if (o == s) found = true;
                    else rest.add(o);
                }
                if (rest.isEmpty()) byPattern.remove(p);
                else byPattern.put(p, rest.toArray(NONE));
            }
            if (found) subscriptions--;
        } finally {
            publishLock.unlock();
        }
    }

    void countDelivered() {
        delivered.increment();
    }

    void countDropped(int n) {
        if (n > 0) dropped.add(n);
    }

    @Override
    public Replay<T> replay(MessageId after) {
        // in process every id is <n>-0: after <n>-<m> means after <n>-0
        long afterId = after.major();
        publishLock.lock();
        try {
            if (replay == null) return new Replay<>(List.of(), afterId >= 0 && afterId < lastNumber ? lastNumber - afterId : 0);
            return replay.after(afterId, lastNumber, System.nanoTime());
        } finally {
            publishLock.unlock();
        }
    }

    @Override
    public MessageId lastId() {
        return lastIdSeen;
    }

    @Override
    public Stats stats() {
        List<LocalSubscription<T>> all = all();
        long pending = 0;
        for (LocalSubscription<T> s : all) pending += s.pending();
        return new Stats(published.sum(), delivered.sum(), dropped.sum(), pending, all.size());
    }

    private List<LocalSubscription<T>> all() {
        publishLock.lock();
        try {
            List<LocalSubscription<T>> out = new ArrayList<>(subscriptions);
            for (LocalSubscription<T>[] subs : byPattern.values()) {
                for (LocalSubscription<T> s : subs) if (!out.contains(s)) out.add(s);
            }
            return out;
        } finally {
            publishLock.unlock();
        }
    }

    @Override
    public void close() {
        publishLock.lock();
        try {
            if (closed) return;
            closed = true;
        } finally {
            publishLock.unlock();
        }
        for (LocalSubscription<T> s : all()) s.close("topic closed");
        if (!relay) TOPICS.remove(name, this);
    }

    @Override
    public String toString() {
        return "topic " + name + " (" + overflow + ", capacity " + capacity + ")";
    }
}
