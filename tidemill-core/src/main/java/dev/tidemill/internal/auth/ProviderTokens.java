package dev.tidemill.internal.auth;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;

/**
 * What an OpenID Connect provider's token endpoint gave a signed-in session, kept among the
 * session's values under reserved names (the store holds them; the cookie never does).
 *
 * @param access the access token
 * @param refresh the refresh token, or null when none was issued
 * @param idToken the ID token, or null (kept for RP-initiated logout's {@code id_token_hint})
 * @param refreshAt when the access token is due for a refresh (a little before it expires), or null
 *     when the provider did not say when it expires
 */
record ProviderTokens(String access, String refresh, String idToken, Instant refreshAt) {
    static final String PREFIX = SessionState.RESERVED + "oidc.";
    static final String ACCESS = PREFIX + "access", REFRESH = PREFIX + "refresh", ID = PREFIX + "id", EXPIRES = PREFIX + "expires";
    /**
     * The most bytes of tokens a session keeps: 16 KiB, four times the application's own values
     * ({@link dev.tidemill.Session#MAX_VALUE_BYTES}). Providers that put many claims in their tokens
     * send a few KiB each; past this a sign-in fails with a problem saying so, rather than growing
     * every session without bound.
     */
    static final int MAX_BYTES = 16 * 1024;
    /** An access token is refreshed this many seconds before it expires (less for short-lived tokens). */
    static final long EARLY_SECONDS = 10;

    /** @return the tokens held in {@code values}, or null when there are none */
    static ProviderTokens from(Map<String, String> values) {
        String access = values.get(ACCESS);
        if (access == null) return null;
        String exp = values.get(EXPIRES);
        return new ProviderTokens(access, values.get(REFRESH), values.get(ID), exp == null ? null : Instant.ofEpochSecond(Long.parseLong(exp)));
    }

    void into(Map<String, String> values) {
        values.put(ACCESS, access);
        if (refresh != null) values.put(REFRESH, refresh);
        if (idToken != null) values.put(ID, idToken);
        if (refreshAt != null) values.put(EXPIRES, Long.toString(refreshAt.getEpochSecond()));
    }

    /** @return whether the access token is due for a refresh */
    boolean due() {
        return refreshAt != null && !Instant.now().isBefore(refreshAt);
    }

    /** @return the bytes these tokens take */
    int bytes() {
        int n = access.getBytes(StandardCharsets.UTF_8).length;
        if (refresh != null) n += refresh.getBytes(StandardCharsets.UTF_8).length;
        if (idToken != null) n += idToken.getBytes(StandardCharsets.UTF_8).length;
        return n;
    }

    /** Never shows a token. */
    @Override
    public String toString() {
        return "ProviderTokens[" + bytes() + " bytes, refresh " + (refresh != null) + ", refresh at " + refreshAt + "]";
    }
}
