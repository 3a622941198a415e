package dev.tidemill.bench.common;

/**
 * What every target of the authentication suite ({@code ./tidemill bench auth}) serves. Both routes
 * answer {@code GET} with {@code 200}, {@code text/plain} and the bytes of
 * {@link Scenario#PLAINTEXT_BODY}: {@value #ANONYMOUS_PATH} to anyone, {@value #BEARER_PATH} only
 * with {@code Authorization: Bearer <JWT>} signed by a key of the run's key set, issued by
 * {@value #ISSUER} for {@value #AUDIENCE} and not expired (anything else: 401).
 *
 * <p>Tidemill's target reads its key set from the runner's JWKS URI ({@code TIDEMILL_AUTH_JWKS_URI}),
 * as a user would configure it. A peer's {@code AuthMain} takes {@code <port> <ioThreads> <jwksFile>}:
 * the same public keys as a JWK Set file (each key with its {@code kid} and {@code alg}), binding
 * 127.0.0.1.
 */
public final class AuthContract {
    /** The route anyone may call. */
    public static final String ANONYMOUS_PATH = "/auth/anonymous";
    /** The route that needs a bearer token. */
    public static final String BEARER_PATH = "/auth/bearer";
    /** The tokens' {@code iss}, which every target checks. */
    public static final String ISSUER = "https://issuer.bench.tidemill.dev";
    /** The tokens' {@code aud}, which every target checks. */
    public static final String AUDIENCE = "bench-api";

    private AuthContract() {}
}
