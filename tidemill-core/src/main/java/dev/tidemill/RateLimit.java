package dev.tidemill;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * A rate limit: at most {@link #requests()} per {@link #period()} for each key (by default the
 * client's address, {@link Request#clientAddress()}), with bursts of up to {@link #burst()}. Set
 * it on the app, a group or a route with {@code rateLimit(...)}; the nearest one wins. One object
 * is one budget: a limit set on two routes is shared by both, per key. Decided on the I/O thread
 * after routing and before the body is read or a worker is woken; a refused request gets
 * {@code 429} with {@code Retry-After} and the {@code RateLimit}/{@code RateLimit-Policy} headers
 * of draft-ietf-httpapi-ratelimit-headers-10. Operational routes ({@link Route#operational(boolean)})
 * and CORS preflights are never limited.
 *
 * <p>The algorithm is GCRA (the generic cell rate algorithm, a token bucket kept as one
 * timestamp per key): a request is admitted when, after it, the key's theoretical arrival time is
 * at most {@code burst x period / requests} ahead of now. Memory is bounded: idle keys (whose
 * budget is full again) are swept, and at most {@link #maxKeys()} are held; past that, new keys
 * share one overflow budget of the same size until sweeping frees room.
 *
 * <pre>{@code
 * app.get("/limited", req -> "ok").rateLimit(RateLimit.builder("limited").requests(5).per(Duration.ofSeconds(1)).build());
 * }</pre>
 */
public final class RateLimit {
    /** Default {@link #maxKeys()}: 100,000 keys, about 12 MiB at worst. */
    public static final int DEFAULT_MAX_KEYS = 100_000;
    /** Default {@link #period()}: one second. */
    public static final Duration DEFAULT_PERIOD = Duration.ofSeconds(1);
    static final Range REQUESTS = Range.count("requests", 1, 1_000_000_000);
    static final Range PERIOD = Range.duration("period", Duration.ofSeconds(1), Duration.ofDays(1));
    static final Range BURST = Range.count("burst", 1, 1_000_000_000);
    static final Range MAX_KEYS = Range.count("maxKeys", 1, 100_000_000);

    private final String name;
    private final int requests;
    private final Duration period;
    private final int burst;
    private final int maxKeys;
    private final String header;
    private final Function<Request, Optional<String>> key;
    private final Store store;

    /**
     * Where the budgets are kept when several nodes must share them (tidemill-redis's
     * {@code RedisRateLimits}); without one they are this process's ({@link #maxKeys()} of them). A
     * store that does not answer admits the request (fails open: a limit must not take the site down
     * with it), counted in {@code Server.diagnostics()} as {@code ratelimit.failed_open}.
     */
    public interface Store {
        /**
         * Takes one request from the key's budget, by the same rule as in process (GCRA: at most
         * {@code burst} at once, refilled at {@code requests} per {@code period}).
         *
         * @param limit the limit
         * @param key the key (the client's address, a header's value, the function's result)
         * @return negative if admitted ({@code -1 - remaining}), else the nanoseconds until one more would be
         */
        java.util.concurrent.CompletionStage<Long> acquire(RateLimit limit, String key);
    }

    private RateLimit(Builder b) {
        name = b.name;
        REQUESTS.check(b.requests);
        requests = (int) b.requests;
        PERIOD.check(b.period);
        period = b.period;
        if (period.toNanosPart() != 0) throw new IllegalArgumentException("period must be whole seconds (RateLimit-Policy's w)");
        long bursts = b.burst == 0 ? b.requests : b.burst;
        BURST.check(bursts);
        burst = (int) bursts;
        MAX_KEYS.check(b.maxKeys);
        maxKeys = (int) b.maxKeys;
        header = b.header;
        key = b.key;
        store = b.store;
    }

    /**
     * @param name the policy's name, sent in {@code RateLimit-Policy} and named in the 429's
     *     detail: 1-64 of letters, digits, {@code - _ . :}
     * @return a builder: 1 request per second until told otherwise
     */
    public static Builder builder(String name) {
        return new Builder(name);
    }

    /** @return the policy's name */
    public String name() {
        return name;
    }

    /** @return requests allowed per {@link #period()} and key, 1 to 10^9; default 1 */
    public int requests() {
        return requests;
    }

    /** @return the window, whole seconds from 1 s to 1 day; default {@link #DEFAULT_PERIOD} */
    public Duration period() {
        return period;
    }

    /** @return requests allowed at once after a quiet spell; default {@link #requests()} */
    public int burst() {
        return burst;
    }

    /** @return most keys whose state is held at once; default {@link #DEFAULT_MAX_KEYS} */
    public int maxKeys() {
        return maxKeys;
    }

    /** @return the request header whose value is the key, if keyed by one */
    public Optional<String> header() {
        return Optional.ofNullable(header);
    }

    /** @return the function that computes the key, if keyed by one */
    public Optional<Function<Request, Optional<String>>> keyFunction() {
        return Optional.ofNullable(key);
    }

    /** @return the shared store of the budgets, if any (else they are this process's) */
    public Optional<Store> store() {
        return Optional.ofNullable(store);
    }

    @Override
    public String toString() {
        return "RateLimit[" + name + ": " + requests + " per " + period.toSeconds() + " s, burst " + burst + "]";
    }

    /** Builder for {@link RateLimit}. */
    public static final class Builder {
        private final String name;
        private long requests = 1;
        private Duration period = DEFAULT_PERIOD;
        private long burst;
        private long maxKeys = DEFAULT_MAX_KEYS;
        private String header;
        private Function<Request, Optional<String>> key;
        private Store store;

        private Builder(String name) {
            Objects.requireNonNull(name, "name");
            if (!name.matches("[A-Za-z0-9_.:-]{1,64}")) {
                throw new IllegalArgumentException("a rate limit's name is 1-64 of letters, digits, - _ . : (" + name + ")");
            }
            this.name = name;
        }

        /** @param n requests per period, 1 to 10^9 @return this */
        public Builder requests(int n) {
            requests = n;
            return this;
        }

        /** @param value the window, whole seconds, 1 s to 1 day @return this */
        public Builder per(Duration value) {
            period = Objects.requireNonNull(value, "period");
            return this;
        }

        /** @param n requests allowed at once, 1 to 10^9; default the {@link #requests(int)} count @return this */
        public Builder burst(int n) {
            if (n < 1) throw new IllegalArgumentException("burst must be >= 1");
            burst = n;
            return this;
        }

        /** @param n most keys held at once, 1 to 10^8; default {@link #DEFAULT_MAX_KEYS} @return this */
        public Builder maxKeys(int n) {
            maxKeys = n;
            return this;
        }

        /** Keys by {@link Request#clientAddress()}, IPv6 by its /64 prefix (the default). @return this */
        public Builder byClientAddress() {
            header = null;
            key = null;
            return this;
        }

        /**
         * Keys by a request header's value (an API key, say); a request without it is keyed by its
         * client address, so leaving the header out never escapes the limit.
         *
         * @param name the header
         * @return this
         */
        public Builder byHeader(String name) {
            header = Objects.requireNonNull(name, "header");
            key = null;
            return this;
        }

        /**
         * Keys by a function of the request, run on the I/O thread before the body is read (the
         * body is not available; headers, path and query parameters are). An empty result
         * exempts the request.
         *
         * @param function the key
         * @return this
         */
        public Builder by(Function<Request, Optional<String>> function) {
            key = Objects.requireNonNull(function, "key");
            header = null;
            return this;
        }

        /** @param shared where the budgets are kept for every node (see {@link Store}) @return this */
        public Builder store(Store shared) {
            store = Objects.requireNonNull(shared, "store");
            return this;
        }

        /** @return the limit; throws {@link IllegalArgumentException} naming a bad setting */
        public RateLimit build() {
            return new RateLimit(this);
        }
    }
}
