package dev.tidemill.internal.exchange;

import dev.tidemill.Cors;
import dev.tidemill.Problem;
import dev.tidemill.internal.cors.CorsRules;
import dev.tidemill.internal.routing.RouteMatch;
import dev.tidemill.internal.routing.Router;

/**
 * CORS preflights, answered by the gate before routing: an {@code OPTIONS} request with
 * {@code Origin} and {@code Access-Control-Request-Method} is a browser asking whether it may
 * send the real request, so no handler is involved and no {@code OPTIONS} route is needed. The
 * policy is the one of the route the real request would reach (the method asked for, on this
 * path), or the app's if no route takes it. Without a policy the request is routed like any other
 * {@code OPTIONS}. Preflights are never rate limited: they happen before routing, and a
 * browser's refused preflight would hide the limit's 429 from the script anyway.
 */
final class Preflights {
    private Preflights() {}

    /**
     * The policy of a path whose routes do not take the method asked for: that of a route that
     * does exist there (routes on one path normally share their group's policy), so the 405 is
     * readable by the origin, and a preflight for it is judged by the policy scripts see.
     *
     * @param allow the methods the path takes, as in {@code Allow}
     * @return the policy, or {@code appCors}
     */
    static Cors pathPolicy(Router<Endpoint> router, String path, String allow, Cors appCors) {
        for (String m : allow.split(",")) {
            if (router.match(m.strip(), path) instanceof RouteMatch.Found<Endpoint> f) return f.value().cors();
        }
        return appCors;
    }

    /** @return whether the request is a preflight (whatever the policy) */
    static boolean is(Exchange ex) {
        return ex.method().equals("OPTIONS") && ex.header("Origin").isPresent()
                && ex.header("Access-Control-Request-Method").isPresent();
    }

    /**
     * @param ex a preflight ({@link #is})
     * @param router the router, to find the route the real request would reach
     * @param appCors the app's policy, or null
     * @return the answer (a 204, or a 403 naming what was refused), or null if no policy covers it
     */
    static Verdict answer(Exchange ex, Router<Endpoint> router, Cors appCors) {
        String method = ex.header("Access-Control-Request-Method").orElseThrow().strip();
        Cors policy = switch (router.match(method, ex.path())) {
            case RouteMatch.Found<Endpoint> f -> f.value().cors();
            case RouteMatch.MethodNotAllowed<Endpoint> m -> pathPolicy(router, ex.path(), m.allow(), appCors);
            case RouteMatch.NotFound<Endpoint> n -> appCors;
        };
        if (policy == null) return null;
        ex.preflight = true;
        CorsRules.Preflight p = CorsRules.preflight(policy, ex.header("Origin").orElseThrow(), method,
                ex.headers("Access-Control-Request-Headers"));
        String[] headers = p.headers().toArray(String[]::new);
        if (p.refused() == null) return Verdict.noContent(headers);
        return new Verdict(Problem.of(403, "Forbidden", "CORS preflight refused (" + p.refused() + "): " + p.detail()),
                false, headers);
    }
}
