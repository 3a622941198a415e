package dev.tidemill.internal.topic;

import dev.tidemill.Subscription;
import dev.tidemill.Topic;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One subscription: a bounded queue filled by publishers and emptied by its reader (a pulling
 * thread, or callback tasks on an executor), with the topic's overflow policy applied when it is
 * full.
 *
 * <p>A lock and an {@code ArrayDeque} rather than a lock-free queue (JCTools'): DROP_OLDEST has the
 * publisher remove the oldest element, which a single-consumer queue does not allow from the
 * producer side, and BLOCK needs a condition to wait on. The lock is held for a few
 * instructions, and the only contention is one publisher against one reader.
 */
final class LocalSubscription<T> implements Subscription<T> {
    private static final Logger LOG = LoggerFactory.getLogger(LocalSubscription.class);
    /** Messages a callback task delivers before it yields its executor to other work. */
    private static final int BURST = 64;

    /** What an offer did. */
    enum Offer { QUEUED, DROPPED, FULL, CLOSED }

    private final LocalTopic<T> topic;
    private final List<String> patterns;
    private final int capacity;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition notEmpty = lock.newCondition();
    private final Condition notFull = lock.newCondition();
    private final ArrayDeque<Topic.Message<T>> queue;
    private final CompletableFuture<String> closed = new CompletableFuture<>();
    private final Executor executor;
    /** Delivers one message; a stage not yet complete pauses delivery until it completes (back-pressure). */
    private final java.util.function.Function<Topic.Message<T>, CompletionStage<?>> onMessage;
    private final Runnable drain = this::drain;
    // Guarded by lock.
    private boolean open = true;
    private boolean scheduled;
    private long delivered;
    private long dropped;
    private volatile boolean openFlag = true;

    LocalSubscription(LocalTopic<T> topic, List<String> patterns, int capacity, Executor executor,
            java.util.function.Function<Topic.Message<T>, CompletionStage<?>> onMessage) {
        this.topic = topic;
        this.patterns = patterns;
        this.capacity = capacity;
        this.queue = new ArrayDeque<>(Math.min(capacity, 16));
        this.executor = executor;
        this.onMessage = onMessage;
    }

    List<String> patterns() {
        return patterns;
    }

    /**
     * Queues {@code m} or applies {@code policy}; called by a publisher holding the topic's publish lock.
     *
     * @throws InterruptedException if a BLOCK wait is interrupted
     */
    Offer offer(Topic.Message<T> m, Topic.Overflow policy) throws InterruptedException {
        boolean schedule = false;
        String disconnect = null;
        Offer result;
        lock.lock();
        try {
            if (!open) return Offer.CLOSED;
            if (queue.size() >= capacity) {
                switch (policy) {
                    case DROP_OLDEST -> {
                        queue.poll();
                        dropped++;
                        topic.countDropped(1);
                    }
                    case DROP_NEWEST -> {
                        dropped++;
                        topic.countDropped(1);
                        return Offer.DROPPED;
                    }
                    case ERROR -> {
                        dropped++;
                        topic.countDropped(1);
                        return Offer.FULL;
                    }
                    case DISCONNECT -> {
                        dropped++;
                        topic.countDropped(1);
                        disconnect = "fell behind: " + capacity + " messages pending (capacity of topic " + topic.name() + ")";
                    }
                    case BLOCK -> {
                        while (open && queue.size() >= capacity) notFull.await();
                        if (!open) return Offer.CLOSED;
                    }
                }
            }
            if (disconnect == null) {
                queue.add(m);
                if (executor == null) {
                    notEmpty.signal();
                } else if (!scheduled) {
                    scheduled = true;
                    schedule = true;
                }
            }
            result = disconnect == null ? Offer.QUEUED : Offer.DROPPED;
        } finally {
            lock.unlock();
        }
        if (disconnect != null) close(disconnect);
        if (schedule) execute();
        return result;
    }

    private void execute() {
        try {
            executor.execute(drain);
        } catch (RejectedExecutionException e) {
            close("its executor refused the delivery task: " + e.getMessage());
        }
    }

    /**
     * A callback task: delivers up to {@link #BURST} messages, then yields (and comes back if more
     * wait). A callback whose stage is not complete (a connection that cannot take more) pauses
     * the task until it completes; meanwhile messages wait in the bounded queue and the topic's
     * overflow policy decides what happens when it is full.
     */
    private void drain() {
        for (int i = 0; i < BURST; i++) {
            Topic.Message<T> m = take();
            if (m == null) return;
            CompletionStage<?> done;
            try {
                done = onMessage.apply(m);
            } catch (Throwable t) {
                failed(t);
                return;
            }
            if (done != null && !done.toCompletableFuture().isDone()) {
                done.whenComplete((v, e) -> {
                    if (e != null) failed(e);
                    else resume();
                });
                return; // scheduled stays set: offers do not start a second task meanwhile
            }
            if (done != null && done.toCompletableFuture().isCompletedExceptionally()) {
                done.whenComplete((v, e) -> failed(e));
                return;
            }
        }
        resume();
    }

    private void failed(Throwable t) {
        if (!isOpen()) return;
        if (t instanceof java.nio.channels.ClosedChannelException) {
            LOG.debug("subscriber of topic {} is gone; its subscription closes", topic.name());
        } else {
            LOG.warn("subscriber of topic {} failed; its subscription closes", topic.name(), t);
        }
        close("the subscriber failed: " + t);
    }

    /** Runs the task again if messages wait, else marks it idle. */
    private void resume() {
        boolean more;
        lock.lock();
        try {
            more = open && !queue.isEmpty();
            if (!more) scheduled = false;
        } finally {
            lock.unlock();
        }
        if (more) execute();
    }

    /** @return the next message for a callback task, or null (and the task ends) if none */
    private Topic.Message<T> take() {
        lock.lock();
        try {
            Topic.Message<T> m = open ? queue.poll() : null;
            if (m == null) {
                scheduled = false;
                return null;
            }
            taken();
            return m;
        } finally {
            lock.unlock();
        }
    }

    private void taken() {
        delivered++;
        topic.countDelivered();
        notFull.signal();
    }

    @Override
    public Topic.Message<T> next() throws InterruptedException {
        pullOnly();
        lock.lockInterruptibly();
        try {
            while (queue.isEmpty()) {
                if (!open) throw new NoSuchElementException("subscription closed: " + closed.getNow("closed"));
                notEmpty.await();
            }
            Topic.Message<T> m = queue.poll();
            taken();
            return m;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public Topic.Message<T> poll(Duration timeout) throws InterruptedException {
        pullOnly();
        long nanos = timeout.toNanos();
        lock.lockInterruptibly();
        try {
            while (queue.isEmpty()) {
                if (!open || nanos <= 0) return null;
                nanos = notEmpty.awaitNanos(nanos);
            }
            Topic.Message<T> m = queue.poll();
            taken();
            return m;
        } finally {
            lock.unlock();
        }
    }

    private void pullOnly() {
        if (executor != null) throw new UnsupportedOperationException("a callback subscription delivers to its callback; next() and poll() are for pull subscriptions");
    }

    @Override
    public Iterator<Topic.Message<T>> iterator() {
        pullOnly();
        return new Iterator<>() {
            private Topic.Message<T> ahead;

            @Override
            public boolean hasNext() {
                if (ahead != null) return true;
                try {
                    while (ahead == null) {
                        ahead = poll(Duration.ofSeconds(1));
                        if (ahead == null && !isOpen()) return false;
                    }
                    return true;
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }

            @Override
            public Topic.Message<T> next() {
                if (!hasNext()) throw new NoSuchElementException();
                Topic.Message<T> m = ahead;
                ahead = null;
                return m;
            }
        };
    }

    @Override
    public boolean isOpen() {
        return openFlag;
    }

    @Override
    public CompletionStage<String> closed() {
        return closed.minimalCompletionStage();
    }

    @Override
    public Stats stats() {
        lock.lock();
        try {
            return new Stats(delivered, dropped, queue.size());
        } finally {
            lock.unlock();
        }
    }

    /** @return messages in the queue now */
    int pending() {
        lock.lock();
        try {
            return queue.size();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void close() {
        close("closed by the subscriber");
    }

    /** Closes with {@code reason}: pending messages count as dropped, waiting threads wake. */
    void close(String reason) {
        lock.lock();
        try {
            if (!open) return;
            open = false;
            openFlag = false;
            int pending = queue.size();
            dropped += pending;
            topic.countDropped(pending);
            queue.clear();
            notEmpty.signalAll();
            notFull.signalAll();
        } finally {
            lock.unlock();
        }
        topic.remove(this);
        closed.complete(reason);
    }

    @Override
    public String toString() {
        return "subscription " + patterns + " of topic " + topic.name();
    }
}
