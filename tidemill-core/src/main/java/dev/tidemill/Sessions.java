package dev.tidemill;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Server-side sessions: a browser signs in once and its cookie identifies it afterwards
 * ({@link Principal.Via#SESSION}). The cookie carries only the session's id, signed (HMAC-SHA256)
 * with the first of {@link #keys()}; every key verifies, so keys rotate by adding a new one first,
 * and every node with the same keys accepts the others' cookies. Without keys a random one is made
 * per process (cookies do not survive a restart), and the start report says it is for development.
 *
 * <p>The cookie is {@code __Host-}{@link #cookieName()} with {@code Secure; Path=/; HttpOnly;
 * SameSite=Lax} over TLS and on a loopback host; elsewhere over plain HTTP it goes without the
 * prefix and {@code Secure}, and the start report says so. It stays under 200 bytes whatever the
 * session holds: the data is in the {@link #store()}.
 *
 * <p>A session ends {@link #idleTimeout()} after its last use or {@link #absoluteTimeout()} after it
 * began, whichever comes first. Requests that change something and come with the session cookie
 * pass the CSRF check first (docs/auth.md): Fetch Metadata, else {@code Origin}, else the
 * session's synchronizer token.
 */
public final class Sessions {
    /** Default {@link #cookieName()}. */
    public static final String DEFAULT_COOKIE_NAME = "tidemill_session";
    /** Default {@link #idleTimeout()}: 30 minutes. */
    public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofMinutes(30);
    /** Default {@link #absoluteTimeout()}: 12 hours. */
    public static final Duration DEFAULT_ABSOLUTE_TIMEOUT = Duration.ofHours(12);
    /** Default size of the in-memory store: 100,000 sessions. */
    public static final int DEFAULT_MAX_SESSIONS = 100_000;
    /** Default {@link #loginPath()}. */
    public static final String DEFAULT_LOGIN_PATH = "/login";
    /** The fewest bytes a session key may have: SHA-256's block-size rule of thumb (RFC 2104 3), 32. */
    public static final int MIN_KEY_BYTES = 32;

    static final Range IDLE_TIMEOUT = Range.duration("idleTimeout", Duration.ofSeconds(1), Duration.ofDays(30));
    static final Range ABSOLUTE_TIMEOUT = Range.duration("absoluteTimeout", Duration.ofSeconds(1), Duration.ofDays(365));

    private final String cookieName;
    private final Duration idleTimeout;
    private final Duration absoluteTimeout;
    private final List<byte[]> keys;
    private final Set<String> trustedOrigins;
    private final SessionStore store;
    private final String loginPath;

    private Sessions(Builder b) {
        cookieName = b.cookieName;
        if (cookieName.isEmpty() || !cookieName.chars().allMatch(c -> Character.isLetterOrDigit(c) || c == '_' || c == '-')) {
            throw new IllegalArgumentException("cookieName: letters, digits, '_' and '-' only");
        }
        IDLE_TIMEOUT.check(b.idleTimeout);
        idleTimeout = b.idleTimeout;
        ABSOLUTE_TIMEOUT.check(b.absoluteTimeout);
        absoluteTimeout = b.absoluteTimeout;
        keys = List.copyOf(b.keys);
        trustedOrigins = Set.copyOf(b.trustedOrigins);
        for (String o : trustedOrigins) {
            if (!o.matches("https?://[^/\\s]+")) throw new IllegalArgumentException("trusted origin must be scheme://host[:port]: " + o);
        }
        store = b.store != null ? b.store : SessionStore.inMemory(DEFAULT_MAX_SESSIONS);
        loginPath = b.loginPath;
        if (!loginPath.startsWith("/")) throw new IllegalArgumentException("loginPath must start with '/'");
    }

    /** @return a builder */
    public static Builder builder() {
        return new Builder();
    }

    /** @return the cookie's name, {@code __Host-} put before it where the prefix applies; default {@value #DEFAULT_COOKIE_NAME} */
    public String cookieName() {
        return cookieName;
    }

    /** @return how long an unused session lasts. 1 s-30 days; default 30 min */
    public Duration idleTimeout() {
        return idleTimeout;
    }

    /** @return how long a session lasts however much it is used. 1 s-365 days; default 12 h */
    public Duration absoluteTimeout() {
        return absoluteTimeout;
    }

    /** @return the signing keys, the first signs; empty for one random key per process (development) */
    public List<byte[]> keys() {
        return keys.stream().map(byte[]::clone).toList();
    }

    /** @return origins ({@code https://app.example.com}) whose requests pass the CSRF check before anything else */
    public Set<String> trustedOrigins() {
        return trustedOrigins;
    }

    /** @return where sessions live; default {@link SessionStore#inMemory} with {@value #DEFAULT_MAX_SESSIONS} */
    public SessionStore store() {
        return store;
    }

    /** @return where a browser that asks for an HTML page it may not see is sent (303, {@code ?next=} the page); default {@value #DEFAULT_LOGIN_PATH} */
    public String loginPath() {
        return loginPath;
    }

    /** @return a builder holding these settings, to change some of them (the store, on a cluster) */
    public Builder toBuilder() {
        Builder b = new Builder().cookieName(cookieName).idleTimeout(idleTimeout).absoluteTimeout(absoluteTimeout)
                .loginPath(loginPath).store(store);
        keys.forEach(b::key);
        b.trustedOrigins = trustedOrigins;
        return b;
    }

    /**
     * @param commaSeparated base64url keys, each at least {@value #MIN_KEY_BYTES} bytes ({@code TIDEMILL_SESSION_KEYS})
     * @return them decoded
     */
    static List<byte[]> parseKeys(String commaSeparated) {
        List<byte[]> out = new ArrayList<>();
        for (String k : commaSeparated.split(",")) {
            String t = k.strip();
            if (t.isEmpty()) continue;
            byte[] key;
            try {
                key = Base64.getUrlDecoder().decode(t);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("session keys are base64url");
            }
            out.add(key);
        }
        return out;
    }

    /** Builds {@link Sessions}. */
    public static final class Builder {
        private String cookieName = DEFAULT_COOKIE_NAME;
        private Duration idleTimeout = DEFAULT_IDLE_TIMEOUT;
        private Duration absoluteTimeout = DEFAULT_ABSOLUTE_TIMEOUT;
        private final List<byte[]> keys = new ArrayList<>();
        private Set<String> trustedOrigins = Set.of();
        private SessionStore store;
        private String loginPath = DEFAULT_LOGIN_PATH;

        private Builder() {}

        /** @param v see {@link Sessions#cookieName()} @return this */
        public Builder cookieName(String v) { cookieName = Objects.requireNonNull(v); return this; }
        /** @param v see {@link Sessions#idleTimeout()} @return this */
        public Builder idleTimeout(Duration v) { idleTimeout = Objects.requireNonNull(v); return this; }
        /** @param v see {@link Sessions#absoluteTimeout()} @return this */
        public Builder absoluteTimeout(Duration v) { absoluteTimeout = Objects.requireNonNull(v); return this; }
        /** @param v a signing key of at least {@value Sessions#MIN_KEY_BYTES} bytes; the first added signs @return this */
        public Builder key(byte[] v) {
            if (v.length < MIN_KEY_BYTES) throw new IllegalArgumentException("a session key needs at least " + MIN_KEY_BYTES + " bytes");
            keys.add(v.clone());
            return this;
        }
        /** @param v see {@link Sessions#trustedOrigins()} @return this */
        public Builder trustedOrigins(String... v) { trustedOrigins = Set.of(v); return this; }
        /** @param v see {@link Sessions#store()} @return this */
        public Builder store(SessionStore v) { store = Objects.requireNonNull(v); return this; }
        /** @param v see {@link Sessions#loginPath()} @return this */
        public Builder loginPath(String v) { loginPath = Objects.requireNonNull(v); return this; }

        /** @return the settings; throws {@link IllegalArgumentException} naming a bad one */
        public Sessions build() {
            return new Sessions(this);
        }
    }
}
