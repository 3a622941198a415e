package dev.tidemill.redis;

import dev.tidemill.SessionStore;
import dev.tidemill.internal.redis.RedisStore;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletionStage;

/**
 * Sessions in Redis, so that every node of a cluster knows every session: a session made on one
 * node works on the others. Each session is one key, {@value #KEY_PREFIX}{@code <id>}, holding its
 * data as JSON and expiring with the session's idle timeout (SET ... PX). A lookup that Redis does not
 * answer fails, and the request gets 503 with {@code Retry-After}: sessions fail closed.
 *
 * <pre>{@code
 * Sessions sessions = Sessions.builder().store(RedisSessionStore.connect(RedisUrl.parse(url))).build();
 * }</pre>
 */
public final class RedisSessionStore implements SessionStore, AutoCloseable {
    /** Every session is the key {@code tidemill:session:<id>}. */
    public static final String KEY_PREFIX = "tidemill:session:";

    private final RedisStore store;
    private final dev.tidemill.internal.redis.SessionKeys sessions;

    private RedisSessionStore(RedisStore store) {
        this.store = store;
        this.sessions = new dev.tidemill.internal.redis.SessionKeys(store, KEY_PREFIX);
    }

    /**
     * @param url where Redis is
     * @return a store on its own connection
     * @throws IllegalStateException when Redis cannot be reached
     */
    public static RedisSessionStore connect(RedisUrl url) {
        return new RedisSessionStore(new RedisStore(url.secretText(), url.toString()));
    }

    @Override
    public CompletionStage<Optional<Data>> load(String id) {
        return sessions.load(id);
    }

    @Override
    public CompletionStage<Void> save(String id, Data data, Duration ttl) {
        return sessions.save(id, data, ttl);
    }

    @Override
    public CompletionStage<Void> delete(String id) {
        return sessions.delete(id);
    }

    @Override
    public void close() {
        store.close();
    }

    @Override
    public String toString() {
        return "sessions in Redis at " + store.display();
    }
}
