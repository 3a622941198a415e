package dev.tidemill;

import java.time.Duration;
import java.util.Iterator;
import java.util.concurrent.CompletionStage;

/**
 * One subscriber's view of a {@link Topic}: its bounded queue, its counters and its end. Closing
 * it (or leaving a try-with-resources block) stops delivery; what was pending is counted as
 * dropped.
 *
 * <p>A pull subscription ({@link Topic#subscribe(String...)}) is read with {@link #next()} or
 * {@link #poll(Duration)} by one thread at a time, typically a virtual thread; iterating it is the
 * same as calling {@link #next()} until it closes.
 *
 * @param <T> the message type
 */
public interface Subscription<T> extends AutoCloseable, Iterable<Topic.Message<T>> {

    /**
     * Counters of one subscription.
     *
     * @param delivered messages taken from the queue
     * @param dropped messages it did not get (overflow, or still pending when it closed)
     * @param pending messages in its queue now
     */
    record Stats(long delivered, long dropped, long pending) { }

    /**
     * Waits for the next message.
     *
     * @return the next message
     * @throws InterruptedException if the thread is interrupted while waiting
     * @throws java.util.NoSuchElementException once the subscription is closed and its queue is empty
     * @throws UnsupportedOperationException on a callback subscription
     */
    Topic.Message<T> next() throws InterruptedException;

    /**
     * Waits at most {@code timeout} for the next message.
     *
     * @param timeout how long to wait
     * @return the next message, or null if none came in time or the subscription is closed
     * @throws InterruptedException if the thread is interrupted while waiting
     * @throws UnsupportedOperationException on a callback subscription
     */
    Topic.Message<T> poll(Duration timeout) throws InterruptedException;

    /**
     * Messages until the subscription closes; {@link Iterator#hasNext()} blocks, and an interrupt
     * ends the iteration (the thread's interrupt flag is set again).
     */
    @Override
    Iterator<Topic.Message<T>> iterator();

    /** @return false once closed, by {@link #close()}, its topic, or the DISCONNECT policy */
    boolean isOpen();

    /** @return completes with the reason once the subscription is closed */
    CompletionStage<String> closed();

    /** @return this subscription's counters */
    Stats stats();

    /** Stops delivery; pending messages are counted as dropped. Idempotent. */
    @Override
    void close();
}
