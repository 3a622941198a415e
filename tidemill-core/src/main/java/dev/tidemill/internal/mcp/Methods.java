package dev.tidemill.internal.mcp;

import dev.tidemill.Request;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CompletionStage;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The methods both eras share: {@code ping}, {@code tools/list} (the tools this caller may call,
 * in pages behind an opaque cursor: 2025-11-25 server/utilities/pagination) and {@code tools/call}
 * ({@link ToolCalls}), and {@code resources/list}, empty. The result of one, or what to answer
 * instead: a JSON-RPC error, or an HTTP refusal of the whole request (401, 403).
 */
final class Methods {
    /** What a method came to. */
    record Answer(ObjectNode result, int errorCode, String errorMessage, dev.tidemill.Response refusal, String uri) {
        Answer(ObjectNode result, int errorCode, String errorMessage, dev.tidemill.Response refusal) {
            this(result, errorCode, errorMessage, refusal, null);
        }

        static Answer ok(ObjectNode result) {
            return new Answer(result, 0, null, null);
        }

        static Answer error(int code, String message) {
            return new Answer(null, code, message, null);
        }

        /** @return the error's {@code data}: the URI not found, if that was it */
        JsonNode data() {
            return uri == null ? null : JsonRpc.NODES.objectNode().put("uri", uri);
        }

        boolean failed() {
            return result == null && refusal == null;
        }
    }

    private final McpEndpoint endpoint;

    Methods(McpEndpoint endpoint) {
        this.endpoint = endpoint;
    }

    /** @return whether {@code method} is one of these */
    static boolean shared(String method) {
        return switch (method) {
            case "ping", "tools/list", "tools/call", "resources/list", "resources/templates/list", "resources/read" -> true;
            default -> false;
        };
    }

    CompletionStage<Answer> call(Request req, String method, JsonNode params) {
        return switch (method) {
            case "ping" -> McpEndpoint.done(Answer.ok(JsonRpc.NODES.objectNode()));
            case "tools/list" -> McpEndpoint.done(list(req, params));
            case "tools/call" -> callTool(req, params, null);
            case "resources/list" -> McpEndpoint.done(Answer.ok(resources(req, false)));
            case "resources/templates/list" -> McpEndpoint.done(Answer.ok(resources(req, true)));
            case "resources/read" -> read(req, params);
            default -> McpEndpoint.done(Answer.error(JsonRpc.METHOD_NOT_FOUND, "method not found: " + method));
        };
    }

    private Answer list(Request req, JsonNode params) {
        List<Tool> visible = new ArrayList<>();
        for (Tool t : endpoint.tools().values()) {
            if (t.requirement().isMetBy(req.principal())) visible.add(t);
        }
        int from = 0;
        JsonNode cursor = params == null ? null : params.get("cursor");
        if (cursor != null && !cursor.isNull()) {
            try {
                from = Integer.parseInt(new String(Base64.getUrlDecoder().decode(cursor.asString()), StandardCharsets.US_ASCII));
            } catch (RuntimeException e) {
                from = -1;
            }
            if (from < 0 || from > visible.size()) return Answer.error(JsonRpc.INVALID_PARAMS, "invalid cursor");
        }
        int to = Math.min(visible.size(), from + endpoint.settings().pageSize());
        ObjectNode result = JsonRpc.NODES.objectNode();
        ArrayNode out = result.putArray("tools");
        for (Tool t : visible.subList(from, to)) out.add(t.definition());
        if (to < visible.size()) {
            result.put("nextCursor", Base64.getUrlEncoder().withoutPadding().encodeToString(Integer.toString(to).getBytes(StandardCharsets.US_ASCII)));
        }
        return Answer.ok(result);
    }

