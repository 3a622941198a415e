package dev.tidemill.internal.exchange;

import dev.tidemill.Config;
import dev.tidemill.Cors;
import dev.tidemill.RateLimit;
import dev.tidemill.ExceptionMapper;
import dev.tidemill.Filter;
import dev.tidemill.JsonCodec;
import dev.tidemill.Route;
import dev.tidemill.internal.routing.Router;
import java.util.List;
import java.util.Map;

/**
 * What the server needs from an app, frozen at start.
 *
 * @param config configuration
 * @param routes routes in registration order
 * @param filters app-wide filters, outermost first
 * @param mappers exception mappers by exception type
 * @param json the JSON codec
 * @param cors the app's CORS policy ({@link Cors#none()} if it has none)
 * @param rateLimit the app's rate limit, or null
 * @param requirement who may call the app's routes that do not say otherwise, or null
 * @param observer who watches the exchanges (metrics, access log, health: {@code internal.ops})
 * @param login the OpenID Connect sign-in whose routes the app has, or null
 * @param consumers the consumer groups' consumers the server starts and stops ({@code Tidemill.consume})
 * @param table the routes' table as the app built it while they were registered (which refused a
 *     second route of one shape), or null to build it from {@code routes}
 */
public record AppSnapshot(
        Config config,
        List<Route> routes,
        List<Filter> filters,
        Map<Class<? extends Throwable>, ExceptionMapper<?>> mappers,
        JsonCodec json,
        Cors cors,
        RateLimit rateLimit,
        dev.tidemill.Requirement requirement,
        ServerObserver observer,
        dev.tidemill.internal.auth.OidcFlow login,
        List<dev.tidemill.ConsumerRoute<?>> consumers,
        Router<Route> table) {

    /** An app without an app-wide CORS policy or rate limit, that nobody watches. */
    public AppSnapshot(Config config, List<Route> routes, List<Filter> filters,
            Map<Class<? extends Throwable>, ExceptionMapper<?>> mappers, JsonCodec json) {
        this(config, routes, filters, mappers, json, Cors.none(), null, null, ServerObserver.NONE, null, List.of(), null);
    }
}
