package dev.tidemill.redis;

import dev.tidemill.Health;
import dev.tidemill.ReadinessCheck;
import dev.tidemill.Topic;
import dev.tidemill.internal.redis.RedisStore;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Topics on Redis Streams, shared by every node connected to the same Redis: one stream per topic
 * (key {@value #KEY_PREFIX}{@code <name>}), the message id the stream entry's id. Each node reads each
 * topic once, on a connection of its own with blocking reads, and hands every entry to its own
 * subscriptions in stream order, the same order on every node; a publish completes once Redis has
 * stored the entry.
 *
 * <p>As the {@link Topic.Backend} service it is used by {@link Topic#builder} when
 * {@value RedisUrl#VARIABLE} is set; without it topics stay in process. {@link #connect} makes one
 * for a given URL (tests, or an app that keeps its settings elsewhere).
 */
public final class RedisTopics implements Topic.Backend, AutoCloseable {
    /** Every topic's stream is the key {@code tidemill:topic:<name>}. */
    public static final String KEY_PREFIX = "tidemill:topic:";
    /** Entries a stream keeps when the topic sets no replay size: trimmed approximately (XADD MAXLEN ~). */
    public static final int DEFAULT_MAX_LENGTH = 10_000;
    /** How long a stream keeps an entry when the topic sets no replay age: trimmed approximately (XTRIM MINID ~), once a minute. */
    public static final Duration DEFAULT_MAX_AGE = Duration.ofHours(24);
    /** How long a command may take before it fails (a publish, a replay). */
    public static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(5);

    private final Supplier<Optional<RedisUrl>> url;
    private volatile RedisStore store;

    /** For {@link java.util.ServiceLoader}: reads {@value RedisUrl#VARIABLE} when the first topic is built. */
    public RedisTopics() {
        this(RedisUrl::fromEnvironment);
    }

    private RedisTopics(Supplier<Optional<RedisUrl>> url) {
        this.url = url;
    }

    /**
     * @param url where Redis is
     * @return the backend; it connects when the first topic is built
     */
    public static RedisTopics connect(RedisUrl url) {
        return new RedisTopics(() -> Optional.of(url));
    }

    /** @return whether {@value RedisUrl#VARIABLE} (or the URL given to {@link #connect}) names a Redis */
    @Override
    public boolean enabled() {
        return url.get().isPresent();
    }

    @Override
    public <T> Topic.Builder<T> builder(String name) {
        return store().builder(name);
    }

    @Override
    public Optional<Topic<?>> find(String name) {
        RedisStore s = store;
        return s == null ? Optional.empty() : s.find(name);
    }

    private RedisStore store() {
        RedisStore s = store;
        if (s != null) return s;
        synchronized (this) {
            if (store == null) {
                RedisUrl u = url.get().orElseThrow(() -> new IllegalStateException(RedisUrl.VARIABLE + " is not set"));
                store = new RedisStore(u.secretText(), u.toString());
            }
            return store;
        }
    }

    /**
     * {@code /readyz}'s {@code topics} check of every app while this is the backend in use (also for
     * {@code app.readiness("redis", topics.readiness().orElseThrow())} with a backend from
     * {@link #connect}): it fails while Redis does not answer a PING on the topics' command connection
     * (a publish would fail with 503 then).
     *
     * @return the check
     */
    @Override
    public Optional<ReadinessCheck> readiness() {
        return Optional.of(this::ping);
    }

    private Health ping() {
        try {
            String pong = store().ping();
            return "PONG".equals(pong) ? Health.ok("Redis at " + url.get().map(RedisUrl::toString).orElse("?") + " answers")
                    : Health.unhealthy("Redis answered " + pong);
        } catch (RuntimeException e) {
            return Health.unhealthy("Redis at " + url.get().map(RedisUrl::toString).orElse("?") + " does not answer: " + e.getMessage());
        }
    }

    /** Closes every topic of this backend and its connections. */
    @Override
    public void close() {
        RedisStore s;
        synchronized (this) {
            s = store;
            store = null;
        }
        if (s != null) s.close();
    }

    @Override
    public String toString() {
        return "Redis topics at " + url.get().map(RedisUrl::toString).orElse("(no URL)");
    }
}
