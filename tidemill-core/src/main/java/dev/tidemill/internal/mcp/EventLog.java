package dev.tidemill.internal.mcp;

import dev.tidemill.SessionStore;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The events of one streamed answer in a session (2025-11-25 basic/transports, "Resumability and
 * Redelivery"), kept in the session store beside the session, so a client whose stream broke
 * resumes on any node with a GET carrying {@code Last-Event-ID}. An event's id is
 * {@code <stream>-<n>}: the stream's random name and the event's number from 1 (0 is the priming
 * event, empty); the log ends with the answer. Appends are saved in order, one after the other.
 */
final class EventLog {
    static final String PREFIX = "mcp-events:";
    private static final String COUNT = "n";
    private static final String DONE = "done";
    private static final SecureRandom RANDOM = new SecureRandom();

    private final SessionStore store;
    private final Duration keep;
    private final String key;
    private final String stream;
    private final Map<String, String> values = new LinkedHashMap<>();
    private CompletableFuture<Void> saved = CompletableFuture.completedFuture(null);
    private int count;

    private EventLog(SessionStore store, Duration keep, String sessionId, String stream) {
        this.store = store;
        this.keep = keep;
        this.stream = stream;
        this.key = PREFIX + sessionId + ":" + stream;
    }

    /** @return a new log for a stream of the session {@code sessionId} */
    static EventLog open(SessionStore store, Duration keep, String sessionId) {
        byte[] raw = new byte[12];
        RANDOM.nextBytes(raw);
        return new EventLog(store, keep, sessionId, Base64.getUrlEncoder().withoutPadding().encodeToString(raw));
    }

    /** @return the id of the priming event, sent first with no data */
    String primingId() {
        return stream + "-0";
    }

    /**
     * Appends an event; the last one ({@code last}) ends the log.
     *
     * @return its id
     */
    synchronized String append(String json, boolean last) {
        count++;
        values.put("e" + count, json);
        values.put(COUNT, Integer.toString(count));
        if (last) values.put(DONE, "1");
        Map<String, String> snapshot = Map.copyOf(values);
        Instant now = Instant.now();
        SessionStore.Data data = new SessionStore.Data(Optional.empty(), Set.of(), Set.of(), snapshot, "", now, now);
        saved = saved.thenCompose(v -> store.save(key, data, keep)).exceptionally(e -> null).toCompletableFuture();
        return stream + "-" + count;
    }

    /**
     * A stream's events as stored.
     *
     * @param events the events after the asked one, in order, each with its id
     * @param done whether the log holds the answer (nothing more will come)
     * @param lastId the id of the last event returned, or the one asked after: where to go on from
     */
    record Read(List<Map.Entry<String, String>> events, boolean done, String lastId) {}

    /**
     * @param sessionId the session
     * @param lastEventId the client's {@code Last-Event-ID}
     * @return the events after it, empty if the id names no stream of this session
     */
    static CompletionStage<Optional<Read>> after(SessionStore store, String sessionId, String lastEventId) {
        int dash = lastEventId.lastIndexOf('-');
        if (dash <= 0 || lastEventId.length() > 64) return CompletableFuture.completedFuture(Optional.empty());
        String stream = lastEventId.substring(0, dash);
        int from;
        try {
            from = Integer.parseInt(lastEventId.substring(dash + 1));
        } catch (NumberFormatException e) {
            return CompletableFuture.completedFuture(Optional.empty());
        }
        return store.load(PREFIX + sessionId + ":" + stream).thenApply(found -> found.map(d -> {
            int n = Integer.parseInt(d.values().getOrDefault(COUNT, "0"));
            List<Map.Entry<String, String>> events = new java.util.ArrayList<>();
            for (int i = Math.max(from, 0) + 1; i <= n; i++) events.add(Map.entry(stream + "-" + i, d.values().get("e" + i)));
            return new Read(events, d.values().containsKey(DONE), stream + "-" + Math.max(n, from));
        }));
    }
}
