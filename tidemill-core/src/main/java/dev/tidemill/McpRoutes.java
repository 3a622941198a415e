package dev.tidemill;

import dev.tidemill.internal.mcp.McpEndpoint;
import dev.tidemill.internal.openapi.RouteKind;

/**
 * The routes {@link Tidemill#mcp(Mcp)} registers at {@link Mcp#path()}: POST, GET and DELETE, in
 * IO mode (parsing a message and handing a tool call on costs microseconds; the tool's own route
 * runs in its own mode). They are ordinary routes, not operational ones: counted, logged, rate
 * limited and shed like any other; only the OpenAPI document leaves them out. Their requirement is {@link Requirement#anyone()}: every caller may talk
 * to the endpoint, one that presents credentials is identified (tools/list shows what that caller
 * may call), and each tool's route checks its own requirement when called.
 */
final class McpRoutes {
    private final McpEndpoint endpoint;

    private McpRoutes(McpEndpoint endpoint) {
        this.endpoint = endpoint;
    }

    static McpRoutes register(Tidemill app, Mcp settings, SessionStore store) {
        McpRoutes routes = new McpRoutes(new McpEndpoint(settings, store, app.config().host()));
        McpEndpoint e = routes.endpoint;
        try {
            // Not operational: MCP requests are counted, logged, rate limited and shed like any request; only the document leaves them out.
            app.register("POST", settings.path(), e::post, null).requires(Requirement.anyone()).mode(ExecutionMode.IO).kind(RouteKind.MCP);
            app.register("GET", settings.path(), e::get, null).requires(Requirement.anyone()).mode(ExecutionMode.IO).kind(RouteKind.MCP);
            app.register("DELETE", settings.path(), e::delete, null).requires(Requirement.anyone()).mode(ExecutionMode.IO).kind(RouteKind.MCP);
            java.util.Optional<String> issuer = app.config().auth().bearerTokens().flatMap(BearerTokens::issuer);
            for (String at : java.util.List.of(McpEndpoint.WELL_KNOWN + settings.path(), McpEndpoint.WELL_KNOWN)) {
                app.register("GET", at, req -> e.resourceMetadata(req, issuer), null).requires(Requirement.anonymous())
                        .mode(ExecutionMode.IO).operational(true);
            }
        } catch (IllegalArgumentException taken) {
            throw new IllegalArgumentException(taken.getMessage() + "; the MCP endpoint takes " + settings.path()
                    + " (Mcp.builder().path(...) moves it)", taken);
        }
        return routes;
    }

    /** Collects the tools and resources; at start. */
    void build(java.util.List<Route> all, Requirement appRequirement) {
        java.util.List<dev.tidemill.internal.mcp.Marking> marked = new java.util.ArrayList<>();
        for (Route r : all) {
            RouteDocs d = r.docs();
            if (d.toolName == null && d.resourceUri == null) continue;
            Requirement who = r.requirement().or(() -> r.group().flatMap(RouteGroup::requirement)).orElse(appRequirement);
            marked.add(new dev.tidemill.internal.mcp.Marking(r, who, d.toolName, d.toolDescription, d.toolHeaders, d.resourceUri,
                    d.resourceDescription));
        }
        endpoint.start(marked);
    }
}
