package dev.tidemill.internal.exchange;

import dev.tidemill.Limits;
import dev.tidemill.Problem;
import dev.tidemill.ProblemException;
import dev.tidemill.internal.auth.Authenticator;
import dev.tidemill.internal.auth.Outcome;
import dev.tidemill.internal.codec.ContentDecoding;
import dev.tidemill.internal.routing.MalformedEncodingException;
import dev.tidemill.internal.routing.ParamCoercer;
import dev.tidemill.internal.routing.PathDecoder;
import dev.tidemill.internal.routing.QueryString;
import dev.tidemill.internal.routing.RouteMatch;
import dev.tidemill.internal.routing.Router;
import dev.tidemill.internal.routing.TooManyParametersException;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The checks of a request that need no handler and no protocol, in order, on the transport's
 * thread, so a bad request never costs a worker anything. {@link #route}: a method no route uses
 * (501), the request target (400), routing (404, 405 with {@code Allow}), the declared body size
 * (413, before a byte of body is read). {@link #bind}: {@code Content-Encoding} (415), the query
 * (400), typed-parameter coercion (422 listing every failure) and the rate limit (429, see
 * {@link RateLimits}). A CORS preflight is answered in {@code route}, before routing
 * ({@link Preflights}). The transport runs its own
 * framing checks before {@code route} and may run more between the two calls (HTTP/1.1:
 * {@code Expect}).
 */
public final class RouteGate {
    private static final Map<String, List<String>> NO_QUERY = Map.of();
    /** The methods of RFC 9110 section 9 and PATCH (RFC 5789): never 501, at worst 404 or 405. */
    private static final Set<String> STANDARD_METHODS =
            Set.of("GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH");

    private final Router<Endpoint> router;
    private final Limits limits;
    /** Whether any CORS policy exists: without one, a preflight is an ordinary OPTIONS request. */
    private final boolean cors;
    private final dev.tidemill.Cors appCors;
    private final Authenticator auth;

    RouteGate(Router<Endpoint> router, Limits limits) {
        this(router, limits, false, null, new Authenticator(dev.tidemill.Auth.NONE));
    }

    RouteGate(Router<Endpoint> router, Limits limits, boolean cors, dev.tidemill.Cors appCors, Authenticator auth) {
        this.router = router;
        this.limits = limits;
        this.cors = cors;
        this.appCors = appCors;
        this.auth = auth;
    }

    /**
     * Routes the exchange and checks its target and declared size.
     *
     * @param ex the exchange, just opened
     * @param declaredLength the body length the request declares, 0 if none
     * @return null if routed (the exchange now has its endpoint), else why not
     */
    public Verdict route(Exchange ex, long declaredLength) {
        String method = ex.method();
        if (!STANDARD_METHODS.contains(method) && !router.knowsMethod(method)) {
            // RFC 9110 9.1: an unrecognised method is 501; a standard one a path does not take is 405
            return Verdict.of(501, "Not Implemented", "no route of this server uses the method " + truncate(method));
        }
        if (ex.uri().equals("*") && method.equals("OPTIONS")) {
            return Verdict.of(501, "Not Implemented", "OPTIONS * (options of the whole server) is not implemented");
        }
        String path = ex.path();
        if (path == null) {
            return Verdict.of(400, "Bad Request", "invalid request target: only origin-form (/path) and "
                    + "absolute-form (http://host/path) are served");
        }
        if (path.indexOf('%') >= 0) {
            try {
                // validity only: routing works on the raw path
                if (PathDecoder.decode(path).indexOf('\0') >= 0) {
                    return Verdict.of(400, "Bad Request", "a NUL byte (%00) in the path");
                }
            } catch (MalformedEncodingException e) {
                return Verdict.of(400, "Bad Request", "invalid percent-encoding in the path");
            }
        }
        if (RequestTarget.hasDotSegment(path)) {
            // Not normalised: a proxy in front may normalise differently, and a path that means
            // different things to two parsers must not reach a handler.
            return Verdict.of(400, "Bad Request", "dot segments ('.' or '..', encoded or not) are not accepted in the path");
        }
        if (cors && Preflights.is(ex)) {
            Verdict preflight = Preflights.answer(ex, router, appCors);
            if (preflight != null) return preflight; // answered before routing: no OPTIONS route needed
        }
        RouteMatch<Endpoint> match = router.match(method, path);
        if (match instanceof RouteMatch.NotFound<Endpoint>) {
            return Verdict.of(404, "Not Found", "no route for " + method + " " + truncate(path));
        }
        if (match instanceof RouteMatch.MethodNotAllowed<Endpoint> m) {
            if (cors) ex.pathCors = Preflights.pathPolicy(router, path, m.allow(), appCors);
            return new Verdict(Problem.of(405, "Method Not Allowed", method + " is not allowed here; allowed: " + m.allow()),
                    false, "Allow", m.allow());
        }
        RouteMatch.Found<Endpoint> found = (RouteMatch.Found<Endpoint>) match;
        Endpoint endpoint = found.value();
        ex.endpoint = endpoint;
        ex.pathValues = found.rawValues();
        if (declaredLength > endpoint.maxBodyBytes()) {
            return new Verdict(Problem.of(413, "Content Too Large", "Content-Length " + declaredLength + " exceeds the "
                    + endpoint.maxBodyBytes() + "-byte limit (maxBodyBytes)"), true);
        }
        return null;
    }

    /**
     * Checks the body's codings, parses the query and coerces the declared parameters.
     *
     * @param ex a routed exchange
     * @param headers its request headers
     * @return null if the handler may run once the body is read, else why not
     */
    public Verdict bind(Exchange ex, HttpHeaders headers) {
        try {
            ex.codings = ContentDecoding.check(headers.get(HttpHeaderNames.CONTENT_ENCODING), limits.maxContentCodings());
        } catch (ProblemException e) {
            // RFC 9110 15.5.16: say which codings would be accepted
            return new Verdict(e.problem(), false, "Accept-Encoding", ContentDecoding.SUPPORTED);
        }
        String uri = ex.uri();
        int q = uri.indexOf('?');
        try {
            ex.query = q < 0 ? NO_QUERY : QueryString.parse(uri.substring(q + 1), limits.maxQueryPairs());
        } catch (MalformedEncodingException e) {
            return Verdict.of(400, "Bad Request", "invalid percent-encoding in the query string");
        } catch (TooManyParametersException e) {
            return Verdict.of(400, "Bad Request", "more than " + limits.maxQueryPairs() + " query parameters (maxQueryPairs)");
        }
        ParamCoercer.Result coerced;
        try {
            ParamCoercer coercer = ex.endpoint.coercer();
            coerced = coercer.coerce(ex.pathValues, ex.query, coercer.readsHeaders() ? headers::getAll : null);
        } catch (MalformedEncodingException e) {
            return Verdict.of(400, "Bad Request", "invalid percent-encoding in the path");
        }
        if (!coerced.ok()) {
            return new Verdict(new Problem("about:blank", "Validation failed", 422,
                    Optional.of("invalid request parameters"), coerced.errors()), false);
        }
        ex.values = coerced.values();
        ex.pathValues = coerced.pathValues();
        Verdict who = admit(ex, headers);
        return who != null ? who : RateLimits.admit(ex);
    }

    /**
     * Authenticates the caller of a route with a requirement (see {@link Authenticator}), before the
     * rate limit, so a limit may count per caller.
     *
     * @return null when the caller may go on (its principal set), a refusal, or {@link Verdict#PENDING}
     */
    private Verdict admit(Exchange ex, HttpHeaders headers) {
        if (ex.endpoint.requirement() == null && !auth.sessions()) return null;
        String subject = ex.tlsPrincipal().map(java.security.Principal::getName).orElse(null);
        return settle(ex, auth.authenticate(ex.endpoint.requirement(),
                new Authenticator.Asking(ex.method(), ex.uri(), headers::getAll, subject, ex.overTls())));
    }

    private Verdict settle(Exchange ex, Outcome outcome) {
        return switch (outcome) {
            case Outcome.Admitted a -> {
                ex.principal = a.principal();
                ex.session = a.session();
                if (a.principal() != null) auth.outcomes().admitted(a.principal().via());
                yield null;
            }
            case Outcome.Refused r -> {
                auth.outcomes().refused(r.status(), r.detail());
                yield r.status() == 303 ? Verdict.seeOther(r.headers()[1])
                        : new Verdict(Problem.of(r.status(), r.title(), r.detail()), false, r.headers());
            }
            case Outcome.Pending p -> {
                ex.admission = p.later().thenCompose(o -> {
                    Verdict v = settle(ex, o);
                    return v != null ? java.util.concurrent.CompletableFuture.completedFuture(v) : RateLimits.decide(ex);
                }).exceptionally(failed -> {
                    // a store the check needs did not answer (sessions in Redis, say): closed, not open
                    auth.outcomes().refused(503, "a store did not answer");
                    return new Verdict(Problem.of(503, "Service Unavailable", "the caller could not be authenticated: a store it needs "
                            + "did not answer; try again"), false, "Retry-After", "1");
                });
                yield Verdict.PENDING;
            }
        };
    }

    /**
     * @param ex an exchange whose {@link #bind} was {@link Verdict#PENDING}
     * @return its verdict once the caller is authenticated (null: go on), completed off the transport's thread
     */
    public java.util.concurrent.CompletionStage<Verdict> admission(Exchange ex) {
        return ex.admission;
    }

    /** @return whether some route takes this method */
    boolean knowsMethod(String method) {
        return router.knowsMethod(method);
    }

    static String truncate(String s) {
        return s.length() <= 200 ? s : s.substring(0, 200) + "...";
    }
}
