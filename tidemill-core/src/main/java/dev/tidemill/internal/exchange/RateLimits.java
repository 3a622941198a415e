package dev.tidemill.internal.exchange;

import dev.tidemill.Problem;
import dev.tidemill.RateLimit;
import dev.tidemill.internal.ratelimit.Keys;
import dev.tidemill.internal.ratelimit.Limiter;
import java.util.Optional;

/**
 * The rate-limit check, the last of the gate's: after routing and parameter binding, before the
 * body is read or a worker is woken, on the transport's thread. A refusal is a 429 problem naming
 * the limit, with {@code Retry-After} (whole seconds, rounded up) and the {@code RateLimit} and
 * {@code RateLimit-Policy} fields of draft-ietf-httpapi-ratelimit-headers-10 (structured fields:
 * {@code RateLimit-Policy: "name";q=5;w=1}, {@code RateLimit: "name";r=0;t=1}).
 */
final class RateLimits {
    private RateLimits() {}

    /** @return null if admitted (or exempt), else the 429 */
    static Verdict admit(Exchange ex) {
        Limiter limiter = ex.endpoint.limiter();
        if (limiter == null) return null;
        RateLimit limit = limiter.limit();
        Optional<String> key = Keys.of(limit, ex);
        if (key.isEmpty()) return null;
        long wait = limiter.acquire(key.get());
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
