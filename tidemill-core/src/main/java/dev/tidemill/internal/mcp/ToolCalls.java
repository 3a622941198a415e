package dev.tidemill.internal.mcp;

import dev.tidemill.Param;
import dev.tidemill.Request;
import dev.tidemill.Response;
import dev.tidemill.internal.exchange.Exchange;
import dev.tidemill.internal.exchange.InnerCall;
import dev.tidemill.internal.openapi.ToolSchemas;
import io.netty.handler.codec.http.HttpHeaders;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code tools/call}: the arguments become the tool's route's request (path and query parameters by
 * name, the rest the JSON body), which runs through the server's request path as the MCP request's
 * caller ({@link InnerCall}: its credentials are the MCP request's own), and the route's answer
 * becomes the call's result: a 2xx carries {@code structuredContent} and a text copy, any other
 * status {@code isError: true} with the problem as content (2025-11-25 server/tools, "Error
 * Handling": errors an agent can correct are results, not protocol errors). A 401 or 403 is not a
 * tool result: the MCP request itself is answered 401 or 403 with the route's challenge, so a client
 * can obtain or step up its token (2025-11-25 basic/authorization, "Scope Challenge Handling").
 */
final class ToolCalls {
    /** Request fields a call does not take from the MCP request: they describe the MCP request itself. */
    private static final Set<String> NOT_FORWARDED = Set.of("content-length", "content-type", "accept", "accept-encoding",
            "transfer-encoding", "connection", "expect", "te", "upgrade", "mcp-session-id", "mcp-protocol-version", "mcp-method",
            "mcp-name", "last-event-id");

    private ToolCalls() {}

    /** What a call came to: a result for the JSON-RPC response, or an HTTP refusal of the MCP request. */
    record Outcome(ObjectNode result, Response refusal) {}

    static CompletionStage<Outcome> call(Request mcpRequest, Tool tool, JsonNode arguments, CallNotices notices) {
        ObjectNode args = arguments instanceof ObjectNode o ? o : JsonRpc.NODES.objectNode();
        StringBuilder uri = new StringBuilder();
        String missing = path(tool, args, uri);
        if (missing != null) return CompletableFuture.completedFuture(new Outcome(toolError("missing argument " + missing), null));
        ObjectNode body = JsonRpc.NODES.objectNode();
        String unknown = queryAndBody(tool, args, uri, body);
        if (unknown != null) return CompletableFuture.completedFuture(new Outcome(toolError("unknown argument " + unknown), null));
        HttpHeaders headers = forward(mcpRequest);
        byte[] bytes = new byte[0];
        if (tool.route().body().isPresent()) {
            JsonNode value = tool.schemas().flatBody() ? body : args.get(ToolSchemas.BODY);
            bytes = value == null ? new byte[0] : JsonRpc.MAPPER.writeValueAsBytes(value);
            headers.set("Content-Type", JsonRpc.JSON);
        }
        headers.set("Content-Length", Integer.toString(bytes.length));
        return InnerCall.run((Exchange) mcpRequest, tool.route().method(), uri.toString(), headers, bytes,
                        Map.of(dev.tidemill.ToolCall.ATTRIBUTE, notices))
                .thenApply(a -> outcome(mcpRequest, tool, a));
    }

    /** @return the MCP request's fields a call carries (its credentials among them) */
    static HttpHeaders forward(Request mcpRequest) {
        HttpHeaders headers = InnerCall.forwarded((Exchange) mcpRequest, NOT_FORWARDED);
        headers.set("Accept", "application/json, text/plain;q=0.9, */*;q=0.1");
        return headers;
    }

    /** A route's 401 or 403 as the answer to the MCP request itself, its Bearer challenge naming the resource metadata. */
    static Response refusal(Request mcpRequest, InnerCall.Answer a) {
        Response refusal = Response.status(a.status()).bytes(a.body(), a.contentType() == null ? "application/problem+json" : a.contentType());
        String challenge = a.header("WWW-Authenticate");
        String metadata = McpEndpoint.metadataUrl(mcpRequest, mcpRequest.path());
        if (challenge != null) refusal = refusal.header("WWW-Authenticate", withResourceMetadata(challenge, metadata));
        return refusal;
    }

    /** Fills the path from the pattern; @return the name of a missing path argument, else null */
    private static String path(Tool tool, ObjectNode args, StringBuilder uri) {
        for (String seg : tool.route().pattern().split("/")) {
            if (seg.isEmpty()) continue;
            uri.append('/');
            if (!seg.startsWith("{")) {
                uri.append(seg);
                continue;
            }
            boolean rest = seg.startsWith("{*");
            String name = seg.substring(rest ? 2 : 1, seg.length() - 1);
            JsonNode v = args.get(name);
            if (v == null || v.isNull()) return name;
            String text = scalar(v);
            if (rest) {
                String[] parts = text.split("/", -1);
                for (int i = 0; i < parts.length; i++) uri.append(i == 0 ? "" : "/").append(encode(parts[i]));
            } else {
                uri.append(encode(text));
            }
        }
        if (uri.isEmpty()) uri.append('/');
        return null;
    }

    /** Query parameters into {@code uri}, the body's properties into {@code body}; @return an argument no one takes, else null */
    private static String queryAndBody(Tool tool, ObjectNode args, StringBuilder uri, ObjectNode body) {
        char sep = '?';
        for (Param<?> p : tool.route().params()) {
            if (p.location() != Param.Location.QUERY) continue;
            JsonNode v = args.get(p.name());
            if (v == null || v.isNull()) continue;
            Iterator<JsonNode> values = v.isArray() ? v.iterator() : java.util.List.of(v).iterator();
            while (values.hasNext()) {
                uri.append(sep).append(encode(p.name())).append('=').append(encode(scalar(values.next())));
                sep = '&';
            }
        }
        for (Map.Entry<String, JsonNode> e : args.properties()) {
            String name = e.getKey();
            if (tool.schemas().input().get("properties").has(name) && !tool.schemas().bodyProperties().contains(name)) continue;
            if (tool.schemas().bodyProperties().contains(name)) body.set(name, e.getValue());
            else return name;
        }
        return null;
    }

    private static Outcome outcome(Request mcpRequest, Tool tool, InnerCall.Answer a) {
        if (a.status() == 401 || a.status() == 403) return new Outcome(null, refusal(mcpRequest, a));
        String type = a.contentType() != null ? a.contentType() : a.header("Content-Type");
        String mime = type == null ? "" : type.split(";")[0].strip().toLowerCase(java.util.Locale.ROOT);
        String text = new String(a.body(), StandardCharsets.UTF_8);
        ObjectNode result = JsonRpc.NODES.objectNode();
        boolean ok = a.status() >= 200 && a.status() <= 299;
        if (ok && mime.equals(dev.tidemill.ToolContent.MEDIA_TYPE)) {
            JsonNode content = json(mime, text);
            result.set("content", content == null ? JsonRpc.NODES.arrayNode() : content.path("content"));
            result.put("isError", false);
            return new Outcome(result, null);
        }
        if (ok && (mime.startsWith("image/") || mime.startsWith("audio/"))) {
            result.putArray("content").addObject().put("type", mime.startsWith("image/") ? "image" : "audio")
                    .put("data", java.util.Base64.getEncoder().encodeToString(a.body())).put("mimeType", mime);
            result.put("isError", false);
            return new Outcome(result, null);
        }
        result.putArray("content").addObject().put("type", "text").put("text", text);
        if (!ok) {
            result.put("isError", true);
            return new Outcome(result, null);
        }
        JsonNode value = json(mime, text);
        if (value == null && tool.schemas().output().isPresent()) value = JsonRpc.NODES.stringNode(text); // a declared String answer
        if (value != null) {
            if (tool.schemas().wrapsResult() || !value.isObject()) {
                ObjectNode wrapped = JsonRpc.NODES.objectNode();
                wrapped.set(ToolSchemas.RESULT, value);
                value = wrapped;
            }
            result.set("structuredContent", value);
        }
        result.put("isError", false);
        return new Outcome(result, null);
    }

    private static JsonNode json(String contentType, String text) {
        if (contentType == null || !contentType.toLowerCase(java.util.Locale.ROOT).contains("json")) return null;
        try {
            return JsonRpc.MAPPER.readTree(text);
        } catch (RuntimeException e) {
            return null;
        }
    }

    /**
     * Adds {@code resource_metadata} (RFC 9728 section 5.1) to the Bearer challenge of a
     * {@code WWW-Authenticate} value, so a client learns where to get a token; other schemes' challenges stay as they are.
     */
    static String withResourceMetadata(String challenge, String metadata) {
        String param = "resource_metadata=\"" + metadata + "\"";
        if (challenge.equals("Bearer")) return "Bearer " + param;
        if (challenge.startsWith("Bearer,")) return "Bearer " + param + challenge.substring("Bearer".length());
        if (challenge.startsWith("Bearer ")) return "Bearer " + param + ", " + challenge.substring("Bearer ".length());
        return challenge;
    }

    static ObjectNode toolError(String message) {
        ObjectNode result = JsonRpc.NODES.objectNode();
        result.putArray("content").addObject().put("type", "text").put("text", message);
        result.put("isError", true);
        return result;
    }

    private static String scalar(JsonNode v) {
        return v.isString() ? v.asString() : v.toString();
    }

    private static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
