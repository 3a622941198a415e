package dev.tidemill.internal.mcp;

import dev.tidemill.Request;
import dev.tidemill.Response;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CompletionStage;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The stateless revision (2026-07-28): each request names its version in {@code _meta} and in
 * {@code MCP-Protocol-Version}, and mirrors its method and name in {@code Mcp-Method} and
 * {@code Mcp-Name}; a header that is missing or disagrees with the body is 400 {@code HeaderMismatch}
 * (transports/streamable-http, "Server Validation"), a version this server does not speak is 400
 * {@code UnsupportedProtocolVersionError} naming the ones it does (basic/versioning), an unknown
 * method 404 with -32601 ("Protocol Version Header"). Nothing is kept between requests: a session
 * id, if sent, is ignored ("Earlier Streamable HTTP Revisions").
 */
final class ModernRequests {
    static final String CAPABILITIES_META = "io.modelcontextprotocol/clientCapabilities";
    static final String LOG_LEVEL_META = "io.modelcontextprotocol/logLevel";
    /** How long a client may reuse a list or a read (server/utilities/caching): the tools do not change while the server runs. */
    static final long TTL_MILLIS = 300_000;
    private static final String SENTINEL_START = "=?base64?";
    private static final String SENTINEL_END = "?=";

    private final McpEndpoint endpoint;

    ModernRequests(McpEndpoint endpoint) {
        this.endpoint = endpoint;
    }

    CompletionStage<Response> handle(Request req, ObjectNode message, String header) {
        JsonNode id = message.get("id");
        if (!"2.0".equals(message.path("jsonrpc").asString(null)) || !message.path("method").isString()) {
            return McpEndpoint.done(JsonRpc.fail(400, id, JsonRpc.INVALID_REQUEST, "not a JSON-RPC 2.0 request"));
        }
        String method = message.get("method").asString();
        JsonNode params = message.get("params");
        JsonNode metaObject = params == null ? null : params.get("_meta");
        JsonNode meta = metaObject == null ? null : metaObject.get(McpEndpoint.VERSION_META);
        if (header == null) return mismatch(id, "the MCP-Protocol-Version header is missing");
        // basic/index "_meta": every request carries its version and the client's capabilities (clientInfo is a SHOULD)
        if (meta == null || !meta.isString() || !metaObject.path(CAPABILITIES_META).isObject()) {
            return McpEndpoint.done(JsonRpc.fail(400, id, JsonRpc.INVALID_PARAMS, "params._meta must carry " + McpEndpoint.VERSION_META
                    + " and " + CAPABILITIES_META));
        }
        if (!header.equals(meta.asString())) {
            return mismatch(id, "MCP-Protocol-Version header " + printable(header) + " does not match the body's " + printable(meta.asString()));
        }
        if (!McpEndpoint.MODERN.equals(header)) {
            // the versions this path speaks, as server/discover lists them; the session-based ones begin with initialize
            ObjectNode data = JsonRpc.NODES.objectNode();
            data.putArray("supported").add(McpEndpoint.MODERN);
            data.put("requested", header);
            return McpEndpoint.done(JsonRpc.answer(400, JsonRpc.error(id, JsonRpc.UNSUPPORTED_VERSION, "Unsupported protocol version", data)));
        }
        String methodHeader = req.header("Mcp-Method").orElse(null);
        if (methodHeader == null) return mismatch(id, "the Mcp-Method header is missing");
        if (!methodHeader.equals(method)) return mismatch(id, "Mcp-Method header " + printable(methodHeader) + " does not match " + method);
        String named = method.equals("tools/call") || method.equals("prompts/get") ? "name" : method.equals("resources/read") ? "uri" : null;
        if (named != null) {
            String nameHeader = req.header("Mcp-Name").orElse(null);
            if (nameHeader == null) return mismatch(id, "the Mcp-Name header is missing");
            String decoded = decode(nameHeader);
            JsonNode bodyName = params.get(named);
            if (decoded == null || bodyName == null || !decoded.equals(bodyName.asString(null))) {
                return mismatch(id, "Mcp-Name header does not match params." + named);
            }
        }
        if (method.equals("tools/call")) {
            Tool tool = endpoint.tools().get(params.path("name").asString(""));
            String why = tool == null ? null : mirrored(req, tool, params.get("arguments"));
            if (why != null) return mismatch(id, why);
        }
        if (id == null) return McpEndpoint.done(Response.status(202)); // a notification: nothing to answer
        if (method.equals("server/discover")) return McpEndpoint.done(JsonRpc.answer(200, JsonRpc.result(id, discover())));
        if (!Methods.shared(method) || method.equals("ping")) { // ping is gone from 2026-07-28 (changelog)
            return McpEndpoint.done(JsonRpc.fail(404, id, JsonRpc.METHOD_NOT_FOUND, "method not found: " + method));
        }
        if (method.equals("tools/call")) {
            // server/utilities/logging: messages only for a request that names its level
            String level = metaObject.path(LOG_LEVEL_META).isString() ? metaObject.get(LOG_LEVEL_META).asString() : null;
            Response stream = new Methods(endpoint).streamed(req, params, level, a -> a.failed()
                    ? JsonRpc.error(id, a.errorCode(), a.errorMessage(), a.data())
                    : JsonRpc.result(id, a.result().put("resultType", "complete")), null); // not resumable in this revision
            if (stream != null) return McpEndpoint.done(stream);
        }
        return new Methods(endpoint).call(req, method, params).thenApply(a -> {
            if (a.refusal() != null) return a.refusal();
            if (a.failed()) {
                return JsonRpc.answer(a.errorCode() == JsonRpc.METHOD_NOT_FOUND ? 404 : 200, JsonRpc.error(id, a.errorCode(), a.errorMessage(), a.data()));
            }
            a.result().put("resultType", "complete");
            if (method.endsWith("/list") || method.equals("resources/read")) {
                // what a caller sees depends on who it is once any tool needs a requirement: private to that caller
                a.result().put("ttlMs", TTL_MILLIS).put("cacheScope", endpoint.anyGuarded() ? "private" : "public");
            }
            return JsonRpc.answer(200, JsonRpc.result(id, a.result()));
        });
    }

