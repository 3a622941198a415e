package dev.tidemill;

import java.util.Objects;
import java.util.Optional;

/**
 * How callers prove who they are, for the routes with a {@link Requirement}. Off by default: no
 * mechanism is configured, and a route that requires a caller refuses every request with 401
 * (a TLS client certificate, verified by {@link Tls}'s trust, still identifies its caller as
 * {@link Principal.Via#MTLS}).
 *
 * @see BearerTokens
 */
public final class Auth {
    /** No mechanism configured. */
    public static final Auth NONE = new Auth(null);

    private final BearerTokens bearer;

    private Auth(BearerTokens bearer) {
        this.bearer = bearer;
    }

    /** @param tokens how bearer tokens are verified @return settings with them */
    public static Auth bearer(BearerTokens tokens) {
        return new Auth(Objects.requireNonNull(tokens, "tokens"));
    }

    /** @return how bearer tokens are verified, when they are accepted */
    public Optional<BearerTokens> bearerTokens() {
        return Optional.ofNullable(bearer);
    }

    @Override
    public String toString() {
        return bearer == null ? "Auth[none]" : "Auth[" + bearer + "]";
    }
}
