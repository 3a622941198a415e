package dev.tidemill.internal.dispatch;

import io.netty.channel.SingleThreadEventLoop;
import io.netty.channel.SingleThreadIoEventLoop;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.FastThreadLocal;
import io.netty.util.internal.ThreadExecutorMap;

/**
 * The worker-loop wakeups one Netty event-loop iteration asks for, issued once at the end of the
 * iteration ({@link SingleThreadEventLoop#executeAfterEventLoopIteration}) instead of on the first
 * task of each burst. An event loop that reads 30 requests in one iteration queues them all
 * without a wake and then unparks each worker that has work at most once; the worker finds the
 * whole batch when it runs, rather than waking for the first request, draining it, parking, and
 * being woken again for the next.
 *
 * <p>Why deferring is safe: the wake decision still happens after the task was queued (see
 * {@link WorkerLoop}'s "no stranded push" argument: the producer offers, then reads
 * {@code notified}; reading it later than the offer changes nothing), and the delay is bounded by
 * one iteration of the event loop that queued the task. That iteration's task phase runs every
 * task queued meanwhile, so a loop kept busy with tasks delays the wakes it owes; on a server that
 * is self-limiting, because the tasks are mostly the replies of workers, and a worker waiting for
 * its wake produces none. Event-loop confined.
 */
final class WakeBatch {
    private static final FastThreadLocal<WakeBatch> BATCHES = new FastThreadLocal<>() {
        @Override
        protected WakeBatch initialValue() {
            EventExecutor e = ThreadExecutorMap.currentExecutor();
            // Only the I/O event loops: their run loop ends every iteration with the tasks queued
            // by executeAfterEventLoopIteration. DefaultEventLoop's does not run them at all, so a
            // wake deferred there would never happen (DeferredWakeStressTest hung on one).
            return e instanceof SingleThreadIoEventLoop loop && loop.inEventLoop() ? new WakeBatch(loop) : NONE;
        }
    };
    /** The current thread is not an event loop that runs tasks after each iteration. */
    private static final WakeBatch NONE = new WakeBatch(null);

    private final SingleThreadEventLoop loop;
    private final Runnable flush = this::flush;
    private WorkerLoop[] pending = new WorkerLoop[4];
    private int count;

    private WakeBatch(SingleThreadEventLoop loop) {
        this.loop = loop;
    }

    /**
     * Defers {@code worker}'s wakeup to the end of the current event-loop iteration.
     *
     * @return false if the calling thread is not such an event loop (the caller wakes now)
     */
    static boolean defer(WorkerLoop worker) {
        WakeBatch b = BATCHES.get();
        if (b == NONE) return false;
        b.add(worker);
        return true;
    }

    /** Flushes run so far, all event loops together; for tests (a plain counter, racy by design). */
    private static volatile long flushes;

    /** @return how many batches of deferred wakes ran so far */
    static long deferredSoFar() {
        return flushes;
    }

    private void add(WorkerLoop worker) {
        for (int i = 0; i < count; i++) {
            if (pending[i] == worker) return;
        }
        if (count == 0) loop.executeAfterEventLoopIteration(flush);
        if (count == pending.length) pending = java.util.Arrays.copyOf(pending, count * 2);
        pending[count++] = worker;
    }

    private void flush() {
        flushes = flushes + 1;
        int n = count;
        count = 0;
        for (int i = 0; i < n; i++) {
            WorkerLoop w = pending[i];
            pending[i] = null;
            w.wake();
        }
    }
}
