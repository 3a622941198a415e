package dev.tidemill;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Sign-in through an OpenID Connect provider (OpenID Connect Core 1.0, authorization code flow):
 * the server takes {@link Sessions#loginPath()} ({@code GET}, {@code ?next=} a local path),
 * {@link #callbackPath()} and {@link #logoutPath()} ({@code POST}) and does the rest:
 *
 * <ul>
 *   <li>PKCE with S256 on every attempt (RFC 7636), a {@code state} and a {@code nonce} per attempt,
 *       so several tabs sign in at once; an attempt is good once, for {@link #attemptTimeout()}, and
 *       only in the browser that began it (a cookie per attempt);
 *   <li>the {@code iss} response parameter checked when sent, and required when the provider says
 *       it sends it (RFC 9207); the redirect URI sent exactly as configured;
 *   <li>the ID token verified like a bearer token (signature by the provider's published keys,
 *       {@code iss}, {@code aud} = the client id, {@code exp}), then its {@code nonce};
 *   <li>the provider's tokens kept in the server-side session, never in a cookie: the cookie stays
 *       an id, whatever the provider issues; an expired access token is refreshed on the next
 *       request to a route with a requirement, and a refresh the provider refuses ends the session;
 *   <li>logout ends the session here, then at the provider when it offers RP-initiated logout.
 * </ul>
 *
 * <p>Needs {@code com.nimbusds:nimbus-jose-jwt} (the ID token) and sessions ({@link Auth#withLogin}
 * adds the defaults when the app has none). docs/auth.md shows the whole flow.
 */
public final class OidcLogin {
    /** Default {@link #scopes()}. */
    public static final List<String> DEFAULT_SCOPES = List.of("openid", "profile", "email");
    /** Default {@link #attemptTimeout()}: 10 minutes. */
    public static final Duration DEFAULT_ATTEMPT_TIMEOUT = Duration.ofMinutes(10);
    /** Default {@link #logoutPath()}. */
    public static final String DEFAULT_LOGOUT_PATH = "/logout";

    static final Range ATTEMPT_TIMEOUT = Range.duration("attemptTimeout", Duration.ofSeconds(10), Duration.ofHours(1));

    private final String issuer;
    private final String clientId;
    private final String clientSecret;
    private final URI redirectUri;
    private final List<String> scopes;
    private final Duration attemptTimeout;
    private final String logoutPath;
    private final URI postLogoutRedirectUri;

    private OidcLogin(Builder b) {
        if (b.issuer == null || !b.issuer.matches("https?://\\S+")) throw new IllegalArgumentException("issuer: an http or https URL");
        issuer = b.issuer;
        if (b.clientId == null || b.clientId.isBlank()) throw new IllegalArgumentException("clientId: required");
        clientId = b.clientId;
        clientSecret = b.clientSecret;
        if (b.redirectUri == null || !b.redirectUri.isAbsolute() || b.redirectUri.getRawPath() == null
                || !b.redirectUri.getRawPath().startsWith("/") || b.redirectUri.getRawQuery() != null || b.redirectUri.getRawFragment() != null
                || !(b.redirectUri.getScheme().equals("http") || b.redirectUri.getScheme().equals("https"))) {
            throw new IllegalArgumentException("redirectUri: an absolute http or https URL with a path and no query, such as "
                    + "https://app.example.com/auth/callback");
        }
        redirectUri = b.redirectUri;
        if (!b.scopes.contains("openid")) throw new IllegalArgumentException("scopes: must include openid");
        scopes = List.copyOf(b.scopes);
        ATTEMPT_TIMEOUT.check(b.attemptTimeout);
        attemptTimeout = b.attemptTimeout;
        if (!b.logoutPath.startsWith("/")) throw new IllegalArgumentException("logoutPath must start with '/'");
        logoutPath = b.logoutPath;
        postLogoutRedirectUri = b.postLogoutRedirectUri != null ? b.postLogoutRedirectUri
                : URI.create(redirectUri.getScheme() + "://" + redirectUri.getRawAuthority() + "/");
    }

    /** @return a builder */
    public static Builder builder() {
        return new Builder();
    }

    /** @return the provider's issuer URL; its discovery document ({@code /.well-known/openid-configuration}) must name it exactly */
    public String issuer() {
        return issuer;
    }

    /** @return this app's client id at the provider ({@code TIDEMILL_OIDC_CLIENT_ID}) */
    public String clientId() {
        return clientId;
    }

    /** @return the client secret ({@code TIDEMILL_OIDC_CLIENT_SECRET}), sent by HTTP Basic to the token endpoint; empty for a public client */
    public Optional<String> clientSecret() {
        return Optional.ofNullable(clientSecret);
    }

    /** @return where the provider sends the browser back ({@code TIDEMILL_OIDC_REDIRECT_URI}), registered at the provider exactly as here */
    public URI redirectUri() {
        return redirectUri;
    }

    /** @return the path of {@link #redirectUri()}: the route that finishes a sign-in, such as {@code /auth/callback} */
    public String callbackPath() {
        return redirectUri.getRawPath();
    }

    /** @return the scopes asked for; default {@code openid profile email} */
    public List<String> scopes() {
        return scopes;
    }

    /** @return how long a sign-in attempt may take, from {@code /login} to the callback. 10 s-1 h; default 10 min */
    public Duration attemptTimeout() {
        return attemptTimeout;
    }

    /** @return the path a {@code POST} to ends the session (and the provider's); default {@value #DEFAULT_LOGOUT_PATH} */
    public String logoutPath() {
        return logoutPath;
    }

    /** @return where the provider sends the browser after its logout (registered at the provider); default the redirect URI's origin and {@code /} */
    public URI postLogoutRedirectUri() {
        return postLogoutRedirectUri;
    }

    /** Never shows the secret. */
    @Override
    public String toString() {
        return "OidcLogin[issuer=" + issuer + ", clientId=" + clientId + ", redirectUri=" + redirectUri
                + (clientSecret != null ? ", secret set" : ", public client") + "]";
    }

    /** Builds {@link OidcLogin}. */
    public static final class Builder {
        private String issuer;
        private String clientId;
        private String clientSecret;
        private URI redirectUri;
        private List<String> scopes = DEFAULT_SCOPES;
        private Duration attemptTimeout = DEFAULT_ATTEMPT_TIMEOUT;
        private String logoutPath = DEFAULT_LOGOUT_PATH;
        private URI postLogoutRedirectUri;

        private Builder() {}

        /** @param v see {@link OidcLogin#issuer()} @return this */
        public Builder issuer(String v) { issuer = Objects.requireNonNull(v); return this; }
        /** @param v see {@link OidcLogin#clientId()} @return this */
        public Builder clientId(String v) { clientId = Objects.requireNonNull(v); return this; }
        /** @param v see {@link OidcLogin#clientSecret()} @return this */
        public Builder clientSecret(String v) { clientSecret = Objects.requireNonNull(v); return this; }
        /** @param v see {@link OidcLogin#redirectUri()} @return this */
        public Builder redirectUri(URI v) { redirectUri = Objects.requireNonNull(v); return this; }
        /** @param v see {@link OidcLogin#scopes()} @return this */
        public Builder scopes(String... v) { scopes = List.of(v); return this; }
        /** @param v see {@link OidcLogin#attemptTimeout()} @return this */
        public Builder attemptTimeout(Duration v) { attemptTimeout = Objects.requireNonNull(v); return this; }
        /** @param v see {@link OidcLogin#logoutPath()} @return this */
        public Builder logoutPath(String v) { logoutPath = Objects.requireNonNull(v); return this; }
        /** @param v see {@link OidcLogin#postLogoutRedirectUri()} @return this */
        public Builder postLogoutRedirectUri(URI v) { postLogoutRedirectUri = Objects.requireNonNull(v); return this; }

        /** @return whether an issuer was given (the environment reader takes {@code TIDEMILL_AUTH_ISSUER} otherwise) */
        boolean hasIssuer() {
            return issuer != null;
        }

        /** @return the settings; throws {@link IllegalArgumentException} naming a bad one */
        public OidcLogin build() {
            return new OidcLogin(this);
        }
    }
}
