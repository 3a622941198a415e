package dev.tidemill.internal.auth;

import dev.tidemill.ApiKeys;
import dev.tidemill.Auth;
import dev.tidemill.BearerTokens;
import dev.tidemill.Principal;
import dev.tidemill.Requirement;
import dev.tidemill.internal.integration.OptionalDependency;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
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
    private final ApiKeys apiKeys;
    /** The header an API key may come in alone, or null. */
    private final String keyHeader;
    /** What a 401 without an error code asks for: every scheme configured (RFC 9110 11.6.1), Bearer when none is. */
    private final String ask;

    /** @param auth the app's settings; bearer tokens need nimbus-jose-jwt (the start fails naming it when absent) */
    public Authenticator(Auth auth) {
        Optional<BearerTokens> tokens = auth.bearerTokens();
        if (tokens.isPresent()) {
            OptionalDependency.JOSE.require("Auth.bearer(...) or TIDEMILL_AUTH_*");
            bearer = new JwtVerifier(tokens.get());
        } else {
            bearer = null;
        }
        apiKeys = auth.apiKeys().orElse(null);
        keyHeader = apiKeys == null ? null : apiKeys.header().orElse(null);
        ask = apiKeys == null ? "Bearer" : bearer == null ? "ApiKey" : "Bearer, ApiKey";
    }

    /** Starts what runs in the background (key fetches). */
    public void start() {
        if (bearer != null) bearer.start();
    }

    /** @return key-set fetches so far, 0 without bearer tokens */
    public long keyFetches() {
        return bearer == null ? 0 : bearer.fetches();
    }

    /**
     * On the transport's thread.
     *
     * @param requirement the route's requirement, null for none (then nothing is authenticated)
     * @param fields the request's header fields, by name (case-insensitive), all values
     * @param certificateSubject the verified TLS client certificate's subject name, or null
     * @return admitted (with the principal, or null when nothing was asked), refused, or pending
     */
    public Outcome authenticate(Requirement requirement, Function<String, List<String>> fields, String certificateSubject) {
        if (requirement == null || requirement == Requirement.anonymous()) return new Outcome.Admitted(null);
        List<String> authorization = fields.apply("Authorization");
        List<String> keyField = keyHeader == null ? List.of() : fields.apply(keyHeader);
        if (authorization.size() + keyField.size() > 1) {
            return new Outcome.Refused(400, "Bad Request", "more than one credential (Authorization or " + keyHeader + " fields)",
                    "WWW-Authenticate", "Bearer error=\"invalid_request\"");
        }
        if (keyField.size() == 1) return check(requirement, apiKey(keyField.get(0).strip()));
        if (authorization.size() == 1) {
            String value = authorization.get(0);
            int space = value.indexOf(' ');
            String scheme = space < 0 ? value : value.substring(0, space);
            String credential = space < 0 ? "" : value.substring(space + 1).strip();
            if (bearer != null && scheme.equalsIgnoreCase("Bearer")) return check(requirement, bearer.verify(credential));
            if (apiKeys != null && scheme.equalsIgnoreCase("ApiKey")) return check(requirement, apiKey(credential));
            LOG.info("refused: an Authorization scheme this server does not take ({})", printable(scheme));
            return new Outcome.Refused(401, UNAUTHORIZED, ASK, "WWW-Authenticate", ask);
        }
        if (certificateSubject != null) {
            return check(requirement, new Outcome.Admitted(new Principal(certificateSubject, Set.of(), Set.of(),
                    Principal.Via.MTLS, Map.of())));
        }
        return new Outcome.Refused(401, UNAUTHORIZED, ASK, "WWW-Authenticate", ask);
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
        return java.util.concurrent.CompletableFuture.completedFuture(o);
    }

    @Override
    public void close() {
        if (bearer != null) bearer.close();
    }
}
