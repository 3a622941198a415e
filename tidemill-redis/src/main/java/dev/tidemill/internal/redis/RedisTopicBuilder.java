package dev.tidemill.internal.redis;

import dev.tidemill.Topic;
import dev.tidemill.Topic.Durability;
import dev.tidemill.Topic.Overflow;
import dev.tidemill.internal.topic.LocalTopic;
import dev.tidemill.redis.RedisTopics;
import java.time.Duration;
import java.util.Objects;

/** Settings of a new Redis topic; {@link #build} registers it and starts its reader. */
final class RedisTopicBuilder<T> implements Topic.Builder<T> {
    private final RedisStore store;
    private final String name;
    private int capacity = Topic.DEFAULT_CAPACITY;
    private Overflow overflow = Overflow.DROP_OLDEST;
    private int maxLength = RedisTopics.DEFAULT_MAX_LENGTH;
    private Duration maxAge = RedisTopics.DEFAULT_MAX_AGE;
    private Class<T> type;
    private Durability durability = Durability.AS_CONFIGURED;

    RedisTopicBuilder(RedisStore store, String name) {
        this.store = store;
        this.name = name;
    }

    @Override
    public Topic.Builder<T> capacity(int messages) {
        this.capacity = LocalTopic.checkSize("capacity", messages);
        return this;
    }

    @Override
    public Topic.Builder<T> overflow(Overflow policy) {
        this.overflow = Objects.requireNonNull(policy, "policy");
        return this;
    }

    /** In Redis: the stream keeps about {@code messages} entries (XADD MAXLEN ~), none older than {@code maxAge}. */
    @Override
    public Topic.Builder<T> replay(int messages, Duration maxAge) {
        this.maxLength = LocalTopic.checkSize("replay size", messages);
        this.maxAge = LocalTopic.checkAge(maxAge);
        return this;
    }

    @Override
    public Topic.Builder<T> type(Class<T> type) {
        this.type = Objects.requireNonNull(type, "type");
        return this;
    }

    @Override
    public Topic.Builder<T> durability(Durability durability) {
        this.durability = Objects.requireNonNull(durability, "durability");
        return this;
    }

    @Override
    public Topic<T> build() {
        if (durability != Durability.AS_CONFIGURED) DurabilityCheck.require(store, name, durability);
        RedisTopic<T> t = new RedisTopic<>(store, name, capacity, overflow, Payload.of(name, type), maxLength, maxAge);
        t.open();
        return t;
    }
}
