package dev.tidemill.internal.dispatch;

import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.Objects;
import java.util.concurrent.RejectedExecutionException;
import org.jctools.queues.MpscUnboundedXaddArrayQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands responses from worker loops back to one Netty event loop in batches: one event-loop task
 * and one flush per channel per burst, instead of one of each per response.
 *
 * <p>The library alternative is {@code channel.writeAndFlush(response)} from the worker thread. Off
 * the event loop Netty wraps that in a task for the channel's event loop, so every response costs
 * one cross-thread task (and often a selector wakeup), one flush and one write syscall. Here a
 * worker {@link #submit submits} a {@code write} (a {@code channel.write(...)} without flush) to an
 * unbounded lock-free queue and schedules a drain only if none is pending; the drain runs every
 * queued write and then flushes each distinct channel it touched once. Under load many responses
 * share one task and one syscall per connection. A worker loop does not even schedule the drain
 * per reply: it asks once, when its own drain of requests ends ({@link WorkerLoop#deferDrain}), so
 * a batch of requests handled together costs the event loop one wake. What this is worth is in
 * the benchmark's wakeups and drains per request (docs/performance.md), not in a borrowed figure.
 *
 * <h2>No stranded write</h2>
 *
 * Same pattern as {@link WorkerLoop}: a producer offers (an atomic add on the producer index, a
 * full fence) and then reads {@code scheduled}; the drain writes {@code scheduled = false}
 * (volatile) BEFORE it polls, and {@code poll()} reads the producer index and waits for a claimed
 * slot to be published. One side sees the other: the drain finds the write, or the producer sees
 * false and schedules another drain. The price is an occasional empty drain.
 *
 * <h2>Threads and order</h2>
 *
 * {@link #submit} may be called from any thread, including the event loop itself, where it still
 * only enqueues: the write runs in a later task on the same loop, which keeps one code path and one
 * ordering rule. Writes from one thread run in the order that thread submitted them. Every channel
 * should be registered on this batcher's event loop (one batcher per event loop); otherwise Netty
 * re-dispatches the write to the channel's own loop and the batching gains nothing.
 */
public final class ResponseBatcher {
    private static final Logger LOG = LoggerFactory.getLogger(ResponseBatcher.class);
    private static final VarHandle SCHEDULED;
    /**
     * Writes per drain task at most. A larger burst is split over several tasks so the event loop
     * gets back to I/O in between; each part flushes its own channels.
     */
    static final int DRAIN_BUDGET = 1024;
    /** Queue chunk length: the queue grows and shrinks by this many slots. */
    private static final int CHUNK_SIZE = 256;

    static {
        try {
            SCHEDULED = MethodHandles.lookup()
                    .findVarHandle(ResponseBatcher.class, "scheduled", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * Something to write on the event loop: the connection itself, say, holding its own queue of
     * replies, so a reply needs no task object of its own.
     */
    public interface Delivery {
        /** @return the channel to flush once the batch is written */
        Channel channel();

        /** Writes (without flushing); on the event loop. */
        void deliver();
    }

    /** An ad-hoc delivery: a write and its channel (streamed chunks, which are not the hot path). */
    private record Pending(Channel channel, Runnable write) implements Delivery {
        @Override
        public void deliver() {
            write.run();
        }
    }

    private final EventLoop loop;
    private final MpscUnboundedXaddArrayQueue<Delivery> queue = new MpscUnboundedXaddArrayQueue<>(CHUNK_SIZE);
    private final Runnable drainTask = this::drain;
    /**
     * Channels written in the current drain. Event-loop confined. A list with an identity scan:
     * a drain touches few channels, usually one, and is capped at {@link #DRAIN_BUDGET} writes.
     */
    private final ArrayList<Channel> touched = new ArrayList<>();
    /** Flushes asked for by {@link #flushSoon} since its task was queued, and the list the task swaps in. Event-loop confined. */
    private ArrayList<Runnable> soon = new ArrayList<>();
    private ArrayList<Runnable> spare = new ArrayList<>();
    private final Runnable flushSoonTask = this::flushSoonNow;
    /** A drain task is queued on the event loop and has not yet started. */
    private volatile boolean scheduled;
    // Written by the event loop only, once per drain. They share a line with the fields producers
    // read; at one write per burst that is not worth padding.
    private volatile long drains;
    private volatile long flushes;

    /**
     * @param loop the event loop that runs the writes and flushes; the channels passed to {@link
     *     #submit} should be registered on it
     */
    public ResponseBatcher(EventLoop loop) {
        this.loop = Objects.requireNonNull(loop, "loop");
    }

    /**
     * Queues a write for the event loop and schedules a drain unless one is already pending.
     * Callable from any thread; never blocks; the queue is unbounded (worker concurrency limits
     * bound how many responses can be outstanding).
     *
     * @param channel the channel {@code write} writes to; flushed once after the batch
     * @param write runs on the event loop; should call {@code channel.write(...)}, not {@code
     *     writeAndFlush}. Exceptions are logged and do not stop the batch.
     * @throws RejectedExecutionException if the event loop is shut down and no drain could be
     *     scheduled (the write stays queued and will not run)
     */
    public void submit(Channel channel, Runnable write) {
        Objects.requireNonNull(channel, "channel");
        Objects.requireNonNull(write, "write");
        submit(new Pending(channel, write));
    }

    /**
     * Queues a delivery. From a worker loop, the drain is scheduled when that loop's own drain
     * ends (one event-loop wake for every reply of the batch); from any other thread, now.
     *
     * @param delivery runs on the event loop
     */
    public void submit(Delivery delivery) {
        queue.offer(delivery);
        WorkerLoop worker = WorkerLoop.current();
        if (worker != null) worker.deferDrain(this);
        else scheduleDrain();
    }

    /** Schedules a drain unless one is pending; any thread. */
    void scheduleDrain() {
        // Read before CAS: during a burst a drain is pending, the read sees true and the CAS is skipped.
        if (!scheduled && SCHEDULED.compareAndSet(this, false, true)) {
            try {
                loop.execute(drainTask);
            } catch (RejectedExecutionException e) {
                SCHEDULED.setVolatile(this, false);
                throw e;
            }
        }
    }

    private void drain() {
        // Clear BEFORE polling, so a submit racing with this drain schedules the next one.
        SCHEDULED.setVolatile(this, false);
        drains = drains + 1;
        int ran = 0;
        Delivery pending;
        while (ran < DRAIN_BUDGET && (pending = queue.poll()) != null) {
            ran++;
            try {
                pending.deliver();
            } catch (Throwable t) {
                LOG.error("Write failed on {}", pending.channel(), t);
            }
            remember(pending.channel());
        }
        int n = touched.size();
        for (int i = 0; i < n; i++) {
            Channel channel = touched.get(i);
            try {
                channel.flush();
            } catch (Throwable t) {
                LOG.error("Flush failed on {}", channel, t);
            }
        }
        touched.clear();
        flushes = flushes + n;
        if (ran == DRAIN_BUDGET) {
            // Writes may remain that were queued while `scheduled` was still true: go round again.
            scheduleDrain();
        }
    }

    private void remember(Channel channel) {
        // From the end: consecutive writes to the same channel are the common case.
        for (int i = touched.size() - 1; i >= 0; i--) {
            if (touched.get(i) == channel) {
                return;
            }
        }
        touched.add(channel);
    }

    /**
     * Flushes {@code flush} once the event loop has run the tasks queued before now, together with
     * every other flush asked for meanwhile: one task per pass of the loop, not one per channel.
     * For chunks written on the loop itself (a topic's subscriptions delivering to their streams),
     * so that a subscription delivering a burst sends it in one syscall, and a message delivered to
     * a thousand streams costs one extra task, not a thousand. The caller asks once per flush it
     * needs (it keeps its own "asked" flag). Event loop only.
     *
     * @param flush what to run: the connection's own flush, which knows what it has staged
     */
    public void flushSoon(Runnable flush) {
        if (soon.isEmpty()) loop.execute(flushSoonTask);
        soon.add(flush);
    }

    private void flushSoonNow() {
        ArrayList<Runnable> now = soon;
        soon = spare; // a flush that writes again asks for the next pass, into the other list
        spare = now;
        int n = now.size();
        for (int i = 0; i < n; i++) {
            try {
                now.get(i).run();
            } catch (Throwable t) {
                LOG.error("Flush failed", t);
            }
        }
        now.clear();
        flushes = flushes + n;
    }

    /** @return drain tasks run on the event loop so far, including empty ones */
    public long drains() {
        return drains;
    }

    /** @return channel flushes issued so far: one per distinct channel per drain */
    public long flushes() {
        return flushes;
    }
}
