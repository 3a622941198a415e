package dev.tidemill;

import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Who made a request, and how they proved it: what {@link Request#principal()} returns on a route
 * with a {@link Requirement} once the request has passed it.
 *
 * @param subject who: a token's {@code sub}, a key's name, a session's user, a certificate's
 *     subject name; never blank
 * @param scopes the scopes granted (a token's {@code scope} or {@code scp}, a key's scopes); empty
 *     for none
 * @param roles the roles held (a token's roles claim, see {@link BearerTokens#rolesClaim()}); empty
 *     for none
 * @param via how the caller proved it
 * @param claims a token's verified claims as JSON values (strings, numbers, booleans, lists and
 *     maps); empty for other credentials
 */
public record Principal(String subject, Set<String> scopes, Set<String> roles, Via via, Map<String, Object> claims) {

    /** How a caller proved who it is. {@link #toString()} is the name docs and JSON use: {@code bearer}, {@code api_key}. */
    public enum Via {
        /** A bearer token (RFC 6750) whose signature and claims were verified. */
        BEARER,
        /** An API key, compared with its stored digest. */
        API_KEY,
        /** A server-side session, from its signed cookie. */
        SESSION,
        /** HTTP Basic (RFC 7617), verified against a stored hash. */
        BASIC,
        /** A TLS client certificate that the server's trust verified. */
        MTLS;

        @Override
        public String toString() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** Copies the collections; checks that the subject is not blank. */
    public Principal {
        Objects.requireNonNull(subject, "subject");
        if (subject.isBlank()) throw new IllegalArgumentException("subject must not be blank");
        scopes = Set.copyOf(scopes);
        roles = Set.copyOf(roles);
        Objects.requireNonNull(via, "via");
        claims = Map.copyOf(claims);
    }

    /** @return whether the scope was granted */
    public boolean hasScope(String scope) {
        return scopes.contains(scope);
    }

    /** @return whether the role is held */
    public boolean hasRole(String role) {
        return roles.contains(role);
    }
}
