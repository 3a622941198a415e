package dev.tidemill.internal.exchange;

import dev.tidemill.Config;
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
 * @param mode where the handler runs
 * @param maxBodyBytes body limit in bytes
 * @param requestTimeoutNanos request timeout
 * @param compress whether its responses may be compressed (the route's choice, else the config's)
 * @param observer what records its responses (metrics, access log), resolved once; null when nothing does
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
        RouteObserver observer) {

    static Endpoint resolve(Route route, List<Filter> appFilters, Config config, ServerObserver observers) {
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
        return new Endpoint(route, route.handler(), chain.toArray(Filter[]::new), names,
                new ParamCoercer(route.params(), names), mode, body, timeout,
                route.compress().orElse(config.compression().enabled()), observers.route(route));
    }

    /** @return the {@code {name}} and {@code {*name}} segment names of a pattern, in order */
    static String[] pathNames(String pattern) {
        List<String> names = new ArrayList<>();
        for (String seg : pattern.split("/")) {
            if (seg.startsWith("{*") && seg.endsWith("}")) names.add(seg.substring(2, seg.length() - 1));
            else if (seg.startsWith("{") && seg.endsWith("}")) names.add(seg.substring(1, seg.length() - 1));
        }
        return names.toArray(String[]::new);
    }
}