    private ObjectNode discover() {
        ObjectNode r = JsonRpc.NODES.objectNode().put("resultType", "complete");
        r.putArray("supportedVersions").add(McpEndpoint.MODERN);
        r.set("capabilities", Methods.capabilities());
        r.putObject("_meta").putObject("io.modelcontextprotocol/serverInfo").put("name", endpoint.settings().name())
                .put("version", endpoint.settings().version());
        endpoint.settings().instructions().ifPresent(i -> r.put("instructions", i));
        return r;
    }

    private static CompletionStage<Response> mismatch(JsonNode id, String why) {
        return McpEndpoint.done(JsonRpc.fail(400, id, JsonRpc.HEADER_MISMATCH, "Header mismatch: " + why));
    }

    /**
     * "Server Behavior for Custom Headers": each argument the tool mirrors into {@code Mcp-Param-*}
     * that the call gives must come with its header, equal after decoding (integers compared as
     * numbers); @return what is wrong, else null
     */
    private static String mirrored(Request req, Tool tool, JsonNode arguments) {
        for (java.util.Map.Entry<String, String> h : tool.headers().entrySet()) {
            JsonNode value = arguments == null ? null : arguments.get(h.getKey());
            String field = "Mcp-Param-" + h.getValue();
            java.util.Optional<String> header = req.header(field);
            if (value == null || value.isNull()) continue; // nothing to mirror: the header is not expected
            if (header.isEmpty()) return "the " + field + " header is missing, and arguments." + h.getKey() + " is given";
            String decoded = decode(header.get().strip());
            if (decoded == null) return "the " + field + " header is not valid (Base64)";
            boolean same = value.isIntegralNumber() ? sameNumber(decoded, value) : value.isBoolean()
                    ? decoded.equals(Boolean.toString(value.asBoolean())) : value.isString() && decoded.equals(value.asString());
            if (!same) return field + " header does not match arguments." + h.getKey();
        }
        return null;
    }

    private static boolean sameNumber(String text, JsonNode value) {
        try {
            return new java.math.BigDecimal(text).compareTo(value.decimalValue()) == 0;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /** @return the header's value, Base64 sentinel decoded; null if it is not valid */
    static String decode(String value) {
        if (!value.startsWith(SENTINEL_START) || !value.endsWith(SENTINEL_END) || value.length() < SENTINEL_START.length() + SENTINEL_END.length()) {
            return value.chars().allMatch(c -> c == '\t' || (c >= 0x20 && c <= 0x7e)) ? value : null; // visible ASCII, space, tab
        }
        String payload = value.substring(SENTINEL_START.length(), value.length() - SENTINEL_END.length());
        if (payload.length() % 4 != 0) return null; // padding is required (transports, "Value Encoding": standard Base64)
        try {
            return new String(Base64.getDecoder().decode(payload), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static String printable(String s) {
        String t = s.length() > 64 ? s.substring(0, 64) + "..." : s;
        return "'" + t.replaceAll("[^\\x20-\\x7e]", "?") + "'";
    }

    static List<String> supported() {
        return List.of(McpEndpoint.MODERN, McpEndpoint.LEGACY.get(0), McpEndpoint.LEGACY.get(1), McpEndpoint.LEGACY.get(2));
    }
}
