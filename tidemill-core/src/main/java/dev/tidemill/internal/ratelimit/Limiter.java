package dev.tidemill.internal.ratelimit;

import dev.tidemill.RateLimit;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * One {@link RateLimit}'s state: GCRA, one theoretical arrival time (TAT) per key. Each admitted
 * request moves its key's TAT one emission interval ({@code period / requests}) later; a request
 * is refused when that would put the TAT more than {@code burst} intervals past now. A key whose
 * TAT is in the past has its whole burst again, exactly as if it had never been seen, so such
 * keys are swept without changing any decision. Lock-free: one compare-and-set per request.
 *
 * <p>Memory: at most {@code maxKeys} keys are held. A sweep runs when a new key finds the table
 * full, and at most once per sweep interval otherwise (so memory is returned after a burst of
 * keys). If the table is still full after a sweep, the new key is charged to a shared overflow
 * budget of the same size (so a flood of fresh addresses is limited as one client, and nobody is
 * refused only because the table is full). A request racing the sweep of its own idle key may go
 * uncounted: it found a full budget and keeps one, at most one request of slack per sweep.
 */
public final class Limiter {
    /** The overflow budget's key; not a value any key function yields (keys are prefixed). */
    static final String OVERFLOW = "\0overflow";

    private final RateLimit limit;
    private final LongSupplier clock;
    private final long interval;   // nanoseconds per request
    private final long tolerance;  // burst x interval
    private final long sweepEvery;
    private final ConcurrentHashMap<String, AtomicLong> tats = new ConcurrentHashMap<>();
    private final AtomicBoolean sweeping = new AtomicBoolean();
    private volatile long lastSweep;
    private final AtomicLong overflowed = new AtomicLong();

    /**
     * @param limit the limit
     * @param clock nanoseconds, monotonic ({@code System::nanoTime}; tests pass their own)
     */
    public Limiter(RateLimit limit, LongSupplier clock) {
        this.limit = limit;
        this.clock = clock;
        this.interval = Math.max(1, limit.period().toNanos() / limit.requests());
        this.tolerance = tolerance(interval, limit.burst());
        this.sweepEvery = Math.max(1_000_000_000L, Math.min(tolerance, 60_000_000_000L));
        this.lastSweep = clock.getAsLong();
    }

    private static long tolerance(long interval, int burst) {
        try {
            return Math.multiplyExact(interval, burst);
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE / 4; // centuries: never reached, and TAT arithmetic stays clear of overflow
        }
    }

    /** @return the limit */
    public RateLimit limit() {
        return limit;
    }

    /**
     * Takes one request from {@code key}'s budget.
     *
     * @param key the key (as {@link Keys} builds it)
     * @return a negative number if admitted: {@code -1 - remaining}; else the nanoseconds until one
     *     more request would be admitted (at least 1)
     */
    public long acquire(String key) {
        long now = clock.getAsLong();
        AtomicLong tat = tats.get(key);
        if (tat == null) tat = insert(key, now);
        while (true) {
            long current = tat.get();
            long base = current - now > 0 ? current : now; // wrap-safe max(current, now)
            long next = base + interval;
            long ahead = next - now;
            if (ahead > tolerance) return Math.max(1, ahead - tolerance);
            if (tat.compareAndSet(current, next)) return -1 - (tolerance - ahead) / interval;
        }
    }

    private AtomicLong insert(String key, long now) {
        if (tats.size() >= limit.maxKeys() || now - lastSweep >= sweepEvery) sweep(now);
        if (tats.size() >= limit.maxKeys()) {
            overflowed.incrementAndGet();
            AtomicLong shared = tats.get(OVERFLOW);
            if (shared != null) return shared;
            // the overflow budget may exceed maxKeys by one entry
            return tats.computeIfAbsent(OVERFLOW, k -> new AtomicLong(now));
        }
        return tats.computeIfAbsent(key, k -> new AtomicLong(now));
    }

    /** Removes every key whose budget is full again; one thread at a time, others skip it. */
    void sweep(long now) {
        if (!sweeping.compareAndSet(false, true)) return;
        try {
            lastSweep = now;
            tats.values().removeIf(t -> t.get() - now <= 0);
        } finally {
            sweeping.set(false);
        }
    }

    /** @return keys held (the overflow budget included) */
    public int keys() {
        return tats.size();
    }

    /** @return requests whose new key found the table full and were charged to the overflow budget */
    public long overflowed() {
        return overflowed.get();
    }
}
