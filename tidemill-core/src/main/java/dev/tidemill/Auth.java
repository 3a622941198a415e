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
 * @see Sessions
 * @see BasicUsers
 */
public final class Auth {
    /** No mechanism configured. */
    public static final Auth NONE = new Auth(null, null, null, null, null);

    private final BearerTokens bearer;
    private final ApiKeys apiKeys;
    private final Sessions sessions;
    private final BasicUsers basic;
    private final OidcLogin login;

    private Auth(BearerTokens bearer, ApiKeys apiKeys, Sessions sessions, BasicUsers basic, OidcLogin login) {
        this.bearer = bearer;
        this.apiKeys = apiKeys;
        this.sessions = sessions;
        this.basic = basic;
        this.login = login;
    }

    /** @param tokens how bearer tokens are verified @return settings with them alone */
    public static Auth bearer(BearerTokens tokens) {
        return new Auth(Objects.requireNonNull(tokens, "tokens"), null, null, null, null);
    }

    /** @param keys the API keys accepted @return settings with them alone */
    public static Auth apiKeys(ApiKeys keys) {
        return new Auth(null, Objects.requireNonNull(keys, "keys"), null, null, null);
    }

    /** @param tokens how bearer tokens are verified @return these settings with them */
    public Auth withBearer(BearerTokens tokens) {
        return new Auth(Objects.requireNonNull(tokens, "tokens"), apiKeys, sessions, basic, login);
    }

    /** @param keys the API keys accepted @return these settings with them */
    public Auth withApiKeys(ApiKeys keys) {
        return new Auth(bearer, Objects.requireNonNull(keys, "keys"), sessions, basic, login);
    }

    /** @param settings server-side sessions @return settings with them alone */
    public static Auth sessions(Sessions settings) {
        return new Auth(null, null, Objects.requireNonNull(settings, "settings"), null, null);
    }

    /** @param settings server-side sessions @return these settings with them */
    public Auth withSessions(Sessions settings) {
        return new Auth(bearer, apiKeys, Objects.requireNonNull(settings, "settings"), basic, login);
    }

    /** @return the session settings, when the app has sessions */
    public Optional<Sessions> sessions() {
        return Optional.ofNullable(sessions);
    }

    /** @param users HTTP Basic users @return settings with them alone */
    public static Auth basic(BasicUsers users) {
        return new Auth(null, null, null, Objects.requireNonNull(users, "users"), null);
    }

    /** @param users HTTP Basic users @return these settings with them */
    public Auth withBasic(BasicUsers users) {
        return new Auth(bearer, apiKeys, sessions, Objects.requireNonNull(users, "users"), login);
    }

    /** @return the HTTP Basic users, when Basic is accepted */
    public Optional<BasicUsers> basic() {
        return Optional.ofNullable(basic);
    }

    /**
     * @param settings the OpenID Connect provider browsers sign in with
     * @return settings with it alone, on sessions of the default settings
     */
    public static Auth login(OidcLogin settings) {
        return NONE.withLogin(settings);
    }

    /**
     * @param settings the OpenID Connect provider browsers sign in with
     * @return these settings with it; with sessions of the default settings when these have none
     */
    public Auth withLogin(OidcLogin settings) {
        return new Auth(bearer, apiKeys, sessions != null ? sessions : Sessions.builder().build(), basic,
                Objects.requireNonNull(settings, "settings"));
    }

    /** @return the OpenID Connect sign-in, when browsers sign in through a provider */
    public Optional<OidcLogin> login() {
        return Optional.ofNullable(login);
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
        return bearer == null && apiKeys == null && sessions == null && basic == null ? "Auth[none]" : "Auth["
                + (bearer != null ? bearer + " " : "") + (apiKeys != null ? apiKeys + " " : "") + (basic != null ? basic + " " : "")
                + (login != null ? login + " " : "") + (sessions != null ? "sessions" : "") + "]";
    }
}
