package dev.tidemill;

import dev.tidemill.internal.cors.OriginPattern;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;

/**
 * A CORS policy (the Fetch standard's CORS protocol): which other origins a browser may let read
 * responses, with which methods and request headers, with or without credentials. Set it on the
 * app, a group or a route with {@code cors(...)}; the nearest one wins, and {@link #none()} on a
 * route or group turns an inherited policy off. Preflights ({@code OPTIONS} with {@code Origin}
 * and {@code Access-Control-Request-Method}) are answered by the server before routing; every
 * response to an allowed origin, the server's own refusals included, carries the
 * {@code Access-Control-Allow-*} headers and {@code Vary: Origin}.
 *
 * <pre>{@code
 * app.group("/api").cors(Cors.builder()
 *         .allowOrigins("https://app.example.com", "https://*.example.com")
 *         .allowMethods("GET", "POST")
 *         .allowHeaders("Content-Type", "X-Token")
 *         .allowCredentials(true)
 *         .build());
 * }</pre>
 *
 * <p>Origins are written {@code scheme://host[:port]}: exact, or with one leading {@code *.}
 * label ({@code https://*.example.com} matches {@code https://a.example.com} and
 * {@code https://a.b.example.com}, never {@code https://example.com} nor another scheme or port).
 * Refused when built: a wildcard anywhere else, a wildcard over fewer than two labels
 * ({@code https://*.com}), a path, {@code null} (sandboxed frames and local files all send it, so
 * allowing it allows everyone), and credentials together with {@code *}.
 */
public final class Cors {
    /** Default {@link #maxAge()}: 5 seconds, Fetch's own default when a preflight names none. */
    public static final Duration DEFAULT_MAX_AGE = Duration.ofSeconds(5);
    /** Default {@link #allowedMethods()}: the CORS-safelisted methods. */
    public static final Set<String> DEFAULT_METHODS = Set.of("GET", "HEAD", "POST");
    /** Largest {@link #maxAge()}: one day (browsers cap it lower: Chromium at 2 hours). */
    public static final Duration MAX_MAX_AGE = Duration.ofDays(1);

    private static final Cors NONE = new Cors();

    private final boolean enabled;
    private final boolean anyOrigin;
    private final List<String> origins;
    private final List<OriginPattern> patterns;
    private final Set<String> methods;
    private final Set<String> headers;
    private final boolean anyHeader;
    private final Set<String> exposed;
    private final boolean credentials;
    private final Duration maxAge;

    private Cors() {
        enabled = false;
        anyOrigin = false;
        origins = List.of();
        patterns = List.of();
        methods = Set.of();
        headers = Set.of();
        anyHeader = false;
        exposed = Set.of();
        credentials = false;
        maxAge = DEFAULT_MAX_AGE;
    }

    private Cors(Builder b) {
        enabled = true;
        anyOrigin = b.anyOrigin;
        List<OriginPattern> ps = new ArrayList<>();
        for (String o : b.origins) ps.add(OriginPattern.parse(o));
        patterns = List.copyOf(ps);
        origins = List.copyOf(b.origins);
        methods = Set.copyOf(b.methods.isEmpty() ? DEFAULT_METHODS : b.methods);
        anyHeader = b.headers.contains("*");
        headers = Set.copyOf(b.headers);
        exposed = Set.copyOf(b.exposed);
        credentials = b.credentials;
        maxAge = b.maxAge;
        if (!anyOrigin && origins.isEmpty()) {
            throw new IllegalArgumentException("a CORS policy needs allowOrigins(...) or allowAnyOrigin()");
        }
        if (credentials && (anyOrigin || anyHeader || exposed.contains("*") || methods.contains("*"))) {
            // Fetch: with credentials "*" is not a wildcard, and reflecting any origin instead
            // would hand every site the user's session.
            throw new IllegalArgumentException("allowCredentials(true) cannot be combined with '*' "
                    + "(any origin, any header, any method or exposed header): list them");
        }
    }

    /** @return a new builder */
    public static Builder builder() {
        return new Builder();
    }

    /** @return the policy that allows nothing: set on a route or group, it turns an inherited policy off */
    public static Cors none() {
        return NONE;
    }

    /** @return whether this policy allows anything (false only for {@link #none()}) */
    public boolean enabled() {
        return enabled;
    }

    /** @return whether any origin may read responses ({@code Access-Control-Allow-Origin: *}) */
    public boolean anyOrigin() {
        return anyOrigin;
    }

    /** @return the allowed origins and origin patterns, as written (lower-cased) */
    public List<String> allowedOrigins() {
        return origins;
    }

