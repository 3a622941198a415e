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
 */
public final class Auth {
    /** No mechanism configured. */
    public static final Auth NONE = new Auth(null, null);

    private final BearerTokens bearer;
    private final ApiKeys apiKeys;

    private Auth(BearerTokens bearer, ApiKeys apiKeys) {
        this.bearer = bearer;
        this.apiKeys = apiKeys;
    }

    /** @param tokens how bearer tokens are verified @return settings with them alone */
    public static Auth bearer(BearerTokens tokens) {
        return new Auth(Objects.requireNonNull(tokens, "tokens"), null);
    }

    /** @param keys the API keys accepted @return settings with them alone */
    public static Auth apiKeys(ApiKeys keys) {
        return new Auth(null, Objects.requireNonNull(keys, "keys"));
    }

    /** @param tokens how bearer tokens are verified @return these settings with them */
    public Auth withBearer(BearerTokens tokens) {
        return new Auth(Objects.requireNonNull(tokens, "tokens"), apiKeys);
    }

    /** @param keys the API keys accepted @return these settings with them */
    public Auth withApiKeys(ApiKeys keys) {
        return new Auth(bearer, Objects.requireNonNull(keys, "keys"));
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
        return bearer == null && apiKeys == null ? "Auth[none]" : "Auth[" + (bearer != null ? bearer + " " : "")
                + (apiKeys != null ? apiKeys : "") + "]";
    }
}
