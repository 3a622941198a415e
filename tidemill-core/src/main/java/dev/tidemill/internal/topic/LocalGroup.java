package dev.tidemill.internal.topic;

import dev.tidemill.ConsumerGroup;
import dev.tidemill.Topic;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A consumer group of an in-process topic: a queue of the messages published since the group was
 * made (matching its patterns), handed out to its consumers in turn, each up to its
 * {@link ConsumerGroup#maxInFlight()}. A delivery whose worker throws is queued again after
 * {@link ConsumerGroup#claimAfter()} until it has failed {@link ConsumerGroup#maxDeliveries()} times;
 * then it is a dead letter: logged with the reason and counted, the last {@code capacity} kept. The
 * queue holds at most the topic's capacity; past it the oldest waiting message is dropped, counted
 * and logged (a consumer group that nobody consumes must not grow without bound).
 */
final class LocalGroup<T> {
    private static final Logger LOG = LoggerFactory.getLogger(LocalGroup.class);
    /** Runs the delayed redeliveries of every in-process group: one daemon thread, idle unless a worker failed. */
    private static final ScheduledExecutorService RETRIES = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "tidemill-group-retries");
        t.setDaemon(true);
        return t;
    });
    private static final AtomicInteger CONSUMER_NUMBERS = new AtomicInteger();

    private final String topic;
    private final ConsumerGroup settings;
    private final int capacity;
    private final ReentrantLock lock = new ReentrantLock();
    // Guarded by lock.
    private final ArrayDeque<Waiting<T>> ready = new ArrayDeque<>();
    private final List<Member> members = new ArrayList<>();
    private final ArrayDeque<DeadLetter<T>> dead = new ArrayDeque<>();
    private int turn;
    private final LongAdder dropped = new LongAdder();
    /** Failed messages waiting out claimAfter before they are queued again. */
    private final AtomicInteger retrying = new AtomicInteger();

    /** A message waiting for a consumer, with its deliveries so far. */
    private record Waiting<T>(Topic.Message<T> message, int deliveries) { }

    /** A message that failed every delivery, with the last reason. */
    record DeadLetter<T>(Topic.Message<T> message, int deliveries, String reason) { }

    LocalGroup(String topic, ConsumerGroup settings, int capacity) {
        this.topic = topic;
        this.settings = settings;
        this.capacity = capacity;
    }

    /** @return whether a message of this subject belongs to the group */
    boolean takes(String subject) {
        for (String p : settings.patterns()) if (LocalTopic.matches(p, subject)) return true;
        return false;
    }

    /** Queues a new message; under the topic's publish lock, so the queue is in id order. Call {@link #pump()} after. */
    void enqueue(Topic.Message<T> m) {
        add(new Waiting<>(m, 0));
    }

    private void add(Waiting<T> w) {
        lock.lock();
        try {
            if (ready.size() >= capacity) {
                Waiting<T> gone = ready.poll();
                dropped.increment();
                LOG.warn("topic {}, group {}: {} messages wait already (the topic's capacity); message {} dropped",
                        topic, settings.name(), capacity, gone.message().id());
            }
            ready.add(w);
        } finally {
            lock.unlock();
        }
    }

    /** Hands waiting messages to consumers with room, in turn; never under the publish lock (a worker may run inline). */
    void pump() {
        List<Runnable> starts = new ArrayList<>();
        lock.lock();
        try {
            while (!ready.isEmpty() && !members.isEmpty()) {
                Member m = null;
                for (int i = 0; i < members.size() && m == null; i++) {
                    Member candidate = members.get((turn + i) % members.size());
                    if (candidate.inFlight.get() < candidate.maxInFlight) m = candidate;
                }
                if (m == null) break;
                turn = (members.indexOf(m) + 1) % members.size();
                Waiting<T> w = ready.poll();
                m.inFlight.incrementAndGet();
                Member chosen = m;
                starts.add(() -> chosen.deliver(w));
            }
        } finally {
            lock.unlock();
        }
        starts.forEach(Runnable::run);
    }

    /** A consumer joins. */
    Topic.Consumption join(ConsumerGroup own, Executor executor, Topic.Worker<T> worker) {
        Member m = new Member(own.consumer().orElse(settings.name() + "-" + CONSUMER_NUMBERS.incrementAndGet()), own.maxInFlight(),
                executor, worker);
        lock.lock();
        try {
            members.add(m);
        } finally {
            lock.unlock();
        }
        TopicReadings.consumer(topic, settings.name(), m);
        return m;
    }

    /** @return messages waiting, in workers, or waiting to be delivered again */
    long pending() {
        lock.lock();
        try {
            long n = ready.size() + retrying.get();
            for (Member m : members) n += m.inFlight.get();
            return n;
        } finally {
            lock.unlock();
        }
    }

    /** @return the dead letters kept, oldest first */
    List<DeadLetter<T>> deadLetters() {
        lock.lock();
        try {
            return List.copyOf(dead);
        } finally {
            lock.unlock();
        }
    }

    private void failed(Member by, Waiting<T> w, int delivery, Throwable e) {
        String reason = e.getClass().getName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
        if (delivery >= settings.maxDeliveries()) {
            by.deadLettered.increment();
            lock.lock();
            try {
                if (dead.size() >= capacity) dead.poll();
                dead.add(new DeadLetter<>(w.message(), delivery, reason));
            } finally {
                lock.unlock();
            }
            LOG.warn("topic {}, group {}: message {} failed {} deliveries, the last with {}; it is a dead letter", topic,
                    settings.name(), w.message().id(), delivery, reason);
            return;
        }
        retrying.incrementAndGet();
        RETRIES.schedule(() -> {
            retrying.decrementAndGet();
            add(new Waiting<>(w.message(), delivery));
            pump();
        }, settings.claimAfter().toNanos(), TimeUnit.NANOSECONDS);
    }

    /** One consumer: its executor, worker, bound and counters. */
    private final class Member implements Topic.Consumption {
        private final String name;
        private final int maxInFlight;
        private final Executor executor;
        private final Topic.Worker<T> worker;
        private final AtomicInteger inFlight = new AtomicInteger();
        private final LongAdder done = new LongAdder();
        private final LongAdder failures = new LongAdder();
        private final LongAdder deadLettered = new LongAdder();
        private volatile boolean open = true;

        Member(String name, int maxInFlight, Executor executor, Topic.Worker<T> worker) {
            this.name = name;
            this.maxInFlight = maxInFlight;
            this.executor = executor;
            this.worker = worker;
        }

        void deliver(Waiting<T> w) {
            int delivery = w.deliveries() + 1;
            Runnable run = () -> {
                try {
                    worker.handle(w.message(), delivery);
                    done.increment();
                } catch (Throwable e) {
                    failures.increment();
                    failed(this, w, delivery, e);
                } finally {
                    inFlight.decrementAndGet();
                    pump();
                }
            };
            try {
                executor.execute(run);
            } catch (RejectedExecutionException e) {
                // the executor is gone (a stopped server): the message waits for another consumer, not counted as a delivery
                inFlight.decrementAndGet();
                add(w);
                close();
            }
        }

        @Override
        public String consumer() {
            return name;
        }

        @Override
        public Topic.ConsumptionStats stats() {
            return new Topic.ConsumptionStats(done.sum(), failures.sum(), deadLettered.sum(), 0, inFlight.get(), pending());
        }

        @Override
        public void close() {
            if (!open) return;
            open = false;
            lock.lock();
            try {
                members.remove(this);
            } finally {
                lock.unlock();
            }
            pump();
        }

        @Override
        public String toString() {
            return "consumer " + name + " of group " + settings.name() + " on topic " + topic;
        }
    }
}
