package dev.tidemill.internal.exchange;

import dev.tidemill.Config;
import dev.tidemill.Cors;
import dev.tidemill.RateLimit;
import dev.tidemill.internal.ratelimit.Limiter;
import java.util.function.Function;
import dev.tidemill.ExecutionMode;
import dev.tidemill.Filter;
import dev.tidemill.Handler;
import dev.tidemill.Route;
import dev.tidemill.RouteGroup;
import dev.tidemill.internal.routing.ParamCoercer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A route resolved against its groups and the app's configuration: everything the request path
 * needs, computed once at start.
 *
 * @param route the route as registered
 * @param handler its handler
 * @param filters app filters, then enclosing groups' filters, outermost first
 * @param pathNames names of the pattern's parameter segments, in order
 * @param coercer coerces the declared parameters
 * @param mode where the handler runs: the route's, its groups', else the app's ({@link ExecutionMode#AUTO} included)
 * @param maxBodyBytes body limit in bytes
 * @param requestTimeoutNanos request timeout
 * @param compress whether its responses may be compressed (the route's choice, else the config's)
 * @param cors its CORS policy (the route's, its groups', else the app's), null if none applies
 * @param limiter its rate limit's state (nearest wins), null if none applies or the route is operational
 * @param observer what records its responses (metrics, access log), resolved once; null when nothing does
 * @param requirement who may call it (the route's, its groups', else the app's), null if none applies
 * @param auto where the handler runs now and why, when {@code mode} is {@link ExecutionMode#AUTO}; else null
 */
public record Endpoint(
        Route route,
        Handler handler,
        Filter[] filters,
        String[] pathNames,
        ParamCoercer coercer,
        ExecutionMode mode,
        long maxBodyBytes,
        long requestTimeoutNanos,
        boolean compress,
        Cors cors,
        Limiter limiter,
        RouteObserver observer,
        dev.tidemill.Requirement requirement,
        AutoMode auto) {

    static Endpoint resolve(Route route, List<Filter> appFilters, Config config) {
        return resolve(route, appFilters, config, ServerObserver.NONE);
    }

    static Endpoint resolve(Route route, List<Filter> appFilters, Config config, ServerObserver observers) {
        return resolve(route, appFilters, config, Cors.none(), null, null, l -> null, observers);
    }

    /**
     * @param appCors the app's CORS policy ({@link Cors#none()} if none)
     * @param appLimit the app's rate limit, or null
     * @param appRequirement the app's requirement, or null
     * @param limiters the state of each rate limit object, one per object
     * @param observers who records responses
     */
    static Endpoint resolve(Route route, List<Filter> appFilters, Config config, Cors appCors, RateLimit appLimit,
            dev.tidemill.Requirement appRequirement, Function<RateLimit, Limiter> limiters, ServerObserver observers) {
        List<Filter> chain = new ArrayList<>(appFilters);
        List<RouteGroup> groups = new ArrayList<>();
        for (RouteGroup g = route.group().orElse(null); g != null; g = g.parent().orElse(null)) groups.add(g);
        Collections.reverse(groups);
        for (RouteGroup g : groups) chain.addAll(g.filters());
        ExecutionMode mode = route.mode()
                .or(() -> route.group().flatMap(RouteGroup::mode))
                .orElse(config.executionMode());
        long body = route.maxBodyBytes()
                .or(() -> route.group().flatMap(RouteGroup::maxBodyBytes))
                .orElse(config.limits().maxBodyBytes());
        long timeout = route.requestTimeout()
                .or(() -> route.group().flatMap(RouteGroup::requestTimeout))
                .orElse(config.timeouts().request()).toNanos();
        String[] names = pathNames(route.pattern());
        Cors cors = route.cors().or(() -> route.group().flatMap(RouteGroup::cors)).orElse(appCors);
        RateLimit limit = route.rateLimit().or(() -> route.group().flatMap(RouteGroup::rateLimit)).orElse(appLimit);
        // operational routes (health, metrics) are never limited: a probe refused by a limit looks like an outage
        Limiter limiter = limit == null || route.operational() ? null : limiters.apply(limit);
        return new Endpoint(route, route.handler(), chain.toArray(Filter[]::new), names,
                new ParamCoercer(route.params(), names), mode, body, timeout,
                route.compress().orElse(config.compression().enabled()), cors.enabled() ? cors : null, limiter,
                observers.route(route),
                route.requirement().or(() -> route.group().flatMap(RouteGroup::requirement)).orElse(appRequirement),
                mode == ExecutionMode.AUTO ? new AutoMode(route.method() + " " + route.pattern()) : null);
    }

    /** @return the {@code {name}} and {@code {*name}} segment names of a pattern, in order */
    static String[] pathNames(String pattern) {
        if (pattern.indexOf('{') < 0) return NO_NAMES; // most routes: no parameter, nothing to cut
        List<String> names = new ArrayList<>();
        for (int start = 0, n = pattern.length(); start <= n; ) {
            int end = pattern.indexOf('/', start);
            if (end < 0) end = n;
            if (end - start >= 2 && pattern.charAt(start) == '{' && pattern.charAt(end - 1) == '}') {
                names.add(pattern.substring(pattern.charAt(start + 1) == '*' ? start + 2 : start + 1, end - 1));
            }
            start = end + 1;
        }
        return names.toArray(String[]::new);
    }

    private static final String[] NO_NAMES = {};
}
