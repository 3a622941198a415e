package dev.tidemill;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@link SessionStore#inMemory}: a map with an expiry per entry, answered at once. Bounded: a save
 * that would pass {@code maxSessions} first drops the expired entries, then the one used least
 * recently. In the public package, package-private: the API names it without the two depending
 * on each other across packages.
 */
final class MemorySessionStore implements SessionStore {
    private record Entry(Data data, long expiresAtNanos) { }

    private final int maxSessions;
    private final Map<String, Entry> sessions = new ConcurrentHashMap<>();

    MemorySessionStore(int maxSessions) {
        if (maxSessions < 1) throw new IllegalArgumentException("maxSessions must be at least 1");
        this.maxSessions = maxSessions;
    }

    @Override
    public CompletionStage<Optional<Data>> load(String id) {
        Entry e = sessions.get(id);
        if (e == null) return CompletableFuture.completedFuture(Optional.empty());
        if (System.nanoTime() - e.expiresAtNanos >= 0) {
            sessions.remove(id, e);
            return CompletableFuture.completedFuture(Optional.empty());
        }
        return CompletableFuture.completedFuture(Optional.of(e.data));
    }

    @Override
    public CompletionStage<Void> save(String id, Data data, Duration ttl) {
        if (!sessions.containsKey(id) && sessions.size() >= maxSessions) makeRoom();
        sessions.put(id, new Entry(data, System.nanoTime() + ttl.toNanos()));
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public CompletionStage<Void> delete(String id) {
        sessions.remove(id);
        return CompletableFuture.completedFuture(null);
    }

    /** @return sessions held now */
    int size() {
        return sessions.size();
    }

    private void makeRoom() {
        long now = System.nanoTime();
        sessions.entrySet().removeIf(e -> now - e.getValue().expiresAtNanos >= 0);
        if (sessions.size() < maxSessions) return;
        sessions.entrySet().stream().min(java.util.Comparator.comparing(e -> e.getValue().data().lastSeen()))
                .ifPresent(oldest -> sessions.remove(oldest.getKey(), oldest.getValue()));
    }
}