    /**
     * {@code tools/call}, answered as an SSE stream when the client asked for progress or log
     * messages (a progress token, or a log level) and may call the tool: its notifications, then
     * the result. A caller the tool's requirement refuses gets the plain path, whose 401 or 403
     * answers the whole request (a stream's status is sent before the call runs).
     *
     * @param logLevel the client's level (the session's, or the request's {@code _meta}), null for none
     * @param finish the JSON-RPC message that ends the stream, from the call's answer
     * @return the stream, or null to answer the plain way
     */
    dev.tidemill.Response streamed(Request req, JsonNode params, String logLevel,
            java.util.function.Function<Answer, JsonNode> finish, EventLog log) {
        JsonNode name = params == null ? null : params.get("name");
        Tool tool = name == null || !name.isString() ? null : endpoint.tools().get(name.asString());
        JsonNode token = params == null ? null : params.path("_meta").get("progressToken");
        if (tool == null || !tool.requirement().isMetBy(req.principal())) return null;
        if (token == null && CallNotices.level(logLevel) == null) return null;
        return dev.tidemill.Response.sse(events -> {
            // 2025-11-25 transports: an event id and empty data first, so a client that loses the stream can resume it
            if (log != null) events.send(dev.tidemill.SseEvent.data("").id(log.primingId()));
            CallNotices notices = new CallNotices(tool.name(), token, CallNotices.level(logLevel),
                    n -> events.send(event(n.toString(), log, false)));
            callTool(req, params, notices).whenComplete((a, failed) -> {
                Answer answer = failed != null ? Answer.error(JsonRpc.INTERNAL_ERROR, "the tool call failed")
                        : a.refusal() != null ? Answer.error(JsonRpc.INTERNAL_ERROR, "the tool's route refused the caller") : a;
                events.send(event(finish.apply(answer).toString(), log, true)).whenComplete((v, e) -> events.close());
            });
        }).header("X-Accel-Buffering", "no");
    }

    /** @return an SSE event of {@code json}, numbered in {@code log} (when the answer is resumable) */
    private static dev.tidemill.SseEvent event(String json, EventLog log, boolean last) {
        dev.tidemill.SseEvent e = dev.tidemill.SseEvent.data(json);
        return log == null ? e : e.id(log.append(json, last));
    }

    private CompletionStage<Answer> callTool(Request req, JsonNode params, CallNotices given) {
        JsonNode name = params == null ? null : params.get("name");
        if (name == null || !name.isString()) return McpEndpoint.done(Answer.error(JsonRpc.INVALID_PARAMS, "tools/call needs params.name"));
        Tool tool = endpoint.tools().get(name.asString());
        if (tool == null) return McpEndpoint.done(Answer.error(JsonRpc.INVALID_PARAMS, "unknown tool: " + name.asString()));
        JsonNode args = params.get("arguments");
        if (args != null && !args.isNull() && !args.isObject()) {
            return McpEndpoint.done(Answer.error(JsonRpc.INVALID_PARAMS, "params.arguments must be an object"));
        }
        CallNotices notices = given != null ? given : new CallNotices(tool.name(), null, null, n -> { });
        return ToolCalls.call(req, tool, args, notices).thenApply(o -> o.refusal() != null ? new Answer(null, 0, null, o.refusal()) : Answer.ok(o.result()));
    }

    /** The resources (or templates) this caller may read; one page: resources are few, and declared in code. */
    private ObjectNode resources(Request req, boolean templates) {
        ObjectNode result = JsonRpc.NODES.objectNode();
        ArrayNode out = result.putArray(templates ? "resourceTemplates" : "resources");
        for (McpResource r : endpoint.resources().values()) {
            if (r.template() == templates && r.requirement().isMetBy(req.principal())) out.add(r.definition());
        }
        return result;
    }

    /**
     * {@code resources/read}: an exact URI first, then the templates in declaration order. An unknown
     * URI is -32602 with the URI in {@code data} (2026-07-28 server/resources, "Error Handling").
     */
    private CompletionStage<Answer> read(Request req, JsonNode params) {
        JsonNode uri = params == null ? null : params.get("uri");
        if (uri == null || !uri.isString()) return McpEndpoint.done(Answer.error(JsonRpc.INVALID_PARAMS, "resources/read needs params.uri"));
        String read = uri.asString();
        McpResource exact = endpoint.resources().get(read);
        if (exact != null && !exact.template()) return exact.read(req, read, java.util.Map.of());
        for (McpResource r : endpoint.resources().values()) {
            java.util.Map<String, String> values = r.template() ? r.match(read) : null;
            if (values != null) return r.read(req, read, values);
        }
        return McpEndpoint.done(new Answer(null, JsonRpc.INVALID_PARAMS, "Resource not found", null, read));
    }

    /** @return the capabilities this server declares */
    static ObjectNode capabilities() {
        ObjectNode c = JsonRpc.NODES.objectNode();
        c.putObject("tools").put("listChanged", false);
        c.putObject("resources").put("listChanged", false).put("subscribe", false);
        return c;
    }
}
