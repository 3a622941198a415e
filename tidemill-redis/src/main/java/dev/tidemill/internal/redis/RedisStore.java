package dev.tidemill.internal.redis;

import dev.tidemill.Topic;
import dev.tidemill.redis.RedisTopics;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.protocol.CommandType;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.lettuce.core.resource.Delay;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The connections of one {@link RedisTopics}: a Lettuce client with its own small thread pools, one
 * shared connection for commands that do not block (XADD, XRANGE, XINFO), and per topic a reader
 * connection of its own ({@link RedisTopic}), because a blocking XREAD on a shared connection would
 * stall every other command queued behind it.
 *
 * <p>Lettuce gets its own event loop (one thread) rather than Tidemill's: topics are process-wide
 * and outlive any one server's loops, which are made at start and shut down at stop.
 *
 * <p>Commands are not replayed after a reconnect when they are XADDs: Lettuce re-sends commands that
 * were written but not answered when the connection dropped, and an XADD Redis had already stored
 * would be stored twice. Such a publish fails instead; its caller decides whether to publish again.
 * While disconnected, commands fail at once (no queue that grows during an outage).
 */
public final class RedisStore implements AutoCloseable {
    private final String display;
    private final ClientResources resources;
    private final RedisClient client;
    private final StatefulRedisConnection<String, String> commands;
    private final Map<String, RedisTopic<?>> topics = new ConcurrentHashMap<>();

    /**
     * Connects.
     *
     * @param url the URL, credentials included (never printed)
     * @param display the URL as it may be printed
     * @throws IllegalStateException naming {@code display} when Redis cannot be reached
     */
    public RedisStore(String url, String display) {
        this.display = display;
        // Reconnect attempts back off from 100 ms to 5 s (Lettuce's default goes to 30 s: too long a gap after a restart).
        this.resources = DefaultClientResources.builder().ioThreadPoolSize(1).computationThreadPoolSize(1)
                .reconnectDelay(Delay.exponential(Duration.ofMillis(100), Duration.ofSeconds(5), 2, TimeUnit.MILLISECONDS)).build();
        this.client = RedisClient.create(resources, RedisURI.create(url));
        client.setOptions(ClientOptions.builder()
                .autoReconnect(true)
                .replayFilter(command -> command.getType() == CommandType.XADD)
                .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                .timeoutOptions(TimeoutOptions.enabled(RedisTopics.COMMAND_TIMEOUT))
                .build());
        try {
            this.commands = client.connect();
        } catch (RuntimeException e) {
            client.shutdown();
            resources.shutdown();
            throw new IllegalStateException("cannot reach Redis at " + display + ": " + e.getMessage(), e);
        }
    }

    /** @return Redis's answer to PING on the command connection @throws io.lettuce.core.RedisException when it does not answer */
    public String ping() {
        return commands.sync().ping();
    }

    /** @return a builder of a topic on this store */
    public <T> Topic.Builder<T> builder(String name) {
        if (name == null || name.isBlank()) throw new IllegalArgumentException("a topic needs a name");
        return new RedisTopicBuilder<>(this, name);
    }

    /** @return the open topic of that name, if there is one */
    public Optional<Topic<?>> find(String name) {
        return Optional.ofNullable(topics.get(name));
    }

    /** Registers a new topic: its name is unique among this store's open topics. */
    void register(RedisTopic<?> topic) {
        RedisTopic<?> existing = topics.putIfAbsent(topic.name(), topic);
        if (existing != null) throw new IllegalStateException("a topic named " + topic.name() + " is already open: " + existing);
    }

    void unregister(RedisTopic<?> topic) {
        topics.remove(topic.name(), topic);
    }

    StatefulRedisConnection<String, String> commands() {
        return commands;
    }

    /** @return a new connection of its own, for one topic's blocking reads */
    StatefulRedisConnection<String, String> readerConnection() {
        return client.connect();
    }

    /**
     * @return this node's name as a consumer of groups: {@code TIDEMILL_NODE_ID}, else the host name,
     *     so a node started again on the same host finds its own unfinished messages
     */
    String nodeId() {
        String id = System.getenv("TIDEMILL_NODE_ID");
        if (id != null && !id.isBlank()) return id.strip();
        try {
            return java.net.InetAddress.getLocalHost().getHostName();
        } catch (java.net.UnknownHostException e) {
            return "node";
        }
    }

    public String display() {
        return display;
    }

    @Override
    public void close() {
        for (RedisTopic<?> t : topics.values()) t.close();
        commands.close();
        client.shutdown();
        resources.shutdown();
    }
}
