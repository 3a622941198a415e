package dev.tidemill.internal.topic;

import dev.tidemill.Topic;
import java.util.ArrayList;
import java.util.List;

/**
 * The last messages of a topic, for clients that resume ({@code Last-Event-ID}): at most
 * {@code capacity} of them, none older than {@code maxAgeNanos}. A ring of messages in id order;
 * accessed under the topic's publish lock only.
 */
final class ReplayBuffer<T> {
    private final Topic.Message<?>[] ring;
    private final long maxAgeNanos;
    private int head; // index of the oldest
    private int size;

    ReplayBuffer(int capacity, long maxAgeNanos) {
        this.ring = new Topic.Message<?>[capacity];
        this.maxAgeNanos = maxAgeNanos;
    }

    void add(Topic.Message<T> m) {
        if (size == ring.length) {
            ring[head] = null;
            head = (head + 1) % ring.length;
            size--;
        }
        ring[(head + size) % ring.length] = m;
        size++;
    }

    /**
     * @param afterId the last id the client saw
     * @param lastId the topic's last id
     * @param now {@link System#nanoTime()}
     */
    Topic.Replay<T> after(long afterId, long lastId, long now) {
        expire(now);
        if (afterId >= lastId || afterId < 0) return new Topic.Replay<>(List.of(), 0);
        if (size == 0) return new Topic.Replay<>(List.of(), lastId - afterId);
        long oldest = at(0).id().major();
        long lost = Math.max(0, oldest - afterId - 1);
        List<Topic.Message<T>> out = new ArrayList<>((int) Math.min(size, lastId - afterId));
        // Ids are consecutive in the ring: the first wanted is at offset afterId + 1 - oldest.
        for (int i = (int) Math.max(0, afterId + 1 - oldest); i < size; i++) out.add(at(i));
        return new Topic.Replay<>(List.copyOf(out), lost);
    }

    private void expire(long now) {
        while (size > 0 && now - at(0).publishedNanos() > maxAgeNanos) {
            ring[head] = null;
            head = (head + 1) % ring.length;
            size--;
        }
    }

    @SuppressWarnings("unchecked")
    private Topic.Message<T> at(int i) {
        return (Topic.Message<T>) ring[(head + i) % ring.length];
    }
}
