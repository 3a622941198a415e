package dev.tidemill.internal.http;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The concurrency limit for requests that do not run on a worker loop (IO and VIRTUAL modes):
 * {@code concurrencyPerLoop x workerLoops} admitted at once, the same total the loops allow. A slot
 * is taken on the I/O thread before dispatch and released exactly once, explicitly, when the
 * request is finished, timed out or abandoned.
 */
final class Admission {
    private final AtomicInteger inFlight = new AtomicInteger();
    private final int limit;

    Admission(int limit) {
        this.limit = limit;
    }

    boolean tryAcquire() {
        for (;;) {
            int n = inFlight.get();
            if (n >= limit) return false;
            if (inFlight.compareAndSet(n, n + 1)) return true;
        }
    }

    void release() {
        if (inFlight.decrementAndGet() < 0) {
            inFlight.incrementAndGet();
            throw new IllegalStateException("admission slot released twice");
        }
    }

    int inFlight() {
        return inFlight.get();
    }

    int limit() {
        return limit;
    }
}
