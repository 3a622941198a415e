package dev.tidemill.bench;

import dev.tidemill.bench.targets.TidemillMcpApp;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The MCP requests of {@link McpSuite}, over HTTP/1.1 on 127.0.0.1 (one keep-alive connection when
 * used from one thread): stateless {@code tools/call}s of revision {@value #STATELESS}, and sessions
 * of revision {@value #SESSION_ERA} opened with {@code initialize}. Also what the suite checks of the
 * target before it times anything ({@link #check}).
 */
final class McpClient implements AutoCloseable {
    /** The stateless revision: every request self-contained. */
    static final String STATELESS = "2026-07-28";
    /** The session revision: {@code initialize} answers with an {@code Mcp-Session-Id}. */
    static final String SESSION_ERA = "2025-11-25";
    /** The endpoint. */
    static final String PATH = "/mcp";
    /** The item the plain route and the tool are asked for. */
    static final long ITEM = 7;
    /** The arguments of a call of {@link TidemillMcpApp#ITEM_TOOL}. */
    static final String ITEM_ARGUMENTS = "{\"id\":" + ITEM + "}";

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private final String base;

    /** @param port the target's port on 127.0.0.1 */
    McpClient(int port) {
        this.base = "http://127.0.0.1:" + port;
    }

    /** @return the plain route of the item, {@code /items/7} */
    static String itemPath() {
        return TidemillMcpApp.ITEM_PATTERN.replace("{id}", Long.toString(ITEM));
    }

    /**
     * @param tool the tool's name
     * @param arguments its arguments, a JSON object
     * @return the body of a stateless {@code tools/call}, with the {@code _meta} the revision requires
     */
    static String toolCallBody(String tool, String arguments) {
        return "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"" + tool + "\",\"arguments\":" + arguments
                + ",\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"" + STATELESS
                + "\",\"io.modelcontextprotocol/clientCapabilities\":{}}}}";
    }

    /**
     * @param tool the tool's name
     * @return the header fields of a stateless {@code tools/call}, in order (the wrk script sends the same)
     */
    static Map<String, String> toolCallHeaders(String tool) {
        Map<String, String> h = new LinkedHashMap<>();
        h.put("Content-Type", "application/json");
        h.put("Accept", "application/json, text/event-stream");
        h.put("MCP-Protocol-Version", STATELESS);
        h.put("Mcp-Method", "tools/call");
        h.put("Mcp-Name", tool);
        return h;
    }

    /** @return the body of an {@code initialize} of the session revision */
    static String initializeBody() {
        return "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"" + SESSION_ERA
                + "\",\"capabilities\":{},\"clientInfo\":{\"name\":\"tidemill-bench\",\"version\":\"1\"}}}";
    }

    /** @return the answer to a stateless {@code tools/call}, or null when there was none */
    HttpResponse<String> toolCall(String tool, String arguments) {
        HttpRequest.Builder b = post(toolCallBody(tool, arguments));
        toolCallHeaders(tool).forEach(b::header);
        return send(b.build());
    }

    /** @return the plain route's answer, or null when there was none */
    HttpResponse<String> get(String path) {
        return send(HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(10)).GET().build());
    }

    /**
     * Opens a session as a client of the session revision does: {@code initialize}, then the
     * {@code notifications/initialized} notification on the session.
     *
     * @return the session's id, or empty when the endpoint did not answer 200 with one (or not 202 to the notification)
     */
    Optional<String> openSession() {
        HttpRequest.Builder init = post(initializeBody()).header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream");
        HttpResponse<String> r = send(init.build());
        if (r == null || r.statusCode() != 200) return Optional.empty();
        Optional<String> id = r.headers().firstValue("Mcp-Session-Id");
        if (id.isEmpty()) return id;
        HttpResponse<String> n = send(post("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}")
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .header("MCP-Protocol-Version", SESSION_ERA).header("Mcp-Session-Id", id.get()).build());
        return n != null && n.statusCode() == 202 ? id : Optional.empty();
    }

    /** @return the status of a DELETE that ends the session, or -1 without an answer */
    int endSession(String id) {
        HttpResponse<String> r = send(HttpRequest.newBuilder(URI.create(base + PATH)).timeout(Duration.ofSeconds(10)).DELETE()
                .header("MCP-Protocol-Version", SESSION_ERA).header("Mcp-Session-Id", id).build());
        return r == null ? -1 : r.statusCode();
    }

    /**
     * What the target must answer before anything is timed: the plain route 200 with the item; a
     * stateless call of the item's tool 200, {@code "isError":false}, its structured content equal to
     * the plain route's body; {@code initialize} 200 with a session id; a call of the slow tool 200
     * with {@code "isError":false} after at least its sleep.
     *
     * @param slow whether to call the slow tool too
     * @return the problems, empty when it answers right
     */
    List<String> check(boolean slow) {
        List<String> problems = new ArrayList<>();
        HttpResponse<String> plain = get(itemPath());
        if (plain == null || plain.statusCode() != 200) {
            problems.add("GET " + itemPath() + ": " + (plain == null ? "no answer" : plain.statusCode()) + ", expected 200");
        }
        HttpResponse<String> call = toolCall(TidemillMcpApp.ITEM_TOOL, ITEM_ARGUMENTS);
        String what = "tools/call " + TidemillMcpApp.ITEM_TOOL;
        if (callProblem(call, what) instanceof String p) {
            problems.add(p);
        } else if (plain != null && plain.statusCode() == 200
                && !JSON.readTree(call.body()).path("result").path("structuredContent").equals(JSON.readTree(plain.body()))) {
            problems.add(what + ": structuredContent differs from the plain route's " + plain.body() + ": " + call.body());
        }
        if (openSession().isEmpty()) problems.add("initialize (" + SESSION_ERA + "): no session (200 with Mcp-Session-Id, then 202)");
        if (slow) {
            long t0 = System.nanoTime();
            HttpResponse<String> s = toolCall(TidemillMcpApp.SLOW_TOOL, "{}");
            long millis = (System.nanoTime() - t0) / 1_000_000;
            if (callProblem(s, "tools/call " + TidemillMcpApp.SLOW_TOOL) instanceof String p) {
                problems.add(p);
            } else if (millis < TidemillMcpApp.SLOW_MILLIS) {
                problems.add("tools/call " + TidemillMcpApp.SLOW_TOOL + ": answered in " + millis + " ms, before its sleep");
            }
        }
        return problems;
    }

    /** @return what is wrong with a tool call's answer, or null */
    static String callProblem(HttpResponse<String> r, String what) {
        if (r == null) return what + ": no answer";
        if (r.statusCode() != 200) return what + ": " + r.statusCode() + ", expected 200: " + r.body();
        if (!r.headers().firstValue("Content-Type").orElse("").startsWith("application/json")) {
            return what + ": Content-Type " + r.headers().firstValue("Content-Type").orElse("none") + ", expected application/json";
        }
        JsonNode result = JSON.readTree(r.body()).path("result");
        if (!result.path("isError").isBoolean() || result.path("isError").asBoolean()) return what + ": not \"isError\":false: " + r.body();
        return null;
    }

    private HttpRequest.Builder post(String body) {
        return HttpRequest.newBuilder(URI.create(base + PATH)).timeout(Duration.ofSeconds(10))
                .POST(HttpRequest.BodyPublishers.ofString(body));
    }

    private HttpResponse<String> send(HttpRequest request) {
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    @Override
    public void close() {
        http.close();
    }
}
