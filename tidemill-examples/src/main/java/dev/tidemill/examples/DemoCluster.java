package dev.tidemill.examples;

import dev.tidemill.Auth;
import dev.tidemill.RateLimit;
import dev.tidemill.Sessions;
import dev.tidemill.redis.RedisRateLimits;
import dev.tidemill.redis.RedisSessionStore;
import dev.tidemill.redis.RedisUrl;
import io.lettuce.core.RedisClient;
import io.lettuce.core.SetArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Optional;

/**
 * What the demo shares with the other nodes when {@code TIDEMILL_REDIS_URL} is set
 * ({@code ./tidemill cluster} sets it for two nodes): sessions in Redis, {@code /limited}'s budget
 * in Redis, and a connection of the demo's own for its job records ({@link DemoJobs}). The rooms, the
 * board and the jobs' queue are topics, which {@code Topic.builder} puts on Redis by itself then.
 * Without the variable nothing here exists and the demo keeps everything in process.
 */
final class DemoCluster implements AutoCloseable {
    /** Where the nodes agree on a development session key when {@code TIDEMILL_SESSION_KEYS} is not set. */
    static final String SESSION_KEY = "tidemill:demo:session-key";

    private static Optional<DemoCluster> current;

    private final RedisUrl url;
    private final RedisSessionStore sessions;
    private final RedisRateLimits limits;
    private final RedisClient client;
    private final StatefulRedisConnection<String, String> connection;

    private DemoCluster(RedisUrl url, String secretUrl) {
        this.url = url;
        this.sessions = RedisSessionStore.connect(url);
        this.limits = RedisRateLimits.connect(url);
        this.client = RedisClient.create(secretUrl);
        this.connection = client.connect();
    }

    /**
     * @return the cluster wiring of this process, made at the first call when {@code TIDEMILL_REDIS_URL} is set
     * @throws IllegalStateException when it is set and Redis cannot be reached
     */
    static synchronized Optional<DemoCluster> get() {
        if (current == null) {
            Optional<RedisUrl> url = RedisUrl.fromEnvironment();
            current = url.map(u -> new DemoCluster(u, System.getenv(RedisUrl.VARIABLE).strip()));
        }
        return current;
    }

    /** @return the demo's own connection (job records), shared: commands on it do not block */
    StatefulRedisConnection<String, String> connection() {
        return connection;
    }

    /** @return {@code limit} with its budget kept in Redis, shared by every node */
    RateLimit shared(RateLimit limit) {
        return RateLimit.builder(limit.name()).requests(limit.requests()).per(limit.period()).burst(limit.burst())
                .maxKeys(limit.maxKeys()).store(limits).build();
    }

    /**
     * @param auth the demo's auth
     * @return it with sessions kept in Redis; when no {@code TIDEMILL_SESSION_KEYS} names the signing
     *     key, the nodes agree on a development key kept in Redis ({@value #SESSION_KEY}), so a
     *     session cookie made on one node is good on every node
     */
    Auth share(Auth auth) {
        Sessions s = auth.sessions().orElse(null);
        if (s == null) return auth;
        Sessions.Builder b = s.toBuilder().store(sessions);
        if (s.keys().isEmpty()) b.key(Base64.getUrlDecoder().decode(sharedDevelopmentKey()));
        return auth.withSessions(b.build());
    }

    /** SET NX of 32 random bytes, then GET: the first node to start chooses, the others read it. */
    private String sharedDevelopmentKey() {
        byte[] mine = new byte[32];
        new SecureRandom().nextBytes(mine);
        connection.sync().set(SESSION_KEY, Base64.getUrlEncoder().withoutPadding().encodeToString(mine), SetArgs.Builder.nx());
        return connection.sync().get(SESSION_KEY);
    }

    /** @return where Redis is, as it may be printed */
    RedisUrl url() {
        return url;
    }

    @Override
    public void close() {
        connection.close();
        client.shutdown();
        sessions.close();
        limits.close();
    }
}
