package dev.tidemill;

/**
 * Where routes are registered: the app itself, or a {@link RouteGroup}. Patterns are literal
 * segments, {@code {name}} parameters (one whole segment each) and a final {@code {*name}}
 * catch-all. Static segments beat parameters and the catch-all comes last, whatever the order of
 * registration; a second route of the same shape is refused with an {@link IllegalStateException}
 * naming both. Trailing slashes are distinct routes. HEAD is answered wherever GET is.
 */
public interface Routes {

    /**
     * @param method HTTP method, e.g. {@code PURGE} (a token, upper-cased)
     * @param pattern path pattern starting with {@code /}
     * @param handler the handler
     * @return the route, to declare parameters and per-route options on
     */
    Route route(String method, String pattern, Handler handler);

    /** @param pattern path pattern @param handler handler @return the route */
    default Route get(String pattern, Handler handler) {
        return route("GET", pattern, handler);
    }

    /** @param pattern path pattern @param handler handler @return the route */
    default Route post(String pattern, Handler handler) {
        return route("POST", pattern, handler);
    }

    /** @param pattern path pattern @param handler handler @return the route */
    default Route put(String pattern, Handler handler) {
        return route("PUT", pattern, handler);
    }

    /** @param pattern path pattern @param handler handler @return the route */
    default Route patch(String pattern, Handler handler) {
        return route("PATCH", pattern, handler);
    }

    /** @param pattern path pattern @param handler handler @return the route */
    default Route delete(String pattern, Handler handler) {
        return route("DELETE", pattern, handler);
    }

    /**
     * A WebSocket route: {@code GET pattern} answering the handshake with
     * {@link Response#webSocket(WebSocketHandler)} and the default {@link WebSocketOptions}.
     * Filters run on the handshake as on any request, so the same authentication filter guards
     * HTTP and WebSocket routes; the route's execution mode is the handler's.
     *
     * @param pattern the path pattern
     * @param handler runs each connection
     * @return the route, for further configuration
     */
    default Route ws(String pattern, WebSocketHandler handler) {
        return ws(pattern, WebSocketOptions.DEFAULTS, handler);
    }

    /**
     * A WebSocket route with its own options; see {@link #ws(String, WebSocketHandler)}.
     *
     * @param pattern the path pattern
     * @param options origins, subprotocols, compression, limits and timers
     * @param handler runs each connection
     * @return the route
     */
    default Route ws(String pattern, WebSocketOptions options, WebSocketHandler handler) {
        java.util.Objects.requireNonNull(options, "options");
        java.util.Objects.requireNonNull(handler, "handler");
        Response upgrade = Response.webSocket(options, handler);
        return get(pattern, request -> upgrade).kind(dev.tidemill.internal.openapi.RouteKind.WEBSOCKET);
    }

    /**
     * Serves static assets under a prefix: registers {@code GET prefix/{*path}} (HEAD included)
     * answering hashed names, redirecting logical ones and refusing the rest (see
     * {@link StaticAssets}). The route runs on the event loop ({@link ExecutionMode#IO}: every
     * answer is prepared at start, nothing blocks) and response compression is off for it (the
     * assets carry their own precompressed forms); both can be changed on the returned route.
     * Filters apply as to any route.
     *
     * @param prefix e.g. {@code /assets}: starts with {@code /}, does not end with one ({@code /}
     *     alone serves them at the root), holds no parameter
     * @param assets the assets; registered once (their {@link StaticAssets#href} names one place)
     * @return the route
     * @throws IllegalStateException if these assets are registered already
     */
    default Route assets(String prefix, StaticAssets assets) {
        java.util.Objects.requireNonNull(prefix, "prefix");
        java.util.Objects.requireNonNull(assets, "assets");
        if (!prefix.startsWith("/") || prefix.length() > 1 && prefix.endsWith("/")) {
            throw new IllegalArgumentException("assets prefix must start with '/' and not end with one: " + prefix);
        }
        assets.checkNotMounted(); // before registering: a refused call leaves no route behind
        String pattern = (prefix.equals("/") ? "" : prefix) + StaticAssets.catchAll();
        Route route = get(pattern, assets.handler()).mode(ExecutionMode.IO).compress(false);
        assets.mounted(route.pattern());
        return route.kind(dev.tidemill.internal.openapi.RouteKind.ASSETS);
    }

    /**
     * @param prefix path prefix for every route of the group, e.g. {@code /api}
     * @return a new group; its routes inherit this one's filters and defaults
     */
    RouteGroup group(String prefix);

    /**
     * @param filter runs around every handler registered here, outermost first in order added
     * @return this
     */
    Routes filter(Filter filter);
}
