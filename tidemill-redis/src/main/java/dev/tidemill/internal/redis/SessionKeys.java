package dev.tidemill.internal.redis;

import dev.tidemill.SessionStore;
import io.lettuce.core.SetArgs;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import tools.jackson.databind.json.JsonMapper;

/** Sessions as keys ({@code <prefix><id>}): JSON of {@link SessionStore.Data}, expiring after the ttl. */
public final class SessionKeys {
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final RedisStore store;
    private final String prefix;

    /**
     * @param store the connections
     * @param prefix the keys' prefix
     */
    public SessionKeys(RedisStore store, String prefix) {
        this.store = store;
        this.prefix = prefix;
    }

    /** @return the session, or empty; fails when Redis does not answer (fail closed) */
    public CompletionStage<Optional<SessionStore.Data>> load(String id) {
        CompletableFuture<Optional<SessionStore.Data>> out = new CompletableFuture<>();
        try {
            store.commands().async().get(prefix + id).whenComplete((json, e) -> {
                if (e != null) {
                    out.completeExceptionally(e);
                    return;
                }
                try {
                    out.complete(json == null ? Optional.empty() : Optional.of(JSON.readValue(json, SessionStore.Data.class)));
                } catch (RuntimeException bad) {
                    out.complete(Optional.empty()); // not a session we wrote: as if absent
                }
            });
        } catch (RuntimeException e) {
            out.completeExceptionally(e);
        }
        return out;
    }

    /** SET key json PX ttl. */
    public CompletionStage<Void> save(String id, SessionStore.Data data, Duration ttl) {
        CompletableFuture<Void> out = new CompletableFuture<>();
        try {
            store.commands().async().set(prefix + id, JSON.writeValueAsString(data), SetArgs.Builder.px(Math.max(1, ttl.toMillis())))
                    .whenComplete((ok, e) -> {
                        if (e != null) out.completeExceptionally(e);
                        else out.complete(null);
                    });
        } catch (RuntimeException e) {
            out.completeExceptionally(e);
        }
        return out;
    }

    /** DEL key. */
    public CompletionStage<Void> delete(String id) {
        CompletableFuture<Void> out = new CompletableFuture<>();
        try {
            store.commands().async().del(prefix + id).whenComplete((n, e) -> {
                if (e != null) out.completeExceptionally(e);
                else out.complete(null);
            });
        } catch (RuntimeException e) {
            out.completeExceptionally(e);
        }
        return out;
    }
}
