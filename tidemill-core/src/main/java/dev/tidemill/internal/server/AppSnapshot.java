package dev.tidemill.internal.server;

import dev.tidemill.Config;
import dev.tidemill.ExceptionMapper;
import dev.tidemill.Filter;
import dev.tidemill.JsonCodec;
import dev.tidemill.Route;
import dev.tidemill.internal.exchange.ServerObserver;
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
 * @param observer who watches the exchanges (metrics, access log, health: {@code internal.ops})
 */
public record AppSnapshot(
        Config config,
        List<Route> routes,
        List<Filter> filters,
        Map<Class<? extends Throwable>, ExceptionMapper<?>> mappers,
        JsonCodec json,
        ServerObserver observer) {

    /** An app nobody watches. */
    public AppSnapshot(Config config, List<Route> routes, List<Filter> filters,
            Map<Class<? extends Throwable>, ExceptionMapper<?>> mappers, JsonCodec json) {
        this(config, routes, filters, mappers, json, ServerObserver.NONE);
    }
}
