package dev.tidemill.internal.auth;

import dev.tidemill.ApiKeys;
import dev.tidemill.Auth;
import dev.tidemill.BearerTokens;
import dev.tidemill.Principal;
import dev.tidemill.Requirement;
import dev.tidemill.SessionStore;
import dev.tidemill.Sessions;
import dev.tidemill.internal.integration.OptionalDependency;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides whether a request may reach a route with a {@link Requirement}: reads its credentials
 * (an {@code Authorization: Bearer} token, else a verified TLS client certificate), makes a
 * {@link Principal} of them, and checks the requirement. Refusals follow RFC 6750 3: no credentials,
 * 401 with a bare {@code Bearer} challenge; credentials that do not verify, 401 with
 * {@code error="invalid_token"}; more than one credential, 400 {@code invalid_request}; a caller
 * without what the route needs, 403 ({@code insufficient_scope} and the scopes that would do, for a
 * bearer token). The body is generic; why a credential failed goes to the log, never the credential.
 */
public final class Authenticator implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Authenticator.class);
    static final String UNAUTHORIZED = "Unauthorized";
    private static final String ASK = "authentication is required, and the request's credentials are missing or not valid";

    private final TokenVerifier bearer;
    private final OidcFlow login;
    private final AuthOutcomes outcomes = new AuthOutcomes();
    private final Sessions sessions;
    private final BasicCheck basic;
    private final boolean loopbackHost;
    private final SessionCookies secureCookies;
    private final SessionCookies plainCookies;
    private final ApiKeys apiKeys;
    /** The header an API key may come in alone, or null. */
    private final String keyHeader;
    /** What a 401 without an error code asks for: every scheme configured (RFC 9110 11.6.1), Bearer when none is. */
    private final String ask;

    /** @param auth the app's settings; bearer tokens need nimbus-jose-jwt (the start fails naming it when absent) */
    public Authenticator(Auth auth) {
        this(auth, true);
    }

    /**
     * @param auth the app's settings
     * @param loopbackHost whether the server listens on a loopback address only (a session cookie may then be
     *     {@code __Host-} and {@code Secure} over plain HTTP: browsers treat loopback as a secure context)
     */
    public Authenticator(Auth auth, boolean loopbackHost) {
        this(auth, loopbackHost, null);
    }

    /**
     * @param auth the app's settings
     * @param loopbackHost see {@link #Authenticator(Auth, boolean)}
     * @param login the app's OpenID Connect sign-in, or null: refreshes expired provider tokens of sessions
     */
    public Authenticator(Auth auth, boolean loopbackHost, OidcFlow login) {
        this.loopbackHost = loopbackHost;
        this.login = login;
        this.sessions = auth.sessions().orElse(null);
        this.secureCookies = sessions == null ? null : new SessionCookies(sessions, true);
        this.plainCookies = sessions == null ? null : new SessionCookies(sessions, false);
        Optional<BearerTokens> tokens = auth.bearerTokens();
        if (tokens.isPresent()) {
            OptionalDependency.JOSE.require("Auth.bearer(...) or TIDEMILL_AUTH_*");
            bearer = new JwtVerifier(tokens.get());
        } else {
            bearer = null;
        }
        basic = auth.basic().map(BasicCheck::new).orElse(null);
        apiKeys = auth.apiKeys().orElse(null);
        keyHeader = apiKeys == null ? null : apiKeys.header().orElse(null);
        List<String> schemes = new java.util.ArrayList<>();
        if (bearer != null || (apiKeys == null && basic == null)) schemes.add("Bearer");
        if (apiKeys != null) schemes.add("ApiKey");
        if (basic != null) schemes.add("Basic realm=\"tidemill\", charset=\"UTF-8\"");
        ask = String.join(", ", schemes);
    }

    /** @return the outcomes counted so far */
    public AuthOutcomes outcomes() {
        return outcomes;
    }

    /** Starts what runs in the background (key fetches). */
    public void start() {
        if (bearer != null) bearer.start();
        if (login != null) login.start();
    }

    /** @return key-set fetches so far, 0 without bearer tokens */
    public long keyFetches() {
        return bearer == null ? 0 : bearer.fetches();
    }

    /**
     * What the gate knows of a request when it asks who is calling.
     *
     * @param method its method
     * @param target its target as sent (origin-form: path and query)
     * @param fields its header fields by name (case-insensitive), all values
     * @param certificateSubject the verified TLS client certificate's subject name, or null
     * @param secure whether it came over TLS
     */
    public record Asking(String method, String target, Function<String, List<String>> fields, String certificateSubject,
            boolean secure) { }

    /** @return whether the app has sessions: every request's session is loaded, guarded route or not */
    public boolean sessions() {
        return sessions != null;
    }

    /** @return lines for the startup report: what about sessions is for development only */
    public List<String> report() {
        if (sessions == null) return List.of();
        List<String> lines = new java.util.ArrayList<>();
        if (sessions.keys().isEmpty()) {
            lines.add("sessions: a random key of this process signs their cookies (development only: they end with it; "
                    + "set TIDEMILL_SESSION_KEYS)");
        }
        if (!loopbackHost) {
            lines.add("sessions: over plain HTTP on a non-loopback host the cookie goes without __Host- and Secure; serve TLS");
        }
        if (login != null) lines.addAll(login.report());
        return lines;
    }

    /**
     * On the transport's thread.
     *
     * @param requirement the route's requirement, null for none (then nothing is authenticated)
     * @param asking the request
     * @return admitted (with the principal, or null when nothing was asked, and the session), refused, or pending
     */
    public Outcome authenticate(Requirement requirement, Asking asking) {
        if (sessions == null) return authenticate(requirement, asking, null);
        SessionCookies cookies = asking.secure() || loopbackHost ? secureCookies : plainCookies;
        String value = cookies.find(asking.fields().apply("Cookie"));
        String id = value == null ? null : cookies.verify(value);
        if (id == null) return authenticate(requirement, asking, SessionState.of(sessions, cookies, null, Optional.empty()));
        CompletableFuture<Optional<SessionStore.Data>> loading = sessions.store().load(id).toCompletableFuture();
        if (loading.isDone() && !loading.isCompletedExceptionally()) {
            return refreshed(requirement, asking, SessionState.of(sessions, cookies, id, loading.join()));
        }
        return new Outcome.Pending(loading.thenCompose(data -> {
            Outcome o = refreshed(requirement, asking, SessionState.of(sessions, cookies, id, data));
            return o instanceof Outcome.Pending p ? p.later() : done(o);
        }));
    }

    /** A route with a requirement, on a session whose provider access token expired: refreshed first (OidcLogin). */
    private Outcome refreshed(Requirement requirement, Asking asking, SessionState session) {
        CompletionStage<Void> refresh = login == null || requirement == null || requirement == Requirement.anonymous() ? null
                : login.refreshIfDue(session);
        if (refresh == null) return authenticate(requirement, asking, session);
        return new Outcome.Pending(refresh.thenCompose(v -> {
            Outcome o = authenticate(requirement, asking, session);
            return o instanceof Outcome.Pending p ? p.later() : done(o);
        }));
    }

    private Outcome authenticate(Requirement requirement, Asking asking, SessionState session) {
        if (session != null && session.fromCookie()) { // an ambient credential came: CSRF applies to whatever the route is
            String why = CrossSiteCheck.refusal(asking.method(), asking.fields(), asking.secure(), sessions.trustedOrigins(),
                    session.csrfToken());
            // A form from a browser that sends neither header may carry the token in a field: decided once the body is read.
            if (why == CrossSiteCheck.NO_SIGNAL && CrossSiteCheck.urlEncodedForm(asking.fields())) session.expectFormToken();
            else if (why != null) return crossSite(why);
        }
        if (requirement == null || requirement == Requirement.anonymous()) return new Outcome.Admitted(null, session);
        Function<String, List<String>> fields = asking.fields();
        List<String> authorization = fields.apply("Authorization");
        List<String> keyField = keyHeader == null ? List.of() : fields.apply(keyHeader);
        if (authorization.size() + keyField.size() > 1) {
            return new Outcome.Refused(400, "Bad Request", "more than one credential (Authorization or " + keyHeader + " fields)",
                    "WWW-Authenticate", "Bearer error=\"invalid_request\"");
        }
        if (keyField.size() == 1) return withSession(check(requirement, apiKey(keyField.get(0).strip())), session);
        if (authorization.size() == 1) {
            String value = authorization.get(0);
            int space = value.indexOf(' ');
            String scheme = space < 0 ? value : value.substring(0, space);
            String credential = space < 0 ? "" : value.substring(space + 1).strip();
            if (bearer != null && scheme.equalsIgnoreCase("Bearer")) return withSession(check(requirement, bearer.verify(credential)), session);
            if (apiKeys != null && scheme.equalsIgnoreCase("ApiKey")) return withSession(check(requirement, apiKey(credential)), session);
            if (basic != null && scheme.equalsIgnoreCase("Basic")) {
                if (!asking.secure() && !basic.allowPlainHttp()) {
                    LOG.info("refused: Basic credentials over plain HTTP");
                    return new Outcome.Refused(403, "Forbidden", "Basic credentials are refused over plain HTTP: use HTTPS");
                }
                String why = CrossSiteCheck.refusal(asking.method(), fields, asking.secure(),
                        sessions != null ? sessions.trustedOrigins() : Set.of(), null); // ambient: a browser resends it
                if (why != null) return crossSite(why);
                return withSession(check(requirement, basic.verify(credential, this::unauthorized)), session);
            }
            LOG.info("refused: an Authorization scheme this server does not take ({})", printable(scheme));
            return new Outcome.Refused(401, UNAUTHORIZED, ASK, "WWW-Authenticate", ask);
        }
        if (session != null && session.principal().isPresent()) {
            return withSession(check(requirement, new Outcome.Admitted(session.principal().get())), session);
        }
        if (asking.certificateSubject() != null) {
            String why = CrossSiteCheck.refusal(asking.method(), fields, asking.secure(),
                    sessions != null ? sessions.trustedOrigins() : Set.of(), null);
            if (why != null) return crossSite(why);
            return withSession(check(requirement, new Outcome.Admitted(new Principal(asking.certificateSubject(), Set.of(), Set.of(),
                    Principal.Via.MTLS, Map.of()))), session);
        }
        if (requirement == Requirement.anyone()) return new Outcome.Admitted(null, session); // no credential: anonymous
        if (sessions != null && browserWantsPage(asking)) {
            return new Outcome.Refused(303, "See Other", "sign in first", "Location",
                    sessions.loginPath() + "?next=" + java.net.URLEncoder.encode(asking.target(), java.nio.charset.StandardCharsets.UTF_8));
        }
        return new Outcome.Refused(401, UNAUTHORIZED, ASK, "WWW-Authenticate", ask);
    }

    /** @return a 401 that asks for every scheme this app takes */
    private Outcome.Refused unauthorized() {
        return new Outcome.Refused(401, UNAUTHORIZED, ASK, "WWW-Authenticate", ask);
    }

    /** A browser navigating to a page: GET or HEAD asking for HTML, to a local target. */
    private static boolean browserWantsPage(Asking asking) {
        if (!asking.method().equals("GET") && !asking.method().equals("HEAD")) return false;
        if (!asking.target().startsWith("/") || asking.target().startsWith("//")) return false;
        return asking.fields().apply("Accept").stream().anyMatch(a -> a.contains("text/html"));
    }

    private static Outcome.Refused crossSite(String why) {
        LOG.info("refused as cross-site: {}", why);
        return new Outcome.Refused(403, "Forbidden", "cross-site request refused: " + why);
    }

    private static Outcome withSession(Outcome o, SessionState session) {
        if (session == null) return o;
        return switch (o) {
            case Outcome.Admitted a -> a.with(session);
            case Outcome.Pending p -> new Outcome.Pending(p.later().thenApply(x -> withSession(x, session)));
            case Outcome.Refused r -> r;
        };
    }

    /** An API key: its digest compared with every stored one. */
    private Outcome apiKey(String key) {
        if (key.length() > 256 || !key.startsWith(ApiKeys.PREFIX)) {
            LOG.info("API key refused: not a key of this server's format");
            return new Outcome.Refused(401, UNAUTHORIZED, ASK, "WWW-Authenticate", ask);
        }
        return apiKeys.find(key).<Outcome>map(e -> new Outcome.Admitted(new Principal(e.name(), e.scopes(), Set.of(),
                Principal.Via.API_KEY, Map.of()))).orElseGet(() -> {
                    LOG.info("API key refused: no key has its digest");
                    return new Outcome.Refused(401, UNAUTHORIZED, ASK, "WWW-Authenticate", ask);
                });
    }

    /** Checks the requirement against an authenticated caller, now or once the caller is known. */
    private Outcome check(Requirement requirement, Outcome who) {
        return switch (who) {
            case Outcome.Pending p -> new Outcome.Pending(p.later().thenApply(o -> check(requirement, o)));
            case Outcome.Refused r -> r;
            case Outcome.Admitted a -> {
                if (requirement.isMetBy(Optional.of(a.principal()))) yield a;
                List<String> scopes = requirement.scopes();
                if (a.principal().via() == Principal.Via.BEARER) {
                    yield new Outcome.Refused(403, "Forbidden", "the caller lacks what this route requires",
                            "WWW-Authenticate", "Bearer error=\"insufficient_scope\""
                                    + (scopes.isEmpty() ? "" : ", scope=\"" + String.join(" ", scopes) + "\""));
                }
                yield new Outcome.Refused(403, "Forbidden", "the caller lacks what this route requires");
            }
        };
    }

    /** @return a Bearer challenge (RFC 6750 3) with the error code, or bare when the request had no credentials */
    static String challenge(String error) {
        return error == null ? "Bearer" : "Bearer error=\"" + error + "\"";
    }

    /** @return {@code s} cut to 32 visible ASCII characters, for a log line */
    static String printable(String s) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < s.length() && b.length() < 32; i++) {
            char c = s.charAt(i);
            b.append(c > 0x20 && c < 0x7f ? c : '?');
        }
        return b.toString();
    }

    /** A refusal of a token that failed verification; {@code why} goes to the log. */
    static Outcome.Refused invalid(String why) {
        LOG.info("bearer token refused: {}", why);
        return new Outcome.Refused(401, UNAUTHORIZED, ASK, "WWW-Authenticate", challenge("invalid_token"));
    }

    /** Keys were never fetched: not the caller's fault, so 503 and when to try again. */
    static Outcome.Refused keysUnavailable() {
        return new Outcome.Refused(503, "Service Unavailable", "the keys that verify tokens are not available yet",
                "Retry-After", "5");
    }

    /** @return a stage completed with the outcome: for verifiers that answer later */
    static CompletionStage<Outcome> done(Outcome o) {
        return CompletableFuture.completedFuture(o);
    }

    @Override
    public void close() {
        if (basic != null) basic.close();
        if (bearer != null) bearer.close();
        if (login != null) login.close();
    }
}
