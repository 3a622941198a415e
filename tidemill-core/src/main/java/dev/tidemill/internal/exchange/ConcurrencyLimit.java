package dev.tidemill.internal.exchange;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The server's one concurrency limit: requests admitted and not yet finished, whatever their
 * execution mode ({@code concurrencyPerLoop x workerLoops}). Every mode takes a slot here before
 * its handler runs, so an app that mixes IO, LOOP and VIRTUAL routes never admits more than the
 * documented total (LOOP requests also take a slot on their worker loop, which bounds its queue and
 * steers least-loaded assignment). A slot is taken on the transport's thread before dispatch and
 * released exactly once, explicitly, by {@link Exchange#releaseSlot}.
 */
final class ConcurrencyLimit {
    private final AtomicInteger inFlight = new AtomicInteger();
    private final int limit;

    ConcurrencyLimit(int limit) {
        this.limit = limit;
    }

    boolean tryAcquire() {
        for (;;) {
            int n = inFlight.get();
            if (n >= limit) return false;
            if (inFlight.weakCompareAndSetVolatile(n, n + 1)) return true;
        }
    }

    void release() {
        if (inFlight.decrementAndGet() < 0) {
            inFlight.incrementAndGet();
            throw new IllegalStateException("concurrency slot released twice");
        }
    }

    /** @return slots held right now */
    int inFlight() {
        return inFlight.get();
    }
}
