package dev.tidemill.internal.redis;

import dev.tidemill.Topic.Durability;
import io.lettuce.core.RedisException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The start-up check of a strictly durable topic ({@link Durability#STRICT}): an acknowledged
 * publish survives a crash of Redis's machine only if Redis writes it to its append-only file and
 * fsyncs before answering ({@code appendonly yes}, {@code appendfsync always}; with {@code everysec}
 * up to a second of acknowledged writes may go) and never evicts keys to make room
 * ({@code maxmemory-policy noeviction}). Read with {@code CONFIG GET}; a Redis that refuses it is
 * refused too, unless the topic takes it on trust ({@link Durability#STRICT_ON_TRUST}).
 */
final class DurabilityCheck {
    /** What each setting must be. */
    static final Map<String, String> REQUIRED = Map.of("appendonly", "yes", "appendfsync", "always", "maxmemory-policy", "noeviction");

    private DurabilityCheck() {}

    /**
     * @throws IllegalStateException naming every setting that breaks the promise and what it must be,
     *     or that Redis would not say
     */
    static void require(RedisStore store, String topic, Durability durability) {
        Map<String, String> actual;
        try {
            actual = store.commands().sync().configGet("appendonly", "appendfsync", "maxmemory-policy");
        } catch (RedisException refused) {
            if (durability == Durability.STRICT_ON_TRUST) return;
            throw new IllegalStateException("topic " + topic + " is declared " + durability + ", but Redis at " + store.display()
                    + " refuses CONFIG GET (" + refused.getMessage() + "), so its durability cannot be checked; build the topic with "
                    + "Durability.STRICT_ON_TRUST if you know it keeps appendonly yes, appendfsync always and maxmemory-policy noeviction",
                    refused);
        }
        List<String> wrong = new ArrayList<>();
        for (String setting : List.of("appendonly", "appendfsync", "maxmemory-policy")) {
            String v = actual.get(setting);
            if (!REQUIRED.get(setting).equals(v)) wrong.add(setting + " is " + (v == null ? "not reported" : v) + ", must be " + REQUIRED.get(setting));
        }
        if (!wrong.isEmpty()) {
            throw new IllegalStateException("topic " + topic + " is declared " + durability + ", but Redis at " + store.display()
                    + " cannot keep an acknowledged publish through a crash of its machine: " + String.join("; ", wrong)
                    + " (docs/cluster.md, \"When Redis goes away\")");
        }
    }
}
