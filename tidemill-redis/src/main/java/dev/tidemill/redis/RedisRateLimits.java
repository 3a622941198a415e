package dev.tidemill.redis;

import dev.tidemill.RateLimit;
import dev.tidemill.internal.redis.Budgets;
import dev.tidemill.internal.redis.RedisStore;
import java.util.concurrent.CompletionStage;

/**
 * Rate-limit budgets in Redis ({@link RateLimit.Store}), so a client limited to 5 per second gets 5
 * per second in total however many nodes it reaches. One Lua script per decision runs the same rule
 * as in process (GCRA: a theoretical arrival time per key, advanced by {@code period / requests} per
 * request, admitted while it is at most {@code burst} intervals ahead of now) against Redis's clock
 * ({@code TIME}), so the nodes' clocks do not matter; each key ({@value #KEY_PREFIX}{@code <limit>:<key>})
 * expires once its budget is full again. A decision Redis does not answer admits the request (fail
 * open), counted by the server.
 *
 * <pre>{@code
 * RateLimit limit = RateLimit.builder("api").requests(5).per(Duration.ofSeconds(1))
 *         .store(RedisRateLimits.connect(RedisUrl.parse(url))).build();
 * }</pre>
 */
public final class RedisRateLimits implements RateLimit.Store, AutoCloseable {
    /** Every budget is the key {@code tidemill:ratelimit:<limit>:<key>}. */
    public static final String KEY_PREFIX = "tidemill:ratelimit:";

    private final RedisStore store;
    private final Budgets budgets;

    private RedisRateLimits(RedisStore store) {
        this.store = store;
        this.budgets = new Budgets(store);
    }

    /**
     * @param url where Redis is
     * @return a store on its own connection
     * @throws IllegalStateException when Redis cannot be reached
     */
    public static RedisRateLimits connect(RedisUrl url) {
        return new RedisRateLimits(new RedisStore(url.secretText(), url.toString()));
    }

    @Override
    public CompletionStage<Long> acquire(RateLimit limit, String key) {
        return budgets.acquire(limit, KEY_PREFIX + limit.name() + ":" + key);
    }

    @Override
    public void close() {
        store.close();
    }

    @Override
    public String toString() {
        return "rate-limit budgets in Redis at " + store.display();
    }
}
