package dev.tidemill.internal.topic;

import dev.tidemill.Topic;
import dev.tidemill.Topic.Durability;
import dev.tidemill.Topic.Overflow;
import java.time.Duration;
import java.util.Objects;

/**
 * What every backend's {@link Topic.Builder} takes, checked the same way in process and on Redis;
 * a backend adds how it builds (and, in process, which durability it refuses).
 *
 * @param <T> the message type
 */
public abstract class TopicSettings<T> implements Topic.Builder<T> {
    /** The topic's name. */
    protected final String name;
    /** Messages per subscription; default {@link Topic#DEFAULT_CAPACITY}. */
    protected int capacity = Topic.DEFAULT_CAPACITY;
    /** What a full subscription does; default {@link Overflow#DROP_OLDEST}. */
    protected Overflow overflow = Overflow.DROP_OLDEST;
    /** Messages kept for replay; 0 until {@link #replay} sets it (the backend's default then). */
    protected int replayMessages;
    /** How long a kept message stays; null until {@link #replay} sets it. */
    protected Duration replayAge;
    /** The payload type; null until {@link #type} sets it. */
    protected Class<T> type;
    /** What the topic must keep through a crash; default {@link Durability#AS_CONFIGURED}. */
    protected Durability durability = Durability.AS_CONFIGURED;

    /** @param name the topic's name, not blank */
    protected TopicSettings(String name) {
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

    @Override
    public Topic.Builder<T> replay(int messages, Duration maxAge) {
        this.replayMessages = LocalTopic.checkSize("replay size", messages);
        this.replayAge = LocalTopic.checkAge(maxAge);
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
}
