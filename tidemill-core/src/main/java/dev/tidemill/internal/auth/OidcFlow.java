package dev.tidemill.internal.auth;

import dev.tidemill.BearerTokens;
import dev.tidemill.OidcLogin;
import dev.tidemill.Principal;
import dev.tidemill.Problem;
import dev.tidemill.Request;
import dev.tidemill.Response;
import dev.tidemill.internal.integration.OptionalDependency;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sign-in through an OpenID Connect provider ({@link OidcLogin}): the three routes the app gets
 * ({@link #login}, {@link #callback}, {@link #logout}) and the refresh of a session's expired
 * access token, which the gate asks for ({@link #refreshIfDue}). Each answer that waits on the
 * provider waits on a future, never on a thread of ours.
 */
public final class OidcFlow implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(OidcFlow.class);
    /** States used already, kept until their attempt would have expired; at most this many (a flood clears them: codes are single-use at the provider anyway). */
    private static final int MAX_USED = 100_000;
    /**
     * A refresh's outcome is shared with requests that come with the same old refresh token while
     * it runs and this long after (a page's parallel requests, whose sessions were loaded before the
     * refreshed tokens were kept): a provider that does not rotate refresh tokens is asked again
     * after this, when the refreshed access token is due in turn.
     */
    private static final long REFRESH_SHARED_MILLIS = 2_000;

    private final OidcLogin settings;
    private final OidcProvider provider;
    private final JwtVerifier idTokens;
    private final Map<String, Long> used = new ConcurrentHashMap<>();
    private final Map<String, Refreshing> refreshing = new ConcurrentHashMap<>();

    private record Refreshing(CompletableFuture<Map<String, Object>> answer, long startedMillis) { }

    /** @param settings the provider and this client; needs nimbus-jose-jwt for the ID token (the start fails naming it otherwise) */
    public OidcFlow(OidcLogin settings) {
        OptionalDependency.JOSE.require("Auth.login(...) or TIDEMILL_OIDC_*");
        this.settings = settings;
        this.provider = new OidcProvider(settings);
        // The ID token is verified as a bearer token would be (OpenID Connect Core 3.1.3.7): the provider's keys, iss, aud = client id, exp.
        this.idTokens = new JwtVerifier(BearerTokens.builder().issuer(settings.issuer()).audience(settings.clientId()).build());
    }

    /** @return the settings */
    public OidcLogin settings() {
        return settings;
    }

    /** Fetches the provider's keys and endpoints in the background. */
    void start() {
        idTokens.start();
        provider.endpoints();
    }

    /** {@code GET /login?next=...}: a new attempt, and the browser sent to the provider. */
    public Object login(Request req) {
        SessionState session = session(req);
        String next = LoginAttempt.localPath(req.query("next").orElse("/"));
        if (session.principal().isPresent()) return seeOther(next);
        LoginAttempt attempt = LoginAttempt.start(Instant.now().plus(settings.attemptTimeout()), next);
        List<String> open = LoginAttempt.openAttempts(session.cookies(), req.headers("Cookie"));
        return provider.endpoints().handle((e, failed) -> {
            if (failed != null) {
                LOG.warn("sign-in: the provider's discovery document could not be read ({})", cause(failed).getMessage());
                throw Problem.of(503, "Service Unavailable", "the sign-in provider cannot be reached; try again shortly").toException();
            }
            Map<String, String> q = new LinkedHashMap<>();
            q.put("response_type", "code");
            q.put("client_id", settings.clientId());
            q.put("redirect_uri", settings.redirectUri().toString());
            q.put("scope", String.join(" ", settings.scopes()));
            q.put("state", attempt.state());
            q.put("nonce", attempt.nonce());
            q.put("code_challenge", attempt.challenge());
            q.put("code_challenge_method", "S256");
            String sep = e.authorization().getRawQuery() == null ? "?" : "&";
            Response r = seeOther(e.authorization() + sep + OidcProvider.formBody(q)).addHeader("Set-Cookie", attempt.setCookie(session.cookies()));
            for (int i = 0; i <= open.size() - LoginAttempt.MAX_OPEN; i++) { // the oldest go: a browser has a few open at most
                r = r.addHeader("Set-Cookie", LoginAttempt.clearCookie(session.cookies(), open.get(i)));
            }
            return r;
        });
    }

    /** The redirect URI's path: the provider sends the browser back with a code (or an error) and the attempt's state. */
    public Object callback(Request req) {
        SessionState session = session(req);
        String state = req.query("state").orElse("");
        if (state.isEmpty() || state.length() > 64) throw badRequest("the sign-in answer has no state");
        LoginAttempt attempt = LoginAttempt.read(session.cookies(), req.cookie(LoginAttempt.cookieName(session.cookies(), state)).orElse(null));
        if (attempt == null || !attempt.state().equals(state)) {
            LOG.info("sign-in refused: a state this browser did not start (another browser's code, or an attempt already used)");
            throw badRequest("this sign-in was not started in this browser, or was finished already: sign in again");
        }
        String clear = LoginAttempt.clearCookie(session.cookies(), state);
        if (Instant.now().isAfter(attempt.expires())) throw badRequest("this sign-in took too long: sign in again");
        if (used.putIfAbsent(state, attempt.expires().getEpochSecond()) != null) throw badRequest("this sign-in was finished already");
        forgetUsed();
        if (req.query("error").isPresent()) {
            LOG.info("sign-in refused by the provider: {}", Authenticator.printable(req.query("error").get()));
            throw Problem.of(401, "Unauthorized", "the sign-in provider refused the sign-in ("
                    + Authenticator.printable(req.query("error").get()) + ")").toException();
        }
        String code = req.query("code").orElseThrow(() -> badRequest("the sign-in answer has no code"));
        String iss = req.query("iss").orElse(null);
        return provider.endpoints().thenCompose(e -> {
            // RFC 9207 2.4: an iss that is not our issuer is a mix-up; a provider that promises iss must send it.
            if (iss != null ? !iss.equals(settings.issuer()) : e.issInResponse()) {
                LOG.info("sign-in refused: the answer's iss is {}, not the issuer", iss == null ? "missing" : Authenticator.printable(iss));
                throw badRequest("the sign-in answer came from another issuer");
            }
            return provider.exchange(code, attempt.verifier());
        }).thenCompose(body -> {
            if (!(body.get("id_token") instanceof String idToken)) throw new OidcProvider.Refused("no_id_token", "the token endpoint sent no id_token");
            return verified(idToken).thenApply(principal -> {
                if (!attempt.nonce().equals(principal.claims().get("nonce"))) throw refused("its nonce is not this attempt's");
                Object azp = principal.claims().get("azp");
                if (azp != null && !settings.clientId().equals(azp)) throw refused("azp names another client");
                ProviderTokens tokens = OidcProvider.tokens(body, null);
                if (tokens.bytes() > ProviderTokens.MAX_BYTES) {
                    throw Problem.of(502, "Bad Gateway", "the provider's tokens are over " + ProviderTokens.MAX_BYTES
                            + " bytes, more than a session keeps").toException();
                }
                Set<String> scopes = body.get("scope") instanceof String s ? Set.of(s.trim().split(" +")) : Set.copyOf(settings.scopes());
                session.login(principal.subject(), scopes, principal.roles());
                session.keep(tokens);
                LOG.info("signed in through the provider: {}", Authenticator.printable(principal.subject()));
                return seeOther(attempt.next()).addHeader("Set-Cookie", clear);
            });
        }).exceptionally(failed -> {
            Throwable c = cause(failed);
            if (c instanceof dev.tidemill.ProblemException p) throw p;
            LOG.warn("sign-in failed at the token endpoint: {}", c.getMessage());
            throw Problem.of(502, "Bad Gateway", "the sign-in provider did not give tokens for this sign-in: sign in again").toException();
        });
    }

    /** {@code POST /logout}: the session ends here, then at the provider when it offers RP-initiated logout. */
    public Object logout(Request req) {
        SessionState session = session(req);
        ProviderTokens tokens = session.providerTokens();
        session.logout();
        OidcProvider.Endpoints e = provider.known();
        if (tokens == null || e == null || e.endSession() == null) return seeOther(settings.postLogoutRedirectUri().toString());
        // OpenID Connect RP-Initiated Logout 1.0 section 2.
        Map<String, String> q = new LinkedHashMap<>();
        q.put("client_id", settings.clientId());
        q.put("post_logout_redirect_uri", settings.postLogoutRedirectUri().toString());
        if (tokens.idToken() != null) q.put("id_token_hint", tokens.idToken());
        String sep = e.endSession().getRawQuery() == null ? "?" : "&";
        return seeOther(e.endSession() + sep + OidcProvider.formBody(q));
    }

    /**
     * @param session a request's session, just loaded
     * @return null when its access token needs no refresh; else done once it was refreshed (or the
     *     session ended, when the provider refused the refresh token)
     */
    CompletionStage<Void> refreshIfDue(SessionState session) {
        ProviderTokens tokens = session.providerTokens();
        if (tokens == null || tokens.refresh() == null || !tokens.due()) return null;
        long now = System.currentTimeMillis();
        if (refreshing.size() > 1_000) refreshing.values().removeIf(r -> r.answer().isDone() && now - r.startedMillis() > REFRESH_SHARED_MILLIS);
        Refreshing r = refreshing.compute(tokens.refresh(), (k, old) -> old != null && (!old.answer().isDone() || now - old.startedMillis() < REFRESH_SHARED_MILLIS) ? old
                : new Refreshing(provider.refresh(k).toCompletableFuture(), now));
        return r.answer().handle((body, failed) -> {
            if (failed == null) {
                session.keep(OidcProvider.tokens(body, tokens));
            } else if (cause(failed) instanceof OidcProvider.Refused refused && "invalid_grant".equals(refused.error)) {
                LOG.info("the provider refused the session's refresh token: the session ends");
                session.logout();
            } else {
                LOG.warn("refreshing the session's access token failed ({}); the session goes on", cause(failed).getMessage());
            }
            return null;
        });
    }

    private CompletionStage<Principal> verified(String idToken) {
        Outcome o = idTokens.verify(idToken);
        if (o instanceof Outcome.Pending p) return p.later().thenCompose(x -> admitted(x));
        return admitted(o);
    }

    private static CompletionStage<Principal> admitted(Outcome o) {
        if (o instanceof Outcome.Admitted a) return CompletableFuture.completedFuture(a.principal());
        if (o instanceof Outcome.Refused r && r.status() == 503) {
            LOG.warn("sign-in: the provider's keys could not be fetched, so its ID token cannot be checked");
            throw Problem.of(503, "Service Unavailable", "the sign-in provider's keys cannot be fetched; sign in again shortly")
                    .toException();
        }
        throw refused("it did not verify");
    }

    private static dev.tidemill.ProblemException refused(String why) {
        LOG.info("sign-in refused: the provider's ID token: {}", why);
        return Problem.of(401, "Unauthorized", "the sign-in provider's ID token was not valid").toException();
    }

    private void forgetUsed() {
        if (used.size() < MAX_USED) return;
        long now = Instant.now().getEpochSecond();
        used.values().removeIf(expires -> expires < now);
        if (used.size() >= MAX_USED) used.clear();
    }

    private static SessionState session(Request req) {
        return (SessionState) req.session().orElseThrow(() -> new IllegalStateException("sign-in needs sessions"));
    }

    private static Response seeOther(String location) {
        return Response.status(303).header("Location", location).header("Cache-Control", "no-store");
    }

    private static dev.tidemill.ProblemException badRequest(String detail) {
        return Problem.of(400, "Bad Request", detail).toException();
    }

    private static Throwable cause(Throwable t) {
        while (t instanceof CompletionException && t.getCause() != null) t = t.getCause();
        return t;
    }

    /** @return lines for the startup report */
    public List<String> report() {
        List<String> lines = new ArrayList<>();
        lines.add("sign-in: OpenID Connect at " + settings.issuer() + ", callback " + settings.redirectUri());
        return lines;
    }

    @Override
    public void close() {
        provider.close();
        idTokens.close();
    }
}
