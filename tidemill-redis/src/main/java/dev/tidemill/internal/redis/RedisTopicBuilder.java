package dev.tidemill.internal.redis;

import dev.tidemill.Topic;
import dev.tidemill.Topic.Durability;
import dev.tidemill.internal.topic.TopicSettings;
import dev.tidemill.redis.RedisTopics;

/**
 * Settings of a new Redis topic; {@link #build} registers it and starts its reader. Its replay
 * settings are the stream's trimming: about {@code messages} entries (XADD MAXLEN ~), none older
 * than {@code maxAge}; unset, {@link RedisTopics#DEFAULT_MAX_LENGTH} and {@link RedisTopics#DEFAULT_MAX_AGE}.
 */
final class RedisTopicBuilder<T> extends TopicSettings<T> {
    private final RedisStore store;

    RedisTopicBuilder(RedisStore store, String name) {
        super(name);
        this.store = store;
    }

    @Override
    public Topic<T> build() {
        if (durability != Durability.AS_CONFIGURED) DurabilityCheck.require(store, name, durability);
        int maxLength = replayMessages == 0 ? RedisTopics.DEFAULT_MAX_LENGTH : replayMessages;
        RedisTopic<T> t = new RedisTopic<>(store, name, capacity, overflow, Payload.of(name, type), maxLength,
                replayAge == null ? RedisTopics.DEFAULT_MAX_AGE : replayAge);
        t.open();
        return t;
    }
}
