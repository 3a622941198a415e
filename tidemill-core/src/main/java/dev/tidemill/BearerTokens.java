package dev.tidemill;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * How bearer tokens (RFC 6750: {@code Authorization: Bearer <JWT>}) are verified, by the rules of
 * RFC 8725. Needs {@code com.nimbusds:nimbus-jose-jwt} (an optional dependency of the core: asked
 * for without it, the start fails naming it). Set on {@link Auth}; read from the environment by
 * {@link Config#fromEnvironment()} ({@code TIDEMILL_AUTH_*}).
 *
 * <p>A token passes when: it is at most {@link #maxTokenBytes()} long (checked before parsing); it
 * is a JWS (never {@code alg: none}) with an algorithm of {@link #algorithms()}, signed by a key of
 * the key set whose type fits the algorithm (an RSA or EC public key never verifies an HMAC token,
 * and HMAC is not on the list); its {@code crit} header names nothing (RFC 7515 4.1.11); its
 * {@code typ} is {@link #requiredType()} when one is set (RFC 9068: {@code at+jwt}); its {@code iss}
 * is {@link #issuer()} exactly, its {@code aud} contains {@link #audience()} (each when set), it has
 * an {@code exp} in the future and any {@code nbf} in the past, both within {@link #leeway()}. The
 * headers {@code jku}, {@code x5u}, {@code jwk} and {@code x5c} are never followed: keys come only from
 * {@link #jwksUri()}, the issuer's discovery document, or {@link #jwks()}.
 *
 * <p>Keys: fetched off the I/O threads at start and every {@link #keysRefresh()} (so a provider's
 * next key, published ahead, is known before its first token); a token whose {@code kid} is unknown
 * waits for one refetch (one in flight per process however many such requests arrive, and at most
 * one per {@link #refetchInterval()}), then passes or gets 401. Until a first fetch succeeds, a
 * token gets 503 with {@code Retry-After}, not 401; when the endpoint is down, the keys already
 * fetched keep serving.
 */
public final class BearerTokens {
    /** Default {@link #leeway()}: 60 s. */
    public static final Duration DEFAULT_LEEWAY = Duration.ofSeconds(60);
    /** Default {@link #maxTokenBytes()}: 8 KiB. */
    public static final int DEFAULT_MAX_TOKEN_BYTES = 8 * 1024;
    /** Default {@link #keysRefresh()}: 5 minutes. */
    public static final Duration DEFAULT_KEYS_REFRESH = Duration.ofMinutes(5);
    /** Default {@link #refetchInterval()}: 1 minute. */
    public static final Duration DEFAULT_REFETCH_INTERVAL = Duration.ofMinutes(1);
    /** Default {@link #algorithms()}: the RSA, RSA-PSS and ECDSA signatures of RFC 7518 3.1. */
    public static final Set<String> DEFAULT_ALGORITHMS =
            Set.of("RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512");
    /** Default {@link #rolesClaim()}: {@code roles}. */
    public static final String DEFAULT_ROLES_CLAIM = "roles";

    static final Range LEEWAY = Range.duration("leeway", Duration.ZERO, Duration.ofMinutes(10));
    static final Range MAX_TOKEN_BYTES = Range.bytes("maxTokenBytes", 256, 1 << 20);
    static final Range KEYS_REFRESH = Range.duration("keysRefresh", Duration.ofSeconds(1), Duration.ofDays(1));
    static final Range REFETCH_INTERVAL = Range.duration("refetchInterval", Duration.ZERO, Duration.ofHours(1));
    private static final Set<String> SUPPORTED = DEFAULT_ALGORITHMS;

    private final String issuer;
    private final String audience;
    private final URI jwksUri;
    private final String jwks;
    private final Set<String> algorithms;
    private final Duration leeway;
    private final int maxTokenBytes;
    private final String requiredType;
    private final String rolesClaim;
    private final Duration keysRefresh;
    private final Duration refetchInterval;

    private BearerTokens(Builder b) {
        issuer = b.issuer;
        audience = b.audience;
        jwksUri = b.jwksUri;
        jwks = b.jwks;
        if (issuer == null && jwksUri == null && jwks == null) {
            throw new IllegalArgumentException("bearer tokens need keys: an issuer (its discovery document), a jwksUri or a jwks");
        }
        if (jwksUri != null && !"https".equals(jwksUri.getScheme()) && !"http".equals(jwksUri.getScheme())) {
            throw new IllegalArgumentException("jwksUri must be http or https: " + jwksUri);
        }
        algorithms = Set.copyOf(b.algorithms);
        if (algorithms.isEmpty()) throw new IllegalArgumentException("algorithms must not be empty");
        for (String a : algorithms) {
            if (!SUPPORTED.contains(a)) throw new IllegalArgumentException("unsupported algorithm " + a + "; supported: " + SUPPORTED);
        }
        LEEWAY.check(b.leeway);
        leeway = b.leeway;
        MAX_TOKEN_BYTES.check(b.maxTokenBytes);
        maxTokenBytes = (int) b.maxTokenBytes;
        requiredType = b.requiredType;
        rolesClaim = Objects.requireNonNull(b.rolesClaim, "rolesClaim");
        if (rolesClaim.isBlank()) throw new IllegalArgumentException("rolesClaim must not be blank");
        KEYS_REFRESH.check(b.keysRefresh);
        keysRefresh = b.keysRefresh;
        REFETCH_INTERVAL.check(b.refetchInterval);
        refetchInterval = b.refetchInterval;
    }

    /** @return a builder */
    public static Builder builder() {
        return new Builder();
    }

    /** @return the issuer every token's {@code iss} must equal; without {@link #jwksUri()} its discovery document names the keys */
    public Optional<String> issuer() {
        return Optional.ofNullable(issuer);
    }

    /** @return the audience every token's {@code aud} must contain */
    public Optional<String> audience() {
        return Optional.ofNullable(audience);
    }

    /** @return where the key set is fetched (skips discovery) */
    public Optional<URI> jwksUri() {
        return Optional.ofNullable(jwksUri);
    }

    /** @return a fixed key set (JWK Set JSON, public keys), for tests and development; never refetched */
    public Optional<String> jwks() {
        return Optional.ofNullable(jwks);
    }

    /** @return the signature algorithms accepted; default {@link #DEFAULT_ALGORITHMS} */
    public Set<String> algorithms() {
        return algorithms;
    }

    /** @return the clock skew allowed on {@code exp} and {@code nbf}. 0-10 min; default 60 s */
    public Duration leeway() {
        return leeway;
    }

    /** @return the longest token accepted, in bytes, checked before it is parsed. 256 B-1 MiB; default 8 KiB */
    public int maxTokenBytes() {
        return maxTokenBytes;
    }

    /** @return the {@code typ} header every token must have (RFC 9068: {@code at+jwt}); none by default */
    public Optional<String> requiredType() {
        return Optional.ofNullable(requiredType);
    }

    /** @return the claim that holds the roles, a dotted path into nested objects ({@code realm_access.roles}); default {@code roles} */
    public String rolesClaim() {
        return rolesClaim;
    }

    /** @return how often the key set is fetched again, ahead of need. 1 s-1 day; default 5 min */
    public Duration keysRefresh() {
        return keysRefresh;
    }

    /** @return the least time between two fetches that unknown {@code kid}s cause. 0-1 h; default 1 min */
    public Duration refetchInterval() {
        return refetchInterval;
    }

    @Override
    public String toString() {
        return "BearerTokens[issuer=" + issuer + ", audience=" + audience + ", jwksUri=" + jwksUri
                + (jwks != null ? ", fixed keys" : "") + ", algorithms=" + List.copyOf(algorithms) + ", leeway=" + leeway + "]";
    }

    /** Builds {@link BearerTokens}. */
    public static final class Builder {
        private String issuer;
        private String audience;
        private URI jwksUri;
        private String jwks;
        private Set<String> algorithms = DEFAULT_ALGORITHMS;
        private Duration leeway = DEFAULT_LEEWAY;
        private long maxTokenBytes = DEFAULT_MAX_TOKEN_BYTES;
        private String requiredType;
        private String rolesClaim = DEFAULT_ROLES_CLAIM;
        private Duration keysRefresh = DEFAULT_KEYS_REFRESH;
        private Duration refetchInterval = DEFAULT_REFETCH_INTERVAL;

        private Builder() {}

        /** @param v see {@link BearerTokens#issuer()} @return this */
        public Builder issuer(String v) { issuer = Objects.requireNonNull(v); return this; }
        /** @param v see {@link BearerTokens#audience()} @return this */
        public Builder audience(String v) { audience = Objects.requireNonNull(v); return this; }
        /** @param v see {@link BearerTokens#jwksUri()} @return this */
        public Builder jwksUri(URI v) { jwksUri = Objects.requireNonNull(v); return this; }
        /** @param json see {@link BearerTokens#jwks()} @return this */
        public Builder jwks(String json) { jwks = Objects.requireNonNull(json); return this; }
        /** @param v see {@link BearerTokens#algorithms()} @return this */
        public Builder algorithms(String... v) { algorithms = Set.of(v); return this; }
        /** @param v see {@link BearerTokens#leeway()} @return this */
        public Builder leeway(Duration v) { leeway = Objects.requireNonNull(v); return this; }
        /** @param v see {@link BearerTokens#maxTokenBytes()} @return this */
        public Builder maxTokenBytes(long v) { maxTokenBytes = v; return this; }
        /** @param v see {@link BearerTokens#requiredType()} @return this */
        public Builder requiredType(String v) { requiredType = Objects.requireNonNull(v); return this; }
        /** @param v see {@link BearerTokens#rolesClaim()} @return this */
        public Builder rolesClaim(String v) { rolesClaim = v; return this; }
        /** @param v see {@link BearerTokens#keysRefresh()} @return this */
        public Builder keysRefresh(Duration v) { keysRefresh = Objects.requireNonNull(v); return this; }
        /** @param v see {@link BearerTokens#refetchInterval()} @return this */
        public Builder refetchInterval(Duration v) { refetchInterval = Objects.requireNonNull(v); return this; }

        /** @return the settings; throws {@link IllegalArgumentException} naming a bad one */
        public BearerTokens build() {
            return new BearerTokens(this);
        }
    }
}
