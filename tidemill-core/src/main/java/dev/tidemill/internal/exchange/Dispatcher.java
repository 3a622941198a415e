package dev.tidemill.internal.exchange;

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
        switch (ex.endpoint.mode()) {
            case IO -> {
                ex.holdSlot(null);
                invoker.run(ex, false);
            }
            case LOOP -> {
                WorkerLoop loop = loops.reserve();
                if (loop == null) {
                    if (!ex.unlimited) limit.release();
                    overloaded(ex);
                    return;
                }
                ex.holdSlot(loop);
                loop.execute(ex);
            }
            case VIRTUAL -> {
                ex.holdSlot(null);
                virtualThreads().execute(() -> {
                    ex.virtualThread = Thread.currentThread();
                    try {
                        invoker.run(ex, false);
                    } finally {
                        ex.virtualThread = null;
                        Thread.interrupted(); // an interrupt aimed at this request must not leak
                    }
                });
            }
        }
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
