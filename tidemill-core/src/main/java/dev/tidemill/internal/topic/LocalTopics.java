package dev.tidemill.internal.topic;

import dev.tidemill.Topic;
import java.util.Optional;

/** The in-process {@link Topic.Backend}: every topic lives in this JVM ({@link LocalTopic}). */
public final class LocalTopics implements Topic.Backend {

    /** Called by {@link java.util.ServiceLoader}. */
    public LocalTopics() {
    }

    @Override
    public <T> Topic.Builder<T> builder(String name) {
        return LocalTopic.builder(name);
    }

    @Override
    public Optional<Topic<?>> find(String name) {
        return LocalTopic.find(name);
    }
}
