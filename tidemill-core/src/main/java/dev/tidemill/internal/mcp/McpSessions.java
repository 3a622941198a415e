package dev.tidemill.internal.mcp;

import dev.tidemill.Principal;
import dev.tidemill.SessionStore;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Session-era MCP sessions (2025-03-26 to 2025-11-25, transports, "Session Management"), kept in a
 * {@link SessionStore} under {@value #PREFIX} and the id, so any node sharing the store (Redis) answers
 * any request of a session. The id is 256 random bits, base64url: visible ASCII, as the
 * specification asks, and unguessable. A session is bound to the caller that opened it: another
 * caller presenting its id finds no session (404), as if it did not exist (2025-11-25
 * basic/security_best_practices, "Session Hijacking"). The store bounds their number and ends an idle one.
 */
final class McpSessions {
    static final String PREFIX = "mcp:";
    private static final String VERSION = "protocolVersion";
    private static final String LOG_LEVEL = "logLevel";
    private static final SecureRandom RANDOM = new SecureRandom();

    /**
     * An open session.
     *
     * @param id its id
     * @param version the protocol version negotiated at {@code initialize}
     * @param data as stored
     */
    record Session(String id, String version, SessionStore.Data data) {
        /** @return the log level the client set ({@code logging/setLevel}), null before it did */
        String logLevel() {
            return data.values().get(LOG_LEVEL);
        }
    }

    private final SessionStore store;
    private final Duration idle;

    McpSessions(SessionStore store, Duration idle) {
        this.store = store;
        this.idle = idle;
    }

    /** @return a new session for {@code caller}, stored */
    CompletionStage<Session> open(String version, Optional<Principal> caller) {
        byte[] raw = new byte[32];
        RANDOM.nextBytes(raw);
        String id = Base64.getUrlEncoder().withoutPadding().encodeToString(raw);
        Instant now = Instant.now();
        SessionStore.Data data = new SessionStore.Data(caller.map(Principal::subject), Set.of(), Set.of(), Map.of(VERSION, version), "",
                now, now);
        return store.save(PREFIX + id, data, idle).thenApply(v -> new Session(id, version, data));
    }

    /** @return the session, empty if unknown, ended, expired, or opened by another caller; its idle time starts again */
    CompletionStage<Optional<Session>> find(String id, Optional<Principal> caller) {
        if (id.isEmpty() || id.length() > 64) return CompletableFuture.completedFuture(Optional.empty());
        return store.load(PREFIX + id).thenCompose(found -> {
            if (found.isEmpty() || !found.get().subject().equals(caller.map(Principal::subject))) {
                return CompletableFuture.completedFuture(Optional.<Session>empty());
            }
            SessionStore.Data d = found.get();
            Session s = new Session(id, d.values().getOrDefault(VERSION, ""), d);
            Instant now = Instant.now();
            // Saved again (idle time from now) once a tenth of the idle time has passed, not on every request.
            if (Duration.between(d.lastSeen(), now).compareTo(idle.dividedBy(10)) < 0) {
                return CompletableFuture.completedFuture(Optional.of(s));
            }
            SessionStore.Data touched = new SessionStore.Data(d.subject(), d.scopes(), d.roles(), d.values(), d.csrfToken(), d.created(), now);
            return store.save(PREFIX + id, touched, idle).thenApply(v -> Optional.of(s));
        });
    }

    /** Keeps {@code level} as the session's log level. */
    CompletionStage<Void> logLevel(Session s, String level) {
        SessionStore.Data d = s.data();
        Map<String, String> values = new java.util.HashMap<>(d.values());
        values.put(LOG_LEVEL, level);
        return store.save(PREFIX + s.id(), new SessionStore.Data(d.subject(), d.scopes(), d.roles(), values, d.csrfToken(), d.created(),
                Instant.now()), idle);
    }

    /** @return a new event log for a streamed answer in session {@code id}, kept as long as the session */
    EventLog events(String id) {
        return EventLog.open(store, idle, id);
    }

    /** @return the events of session {@code id}'s stream after {@code lastEventId} */
    CompletionStage<Optional<EventLog.Read>> eventsAfter(String id, String lastEventId) {
        return EventLog.after(store, id, lastEventId);
    }

    CompletionStage<Void> end(String id) {
        return store.delete(PREFIX + id);
    }
}
