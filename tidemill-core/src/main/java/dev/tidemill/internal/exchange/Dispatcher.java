package dev.tidemill.internal.exchange;

import dev.tidemill.ExecutionMode;
import dev.tidemill.Problem;
import dev.tidemill.internal.dispatch.LoopGroup;
import dev.tidemill.internal.dispatch.WorkerLoop;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The "admit and dispatch" stage: takes a concurrency slot and runs the exchange's handler where
 * its execution mode says: inline (IO), on a worker loop (LOOP), or on a new virtual thread
 * (VIRTUAL). Called on the transport's thread once the request is complete and coerced. No slot
 * free: 503 with {@code Retry-After: 1}, still on the transport's thread.
 */
final class Dispatcher {
    private final LoopGroup loops;
    private final ConcurrencyLimit limit;
    private final Invoker invoker;
    private final ServerObserver observer;
    private volatile ExecutorService virtualThreads;

    Dispatcher(LoopGroup loops, int concurrencyLimit, Invoker invoker, ServerObserver observer) {
        this.observer = observer;
        this.loops = loops;
        this.limit = new ConcurrencyLimit(concurrencyLimit);
        this.invoker = invoker;
    }

    void dispatch(Exchange ex) {
        // An operational route (health, metrics) is never shed: a probe must tell a busy server
        // from a dead one, and a scrape is most wanted when the server is full.
        if (ex.endpoint.route().operational()) {
            ex.unlimited = true;
        } else if (!limit.tryAcquire()) {
            overloaded(ex);
            return;
        }
        AutoMode auto = ex.endpoint.auto();
        ExecutionMode mode;
        if (auto == null) ex.mode = mode = ex.endpoint.mode();
        else mode = auto.next(ex); // where AUTO runs this call now
        WorkerLoop loop = null;
        if (mode == ExecutionMode.LOOP) {
            loop = loops.reserve();
            if (loop == null && ex.probe) { // a probe finds every loop full: it runs where the route runs now
                auto.probeNotRun(ex);
                ex.mode = mode = ExecutionMode.VIRTUAL;
            } else if (loop == null) {
                if (!ex.unlimited) limit.release();
                overloaded(ex);
                return;
            }
        }
        ex.holdSlot(loop);
        run(mode, loop, ex);
    }

    /**
     * The one place an execution mode becomes a thread: a request's handler ({@link Exchange#run})
     * and every callback of a long-lived stream ({@link CallbackLane}) start here.
     *
     * @param mode where to run
     * @param loop the worker loop (LOOP), else ignored
     * @param task what to run; IO: on the calling (transport's) thread, now
     * @throws java.util.concurrent.RejectedExecutionException if the worker loop has stopped
     */
    void run(ExecutionMode mode, WorkerLoop loop, Runnable task) {
        switch (mode) {
            case IO -> task.run();
            case LOOP -> loop.execute(task);
            case VIRTUAL -> virtualThreads().execute(task);
            case AUTO -> throw new IllegalArgumentException("AUTO is resolved at dispatch");
        }
    }

    /**
     * Runs a consumer's message on a worker loop, with a slot reserved as a LOOP request's is and
     * released when it ends ({@code Tidemill.consume} in LOOP mode).
     *
     * @param task the worker's call
     * @return false when every loop is full (nothing was run)
     * @throws java.util.concurrent.RejectedExecutionException if the worker loops have stopped
     */
    boolean runOnLoop(Runnable task) {
        WorkerLoop loop = loops.reserve();
        if (loop == null) return false;
        try {
            loop.execute(() -> {
                try {
                    task.run();
                } finally {
                    loop.release();
                }
            });
        } catch (RuntimeException e) {
            loop.release();
            throw e;
        }
        return true;
    }

    /**
     * @param mode the stream's route's mode
     * @param loop the worker loop its handshake was given (LOOP), or null
     * @return a lane that runs one stream's callbacks one at a time, in order, in that mode
     */
    CallbackLane lane(ExecutionMode mode, WorkerLoop loop) {
        return new CallbackLane(this, mode == ExecutionMode.LOOP && loop == null || mode == ExecutionMode.AUTO ? ExecutionMode.VIRTUAL : mode, loop);
    }

    private void overloaded(Exchange ex) {
        observer.shed();
        ex.refuse(Problem.of(503, "Service Unavailable", "every worker is at its concurrency limit; retry shortly"),
                false, "Retry-After", "1");
    }

    /** Created on first use: an app without VIRTUAL routes never starts the executor. */
    private ExecutorService virtualThreads() {
        ExecutorService e = virtualThreads;
        if (e == null) {
            synchronized (this) {
                e = virtualThreads;
                if (e == null) {
                    e = Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("tidemill-virtual-", 0).factory());
                    virtualThreads = e;
                }
            }
        }
        return e;
    }

    ConcurrencyLimit limit() {
        return limit;
    }

    LoopGroup loops() {
        return loops;
    }

    Invoker invoker() {
        return invoker;
    }

    void close() {
        loops.close();
        ExecutorService e = virtualThreads;
        if (e != null) e.shutdownNow();
    }
}
