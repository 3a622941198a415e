package dev.tidemill.internal.auth;

/** Verifies a bearer token: implemented over nimbus-jose-jwt, which only that class links against. */
interface TokenVerifier extends AutoCloseable {
    /**
     * On the I/O thread: answers at once when the keys it needs are known, else {@link Outcome.Pending}.
     *
     * @param token the token, as sent
     * @return {@link Outcome.Admitted} with its principal, a 401 or 503 {@link Outcome.Refused}, or pending
     */
    Outcome verify(String token);

    /** Starts fetching keys (off the I/O threads). */
    void start();

    /** @return key-set fetches made so far */
    long fetches();

    @Override
    void close();
}
