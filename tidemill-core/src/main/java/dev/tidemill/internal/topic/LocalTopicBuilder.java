package dev.tidemill.internal.topic;

import dev.tidemill.Topic;
import java.util.Objects;

/** Settings of a new in-process topic ({@link LocalTopic#builder}); {@link #build} registers it under its name. */
final class LocalTopicBuilder<T> extends TopicSettings<T> {
    LocalTopicBuilder(String name) {
        super(name);
    }

    /** In process only {@link Topic.Durability#AS_CONFIGURED}: the messages go with the process. */
    @Override
    public Topic.Builder<T> durability(Topic.Durability durability) {
        if (Objects.requireNonNull(durability, "durability") != Topic.Durability.AS_CONFIGURED) {
            throw new IllegalArgumentException("topic " + name + " is in process: its messages are lost with the process, so "
                    + durability + " durability cannot hold; store topics in Redis (the tidemill-redis module and TIDEMILL_REDIS_URL)");
        }
        return this;
    }

    @Override
    public Topic<T> build() {
        ReplayBuffer<T> buffer = replayMessages == 0 ? null : new ReplayBuffer<>(replayMessages, replayAge.toNanos());
        LocalTopic<T> t = new LocalTopic<>(name, capacity, overflow, buffer, false);
        LocalTopic.register(t);
        return t;
    }
}
