package dev.tidemill.internal.mcp;

import dev.tidemill.Request;
import dev.tidemill.Response;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The session-based revisions (2025-03-26, 2025-06-18, 2025-11-25; basic/lifecycle and
 * basic/transports): {@code initialize} negotiates the version (the client's if this server speaks
 * it, else the newest it does) and opens a session whose id comes back in {@code Mcp-Session-Id};
 * every later request names it: none is 400, an unknown, ended or expired one 404. A
 * {@code MCP-Protocol-Version} header naming a version this server does not speak is 400
 * (2025-06-18 transports, "Protocol Version Header"). Notifications and responses get 202. A
 * batch (a JSON array) only on a session negotiated at 2025-03-26, the one revision that has them.
 * Answers are JSON.
 */
final class SessionRequests {
    private final McpEndpoint endpoint;

    SessionRequests(McpEndpoint endpoint) {
        this.endpoint = endpoint;
    }

    CompletionStage<Response> handle(Request req, JsonNode message, String header) {
        if (header != null && !McpEndpoint.LEGACY.contains(header)) {
            return McpEndpoint.done(JsonRpc.fail(400, null, JsonRpc.INVALID_REQUEST, "unsupported MCP-Protocol-Version; this server "
                    + "speaks " + ModernRequests.supported()));
        }
        if (message.isObject() && "initialize".equals(message.path("method").asString(null))) return initialize(req, (ObjectNode) message);
        if (!message.isObject() && !message.isArray()) {
            return McpEndpoint.done(JsonRpc.fail(400, null, JsonRpc.INVALID_REQUEST, "not a JSON-RPC message"));
        }
        String id = req.header("Mcp-Session-Id").orElse(null);
        if (id == null) {
            return McpEndpoint.done(JsonRpc.fail(400, message.get("id"), JsonRpc.INVALID_REQUEST,
                    "no Mcp-Session-Id: initialize first, then name the session on every request"));
        }
        return endpoint.sessions().find(id, req.principal()).thenCompose(found -> {
            if (found.isEmpty()) {
                return McpEndpoint.done(JsonRpc.fail(404, message.get("id"), JsonRpc.INVALID_REQUEST, "no such session: initialize again"));
            }
            McpSessions.Session s = found.get();
            if (header != null && !header.equals(s.version()) && !s.version().equals("2025-03-26")) {
                return McpEndpoint.done(JsonRpc.fail(400, message.get("id"), JsonRpc.INVALID_REQUEST,
                        "MCP-Protocol-Version " + header + " is not this session's, " + s.version()));
            }
            if (message.isArray()) return batch(req, (ArrayNode) message, s);
            return one(req, message, s, true).thenApply(answer -> answer == null ? Response.status(202) : answer instanceof Response r ? r
                    : JsonRpc.answer(200, (JsonNode) answer));
        });
    }

    private CompletionStage<Response> initialize(Request req, ObjectNode message) {
        JsonNode id = message.get("id");
        JsonNode params = message.get("params");
        String asked = params == null ? null : params.path("protocolVersion").asString(null);
        if (id == null || asked == null) {
            return McpEndpoint.done(JsonRpc.fail(400, id, JsonRpc.INVALID_PARAMS, "initialize is a request with params.protocolVersion"));
        }
        String version = McpEndpoint.LEGACY.contains(asked) ? asked : McpEndpoint.LEGACY.get(0);
        return endpoint.sessions().open(version, req.principal()).thenApply(s -> {
            ObjectNode result = JsonRpc.NODES.objectNode().put("protocolVersion", version);
            ObjectNode caps = Methods.capabilities();
            caps.putObject("logging");
            result.set("capabilities", caps);
            result.putObject("serverInfo").put("name", endpoint.settings().name()).put("version", endpoint.settings().version());
            endpoint.settings().instructions().ifPresent(i -> result.put("instructions", i));
            return JsonRpc.answer(200, JsonRpc.result(id, result)).header("Mcp-Session-Id", s.id());
        });
    }

    /** @return null for nothing to answer (a notification or response), a Response for a refusal, else the JSON-RPC answer */
    private CompletionStage<Object> one(Request req, JsonNode message, McpSessions.Session s, boolean mayStream) {
        if (!message.isObject()) return McpEndpoint.done(JsonRpc.error(null, JsonRpc.INVALID_REQUEST, "not a JSON-RPC message", null));
        JsonNode id = message.get("id");
        JsonNode method = message.get("method");
        if (method == null) {
            // a response to a request of ours (we send none), or garbage: accepted, nothing to say
            return McpEndpoint.done(message.has("result") || message.has("error") ? null
                    : JsonRpc.error(id, JsonRpc.INVALID_REQUEST, "not a JSON-RPC request, notification or response", null));
        }
        if (!"2.0".equals(message.path("jsonrpc").asString(null)) || !method.isString()) {
            return McpEndpoint.done(JsonRpc.error(id, JsonRpc.INVALID_REQUEST, "not a JSON-RPC 2.0 request", null));
        }
        if (id == null) return McpEndpoint.done(null); // notifications/initialized, cancelled, ...: accepted
        String name = method.asString();
        if (name.equals("logging/setLevel")) {
            String level = message.path("params").path("level").asString(null);
            if (CallNotices.level(level) == null) return McpEndpoint.done(JsonRpc.error(id, JsonRpc.INVALID_PARAMS, "unknown level", null));
            return endpoint.sessions().logLevel(s, level).thenApply(v -> JsonRpc.result(id, JsonRpc.NODES.objectNode()));
        }
        if (name.equals("tools/call") && mayStream) {
            Object stream = new Methods(endpoint).streamed(req, message.get("params"), s.logLevel(), a -> a.failed()
                    ? JsonRpc.error(id, a.errorCode(), a.errorMessage(), a.data()) : JsonRpc.result(id, a.result()),
                    endpoint.sessions().events(s.id()));
            if (stream != null) return McpEndpoint.done(stream);
        }
        if (name.equals("initialize")) {
            return McpEndpoint.done(JsonRpc.error(id, JsonRpc.INVALID_REQUEST, "this session is initialized already", null));
        }
        return new Methods(endpoint).call(req, name, message.get("params")).thenApply(a -> {
            if (a.refusal() != null) return a.refusal();
            if (a.failed()) return JsonRpc.error(id, a.errorCode(), a.errorMessage(), a.data());
            return JsonRpc.result(id, a.result());
        });
    }

    private CompletionStage<Response> batch(Request req, ArrayNode batch, McpSessions.Session s) {
        if (!s.version().equals("2025-03-26")) {
            return McpEndpoint.done(JsonRpc.fail(400, null, JsonRpc.INVALID_REQUEST, "batches are part of 2025-03-26 only; this session is "
                    + s.version()));
        }
        if (batch.isEmpty()) return McpEndpoint.done(JsonRpc.fail(400, null, JsonRpc.INVALID_REQUEST, "an empty batch"));
        List<CompletableFuture<Object>> parts = new ArrayList<>();
        for (JsonNode m : batch) parts.add(one(req, m, s, false).toCompletableFuture());
        return CompletableFuture.allOf(parts.toArray(CompletableFuture[]::new)).thenApply(v -> {
            ArrayNode out = JsonRpc.NODES.arrayNode();
            for (CompletableFuture<Object> p : parts) {
                Object a = p.join();
                if (a instanceof Response r) return r; // a refusal (401, 403) answers the whole request
                if (a != null) out.add((JsonNode) a);
            }
            return out.isEmpty() ? Response.status(202) : JsonRpc.answer(200, out);
        });
    }
}