    /** @return the allowed methods, upper-case; default {@link #DEFAULT_METHODS} */
    public Set<String> allowedMethods() {
        return methods;
    }

    /** @return the allowed request headers, lower-case ({@code *} for any, without credentials); default none */
    public Set<String> allowedHeaders() {
        return headers;
    }

    /** @return response headers scripts may read beyond the safelisted ones, lower-case; default none */
    public Set<String> exposedHeaders() {
        return exposed;
    }

    /** @return whether credentialed requests (cookies, HTTP auth) are allowed; default false */
    public boolean allowCredentials() {
        return credentials;
    }

    /** @return how long a browser may cache a preflight's answer; default {@link #DEFAULT_MAX_AGE} */
    public Duration maxAge() {
        return maxAge;
    }

    /**
     * Whether this policy lets {@code origin} (an {@code Origin} header's value) read responses.
     *
     * @param origin the request's {@code Origin}, as sent
     * @return whether it is allowed
     */
    public boolean allowsOrigin(String origin) {
        if (!enabled) return false;
        if (anyOrigin) return true;
        for (OriginPattern p : patterns) if (p.matches(origin)) return true;
        return false;
    }

    @Override
    public String toString() {
        return enabled ? "Cors[origins=" + (anyOrigin ? "*" : origins) + ", methods=" + methods + ", credentials="
                + credentials + "]" : "Cors.none";
    }

    /** Builder for {@link Cors}; {@link #build()} checks the combination. */
    public static final class Builder {
        private boolean anyOrigin;
        private final Set<String> origins = new LinkedHashSet<>();
        private final Set<String> methods = new LinkedHashSet<>();
        private final Set<String> headers = new LinkedHashSet<>();
        private final Set<String> exposed = new LinkedHashSet<>();
        private boolean credentials;
        private Duration maxAge = DEFAULT_MAX_AGE;

        private Builder() {}

        /**
         * @param values origins ({@code https://app.example.com}, {@code http://localhost:5173}) or
         *     patterns ({@code https://*.example.com}); checked here
         * @return this
         */
        public Builder allowOrigins(String... values) {
            for (String v : values) {
                String o = Objects.requireNonNull(v, "origin").toLowerCase(Locale.ROOT);
                if (o.equals("*")) {
                    anyOrigin = true;
                    continue;
                }
                OriginPattern.parse(o); // throws naming what is wrong
                origins.add(OriginPattern.normalise(o));
            }
            return this;
        }

        /** Allows every origin ({@code Access-Control-Allow-Origin: *}); never with credentials. @return this */
        public Builder allowAnyOrigin() {
            anyOrigin = true;
            return this;
        }

        /** @param values methods (tokens; compared case-sensitively, as Fetch does, after upper-casing) @return this */
        public Builder allowMethods(String... values) {
            for (String v : values) methods.add(token(v, "method").toUpperCase(Locale.ROOT));
            return this;
        }

        /** @param values request header names, case-insensitive; {@code *} for any (without credentials) @return this */
        public Builder allowHeaders(String... values) {
            for (String v : values) headers.add(v.equals("*") ? "*" : token(v, "header").toLowerCase(Locale.ROOT));
            return this;
        }

        /** @param values response header names scripts may read @return this */
        public Builder exposeHeaders(String... values) {
            for (String v : values) exposed.add(v.equals("*") ? "*" : token(v, "header").toLowerCase(Locale.ROOT));
            return this;
        }

        /** @param value whether credentialed requests are allowed; default false @return this */
        public Builder allowCredentials(boolean value) {
            credentials = value;
            return this;
        }

        /** @param value preflight cache time, 0 to 1 day, whole seconds; default 5 s @return this */
        public Builder maxAge(Duration value) {
            if (value.isNegative() || value.compareTo(MAX_MAX_AGE) > 0) {
                throw new IllegalArgumentException("maxAge must be between 0 and " + MAX_MAX_AGE);
            }
            maxAge = value;
            return this;
        }

        /** @return the policy; throws {@link IllegalArgumentException} for a dangerous combination */
        public Cors build() {
            return new Cors(this);
        }

        private static String token(String v, String what) {
            Objects.requireNonNull(v, what);
            if (v.isEmpty() || !v.chars().allMatch(c -> c > 0x20 && c < 0x7f && "\"(),/:;<=>?@[\\]{}".indexOf(c) < 0)) {
                throw new IllegalArgumentException(what + " must be a token: " + v);
            }
            return v;
        }
    }
}
