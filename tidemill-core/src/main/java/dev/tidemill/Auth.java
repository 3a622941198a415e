package dev.tidemill;

import java.util.Objects;
import java.util.Optional;

/**
 * How callers prove who they are, for the routes with a {@link Requirement}. Off by default: no
 * mechanism is configured, and a route that requires a caller refuses every request with 401
 * (a TLS client certificate, verified by {@link Tls}'s trust, still identifies its caller as
 * {@link Principal.Via#MTLS}). docs/auth.md says how each works.
 *
 * @see BearerTokens
 * @see ApiKeys
 * @see Sessions
 */
public final class Auth {
    /** No mechanism configured. */
    public static final Auth NONE = new Auth(null, null, null);

    private final BearerTokens bearer;
    private final ApiKeys apiKeys;
    private final Sessions sessions;

    private Auth(BearerTokens bearer, ApiKeys apiKeys, Sessions sessions) {
        this.bearer = bearer;
        this.apiKeys = apiKeys;
        this.sessions = sessions;
    }

    /** @param tokens how bearer tokens are verified @return settings with them alone */
    public static Auth bearer(BearerTokens tokens) {
        return new Auth(Objects.requireNonNull(tokens, "tokens"), null, null);
    }

    /** @param keys the API keys accepted @return settings with them alone */
    public static Auth apiKeys(ApiKeys keys) {
        return new Auth(null, Objects.requireNonNull(keys, "keys"), null);
    }

    /** @param tokens how bearer tokens are verified @return these settings with them */
    public Auth withBearer(BearerTokens tokens) {
        return new Auth(Objects.requireNonNull(tokens, "tokens"), apiKeys, sessions);
    }

    /** @param keys the API keys accepted @return these settings with them */
    public Auth withApiKeys(ApiKeys keys) {
        return new Auth(bearer, Objects.requireNonNull(keys, "keys"), sessions);
    }

    /** @param settings server-side sessions @return settings with them alone */
    public static Auth sessions(Sessions settings) {
        return new Auth(null, null, Objects.requireNonNull(settings, "settings"));
    }

    /** @param settings server-side sessions @return these settings with them */
    public Auth withSessions(Sessions settings) {
        return new Auth(bearer, apiKeys, Objects.requireNonNull(settings, "settings"));
    }

    /** @return the session settings, when the app has sessions */
    public Optional<Sessions> sessions() {
        return Optional.ofNullable(sessions);
    }

    /** @return how bearer tokens are verified, when they are accepted */
    public Optional<BearerTokens> bearerTokens() {
        return Optional.ofNullable(bearer);
    }

    /** @return the API keys, when they are accepted */
    public Optional<ApiKeys> apiKeys() {
        return Optional.ofNullable(apiKeys);
    }

    @Override
    public String toString() {
        return bearer == null && apiKeys == null && sessions == null ? "Auth[none]" : "Auth[" + (bearer != null ? bearer + " " : "")
                + (apiKeys != null ? apiKeys + " " : "") + (sessions != null ? "sessions" : "") + "]";
    }
}
