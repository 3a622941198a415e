package dev.tidemill.internal.exchange;

import dev.tidemill.Problem;
import dev.tidemill.RateLimit;
import dev.tidemill.internal.ratelimit.Keys;
import dev.tidemill.internal.ratelimit.Limiter;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The rate-limit check, the last of the gate's: after routing and parameter binding, before the
 * body is read or a worker is woken, on the transport's thread. A refusal is a 429 problem naming
 * the limit, with {@code Retry-After} (whole seconds, rounded up) and the {@code RateLimit} and
 * {@code RateLimit-Policy} fields of draft-ietf-httpapi-ratelimit-headers-10 (structured fields:
 * {@code RateLimit-Policy: "name";q=5;w=1}, {@code RateLimit: "name";r=0;t=1}).
 */
final class RateLimits {
    private RateLimits() {}

    /** Requests admitted because a shared store did not answer (fail open). */
    static final java.util.concurrent.atomic.LongAdder FAILED_OPEN = new java.util.concurrent.atomic.LongAdder();
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(RateLimits.class);
    private static final java.util.concurrent.atomic.AtomicLong LAST_WARNING = new java.util.concurrent.atomic.AtomicLong(Long.MIN_VALUE / 2);

    /**
     * @return null if admitted (or exempt), the 429, or {@link Verdict#PENDING} with
     *     {@link Exchange#admission} set, when the limit's budgets are in a shared store
     */
    static Verdict admit(Exchange ex) {
        Limiter limiter = ex.endpoint.limiter();
        if (limiter == null) return null;
        RateLimit limit = limiter.limit();
        Optional<String> key = Keys.of(limit, ex);
        if (key.isEmpty()) return null;
        if (limit.store().isEmpty()) return verdict(limit, limiter.acquire(key.get()));
        ex.admission = shared(limit, key.get());
        return Verdict.PENDING;
    }

    /** As {@link #admit}, once authenticating the caller took a fetch: the verdict as a stage. */
    static CompletionStage<Verdict> decide(Exchange ex) {
        Limiter limiter = ex.endpoint.limiter();
        if (limiter == null) return CompletableFuture.completedFuture(null);
        RateLimit limit = limiter.limit();
        Optional<String> key = Keys.of(limit, ex);
        if (key.isEmpty()) return CompletableFuture.completedFuture(null);
        if (limit.store().isEmpty()) return CompletableFuture.completedFuture(verdict(limit, limiter.acquire(key.get())));
        return shared(limit, key.get());
    }

    private static CompletionStage<Verdict> shared(RateLimit limit, String key) {
        CompletionStage<Long> asked;
        try {
            asked = limit.store().orElseThrow().acquire(limit, key);
        } catch (RuntimeException e) {
            asked = CompletableFuture.failedFuture(e);
        }
        return asked.handle((wait, failed) -> {
            if (failed == null) return verdict(limit, wait);
            FAILED_OPEN.increment();
            long now = System.nanoTime();
            long last = LAST_WARNING.get();
            // an outage is logged once a minute, not once per request
            if (now - last > 60_000_000_000L && LAST_WARNING.compareAndSet(last, now)) {
                LOG.warn("rate limit '{}': its store did not answer ({}); admitting requests until it does (fail open)", limit.name(),
                        failed.getMessage());
            }
            return null;
        });
    }

    /** @return null if admitted ({@code wait} negative), else the 429 */
    private static Verdict verdict(RateLimit limit, long wait) {
        if (wait < 0) return null;
        long seconds = Math.max(1, (wait + 999_999_999L) / 1_000_000_000L);
        String name = limit.name();
        return new Verdict(Problem.of(429, "Too Many Requests", "rate limit '" + name + "' (" + limit.requests() + " per "
                        + limit.period().toSeconds() + " s, burst " + limit.burst() + ") exceeded; retry in " + seconds + " s"),
                false,
                "Retry-After", Long.toString(seconds),
                "RateLimit-Policy", policy(limit),
                "RateLimit", "\"" + name + "\";r=0;t=" + seconds);
    }

    /** @return the {@code RateLimit-Policy} item of a limit: quota per window, in seconds */
    static String policy(RateLimit limit) {
        return "\"" + limit.name() + "\";q=" + limit.requests() + ";w=" + limit.period().toSeconds();
    }
}
