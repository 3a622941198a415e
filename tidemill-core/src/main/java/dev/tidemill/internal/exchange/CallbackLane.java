package dev.tidemill.internal.exchange;

import dev.tidemill.ExecutionMode;
import dev.tidemill.internal.dispatch.WorkerLoop;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jctools.queues.MpscUnboundedXaddArrayQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one long-lived stream's handler callbacks (a WebSocket connection's open, messages and
 * close) one at a time, in submission order, where the route's execution mode says; the thread
 * comes from {@link Dispatcher#run}, as a request's does: inline on the event loop (IO), on the
 * worker loop the handshake was given (LOOP), or on a virtual thread (VIRTUAL, one at a time,
 * started when work arrives). LOOP needs no slot per callback: at most one drain task of a stream
 * is ever queued, on the slot the stream holds from its handshake on.
 */
public final class CallbackLane {
    private static final Logger LOG = LoggerFactory.getLogger(CallbackLane.class);
    /** Callbacks run per drain on a worker loop before it yields to the loop's other work. */
    private static final int BURST = 64;

    private final Dispatcher dispatcher;
    private final ExecutionMode mode;
    private final WorkerLoop worker;
    private final MpscUnboundedXaddArrayQueue<Runnable> tasks = new MpscUnboundedXaddArrayQueue<>(16);
    private final AtomicBoolean scheduled = new AtomicBoolean();
    /** IO mode: a drain is running on this (the event loop's) stack; a nested submit only queues. */
    private boolean drainingInline;
    /** The thread running a callback now (VIRTUAL: interrupted when the peer leaves). */
    private volatile Thread running;

    CallbackLane(Dispatcher dispatcher, ExecutionMode mode, WorkerLoop worker) {
        this.dispatcher = dispatcher;
        this.mode = mode;
        this.worker = worker;
    }

    /** @param task a callback; IO mode: called on the event loop */
    public void submit(Runnable task) {
        if (mode == ExecutionMode.IO) {
            if (drainingInline) { // a callback's own stack (it closed, say): after it, not inside it
                tasks.offer(task);
                return;
            }
            drainingInline = true;
            try {
                run(task); // the common case: nothing queued, so no queue round trip
                for (Runnable t; (t = tasks.poll()) != null; ) run(t);
            } finally {
                drainingInline = false;
            }
            return;
        }
        tasks.offer(task);
        if (scheduled.compareAndSet(false, true)) schedule();
    }

    /** @return whether callbacks run inline on the event loop (IO mode), where nothing queues between it and them */
    public boolean inline() {
        return mode == ExecutionMode.IO;
    }

    /** Interrupts a callback running on a virtual thread (the peer left); others are not interruptible. */
    public void interrupt() {
        Thread t = running;
        if (t != null && mode == ExecutionMode.VIRTUAL) t.interrupt();
    }

    private void schedule() {
        try {
            dispatcher.run(mode, worker, this::drain); // never IO: that mode drains inline in submit
        } catch (java.util.concurrent.RejectedExecutionException stopped) {
            // The server stopped its loops before this stream ended (it outlived the grace): the
            // callbacks still run, onClose above all, on a virtual thread of their own.
            Thread.ofVirtual().name("tidemill-stream-close").start(this::drain);
        }
    }

    private void drain() {
        running = Thread.currentThread();
        try {
            int n = 0;
            while (true) {
                for (Runnable t; (t = tasks.poll()) != null; ) {
                    run(t);
                    if (++n == BURST && mode == ExecutionMode.LOOP && WorkerLoop.onWorkerThread()) {
                        schedule(); // still scheduled: yield the loop, continue later
                        return;
                    }
                }
                scheduled.set(false);
                // A task offered after the poll above, whose submitter saw scheduled still true.
                if (tasks.isEmpty() || !scheduled.compareAndSet(false, true)) return;
            }
        } finally {
            running = null;
            if (mode == ExecutionMode.VIRTUAL) Thread.interrupted();
        }
    }

    private static void run(Runnable t) {
        try {
            t.run();
        } catch (Throwable e) {
            LOG.error("stream callback failed", e); // callbacks catch their handler's exceptions: this is a bug of ours
        }
    }
}
