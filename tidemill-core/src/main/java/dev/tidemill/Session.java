package dev.tidemill;

import java.util.Optional;

/**
 * The caller's server-side session, on an app with {@link Sessions}: what {@link Request#session()}
 * returns. It lives in the {@link SessionStore}; the browser holds only a cookie with its id,
 * signed with the session keys. A new session is stored (and its cookie set) only once something
 * is put in it or a caller logs in. Changes are saved before the response is sent.
 */
public interface Session {
    /** Values kept per session, at most this many UTF-8 bytes of names and values together. */
    int MAX_VALUE_BYTES = 4096;

    /** @return who is signed in on this session, {@link Principal.Via#SESSION}; empty before {@link #login} */
    Optional<Principal> principal();

    /** @param name a value's name @return its value; names starting with {@code tidemill.} are the server's and never returned */
    Optional<String> get(String name);

    /**
     * @param name a value's name
     * @param value its value
     * @throws IllegalArgumentException past {@link #MAX_VALUE_BYTES}, or for a name starting with {@code tidemill.}
     */
    void put(String name, String value);

    /** @param name a value's name, removed */
    void remove(String name);

    /**
     * @return the OpenID Connect provider's access token, after a sign-in through {@link OidcLogin}: to
     *     call APIs for the signed-in user. Refreshed when expired on requests to routes with a
     *     requirement (when the provider issued a refresh token). Kept in the store, never in the
     *     cookie, and not counted in {@link #MAX_VALUE_BYTES}
     */
    Optional<String> accessToken();

    /**
     * The form field that carries {@link #csrfToken()} in a URL-encoded form: {@value}.
     * {@link dev.tidemill.html.Tags#csrfField(Request)} writes it.
     */
    String CSRF_FIELD = "_csrf";

    /**
     * @return the session's synchronizer token: a request to change something that carries neither
     *     {@code Sec-Fetch-Site} nor {@code Origin} passes the CSRF check only with it, in the
     *     {@code X-CSRF-Token} header or, in a URL-encoded form, the {@value #CSRF_FIELD} field
     *     (docs/auth.md)
     */
    String csrfToken();

    /**
     * Signs {@code who} in: the session gets a new id (the old one is deleted), so an id fixed
     * before login is worth nothing after it (session fixation), and a new CSRF token.
     *
     * @param subject who signed in
     * @param scopes what they are granted
     * @param roles what they hold
     */
    void login(String subject, java.util.Set<String> scopes, java.util.Set<String> roles);

    /** Ends the session: deleted from the store, its cookie cleared. */
    void logout();
}
