package dev.tidemill.internal.redis;

import dev.tidemill.RateLimit;
import io.lettuce.core.ScriptOutputType;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/** Rate-limit budgets as Redis keys, one Lua script per decision (GCRA on Redis's clock). */
public final class Budgets {
    /**
     * KEYS[1] the budget; ARGV[1] the interval and ARGV[2] the tolerance (burst x interval), in
     * microseconds. Returns {1, remaining} when admitted, {0, microseconds to wait} when not.
     */
    static final String GCRA = """
            local t = redis.call('TIME')
            local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
            local interval = tonumber(ARGV[1])
            local tolerance = tonumber(ARGV[2])
            local tat = tonumber(redis.call('GET', KEYS[1])) or now
            local base = math.max(tat, now)
            local ahead = base + interval - now
            if ahead > tolerance then return {0, ahead - tolerance} end
            redis.call('SET', KEYS[1], string.format('%.0f', base + interval), 'PX', math.ceil(ahead / 1000) + 1)
            return {1, math.floor((tolerance - ahead) / interval)}
            """;

    private final RedisStore store;

    /** @param store the connections */
    public Budgets(RedisStore store) {
        this.store = store;
    }

    /**
     * @param limit the limit
     * @param budget the budget's key
     * @return negative if admitted ({@code -1 - remaining}), else the nanoseconds to wait
     */
    public CompletionStage<Long> acquire(RateLimit limit, String budget) {
        long interval = Math.max(1, limit.period().toNanos() / 1_000 / limit.requests());
        long tolerance = Math.multiplyExact(interval, (long) limit.burst());
        CompletableFuture<Long> out = new CompletableFuture<>();
        try {
            store.commands().async().<List<Long>>eval(GCRA, ScriptOutputType.MULTI, new String[] {budget},
                    Long.toString(interval), Long.toString(tolerance)).whenComplete((r, e) -> {
                        if (e != null) {
                            out.completeExceptionally(e);
                        } else if (r.get(0) == 1L) {
                            out.complete(-1 - r.get(1));
                        } else {
                            out.complete(Math.max(1, r.get(1) * 1_000));
                        }
                    });
        } catch (RuntimeException e) {
            out.completeExceptionally(e);
        }
        return out;
    }
}
