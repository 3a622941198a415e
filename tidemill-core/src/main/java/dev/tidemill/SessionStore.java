package dev.tidemill;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletionStage;

/**
 * Where sessions live. Asynchronous, so a store over the network answers without holding a
 * thread: a request whose session is being loaded waits, as one whose token keys are being
 * fetched does. The default, {@link #inMemory(int)}, is bounded and expiring, and lives in one
 * process; a store shared by several processes makes their sessions one.
 */
public interface SessionStore {

    /**
     * A session as stored.
     *
     * @param subject who is signed in, empty before login
     * @param scopes their scopes
     * @param roles their roles
     * @param values the application's values
     * @param csrfToken the synchronizer token
     * @param created when the session began (its absolute timeout counts from here)
     * @param lastSeen when it was last used (its idle timeout counts from here)
     */
    record Data(Optional<String> subject, Set<String> scopes, Set<String> roles, Map<String, String> values, String csrfToken,
            Instant created, Instant lastSeen) {
        /** Copies the collections. */
        public Data {
            Objects.requireNonNull(subject, "subject");
            scopes = Set.copyOf(scopes);
            roles = Set.copyOf(roles);
            values = Map.copyOf(values);
            Objects.requireNonNull(csrfToken, "csrfToken");
            Objects.requireNonNull(created, "created");
            Objects.requireNonNull(lastSeen, "lastSeen");
        }
    }

    /** @param id a session id @return the session, empty if there is none (or it expired) */
    CompletionStage<Optional<Data>> load(String id);

    /**
     * @param id a session id
     * @param data what it holds
     * @param ttl how long to keep it unless saved again
     * @return done once saved
     */
    CompletionStage<Void> save(String id, Data data, Duration ttl);

    /** @param id a session id @return done once deleted */
    CompletionStage<Void> delete(String id);

    /**
     * @param maxSessions the most sessions held; past it, the one used least recently is dropped
     * @return a store in this process's memory
     */
    static SessionStore inMemory(int maxSessions) {
        return new MemorySessionStore(maxSessions);
    }
}
