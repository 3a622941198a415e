package dev.tidemill.internal.mcp;

import dev.tidemill.Requirement;
import dev.tidemill.Route;
import java.util.Map;

/**
 * A route as the MCP endpoint sees it: what {@code route.tool(...)}, {@code toolHeader(...)} and
 * {@code resource(...)} declared on it, and who may call it (the route's requirement, its group's,
 * else the app's; null when none is decided). Made at start by the app, which owns the declarations.
 *
 * @param route the route
 * @param requirement who may call it, null if undecided
 * @param tool the tool's name, null if the route is no tool
 * @param toolDescription the tool's description
 * @param toolHeaders arguments mirrored into {@code Mcp-Param-*} headers, argument to header name part
 * @param resourceUri the resource's URI or template, null if the route is no resource
 * @param resourceDescription the resource's description
 */
public record Marking(Route route, Requirement requirement, String tool, String toolDescription, Map<String, String> toolHeaders,
                      String resourceUri, String resourceDescription) {
    /** Copies the headers. */
    public Marking {
        toolHeaders = Map.copyOf(toolHeaders);
    }
}
