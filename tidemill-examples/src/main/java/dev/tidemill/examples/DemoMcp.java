package dev.tidemill.examples;

import dev.tidemill.Mcp;
import dev.tidemill.Requirement;
import dev.tidemill.Tidemill;
import dev.tidemill.Topic;
import java.lang.management.ManagementFactory;

/**
 * The demo's MCP endpoint (docs/mcp.md): {@code /mcp}, whose tools are the routes {@link Demo}
 * marks with {@code .tool(...)} ({@code get_item}, {@code search}, {@code create_user},
 * {@code post_message}) and {@code admin_stats} here, a route that needs scope {@code admin}, so an
 * agent sees it only with a token or key that has it.
 */
final class DemoMcp {
    /** What GET /admin/stats answers. */
    public record AdminStats(long uptimeSeconds, long roomMessages, long roomSubscribers) {}

    private DemoMcp() {}

    static void register(Tidemill app, Topic<String> rooms) {
        app.get("/admin/stats", req -> new AdminStats(ManagementFactory.getRuntimeMXBean().getUptime() / 1000, rooms.stats().published(),
                        rooms.stats().subscriptions()))
                .returns(AdminStats.class).summary("Server statistics").tags("identity")
                .requires(Requirement.scope("admin")).tool("admin_stats", "Uptime and chat room counters; needs scope admin");
        app.mcp(Mcp.builder().name("tidemill-demo").version("0.1.0").build());
    }

    static void banner(StringBuilder b, String base) {
        String json = "-H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream'";
        b.append("MCP (docs/mcp.md): tools get_item, search, create_user, post_message, admin_stats (scope admin) at /mcp:\n");
        b.append("  curl -si ").append(json).append(" -d '{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
                + "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"curl\",\"version\":\"1\"}}}' ")
                .append(base).append("/mcp | grep -i mcp-session-id   # then SID=<that id>\n");
        b.append("  curl -s ").append(json).append(" -H \"Mcp-Session-Id: $SID\" -d '{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}' ")
                .append(base).append("/mcp\n");
        b.append("  curl -s ").append(json).append(" -H \"Mcp-Session-Id: $SID\" -d '{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\","
                + "\"params\":{\"name\":\"get_item\",\"arguments\":{\"id\":7}}}' ").append(base).append("/mcp\n");
        b.append("  an MCP client: Streamable HTTP at ").append(base).append("/mcp (an API key or token as Authorization shows admin_stats)\n");
    }
}
