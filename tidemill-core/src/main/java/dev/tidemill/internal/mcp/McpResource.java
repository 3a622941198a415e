package dev.tidemill.internal.mcp;

import dev.tidemill.Request;
import dev.tidemill.Requirement;
import dev.tidemill.Route;
import dev.tidemill.internal.exchange.Exchange;
import dev.tidemill.internal.exchange.InnerCall;
import io.netty.handler.codec.http.HttpHeaders;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.node.ObjectNode;

/**
 * A GET route marked as an MCP resource (2025-11-25 server/resources): {@code resources/read} of
 * its URI runs the route as the caller, and its answer is the resource's contents, text for
 * {@code text/*} and JSON, base64 {@code blob} for anything else. A URI with {@code {name}} parts is
 * a template (listed by {@code resources/templates/list}); each part matches one path segment of
 * the read URI and becomes the route's path variable of that name.
 *
 * @param uri the URI or template
 * @param route the route a read runs
 * @param requirement who may read it
 * @param matcher the read URIs it answers, with a group per template part
 * @param parts the template's part names, in order
 * @param description what it holds
 */
record McpResource(String uri, Route route, Requirement requirement, Pattern matcher, List<String> parts, String description) {

    boolean template() {
        return !parts.isEmpty();
    }

    /** @return the resources, by URI, in registration order; a URI declared twice fails the start */
    static Map<String, McpResource> of(List<Marking> marked) {
        Map<String, McpResource> out = new LinkedHashMap<>();
        for (Marking mark : marked) {
            Route r = mark.route();
            String uri = mark.resourceUri();
            if (uri == null) continue;
            if (out.containsKey(uri)) throw new IllegalStateException("resource " + uri + " is declared twice: " + out.get(uri).route() + " and " + r);
            Requirement who = mark.requirement();
            if (who == null) {
                throw new IllegalStateException("resource " + uri + " (" + r + ") has no auth decision: say who may read it with requires(...)");
            }
            List<String> parts = new ArrayList<>();
            StringBuilder regex = new StringBuilder();
            Matcher m = Pattern.compile("\\{([^}]+)}").matcher(uri);
            int last = 0;
            while (m.find()) {
                regex.append(Pattern.quote(uri.substring(last, m.start()))).append("([^/?#]+)");
                parts.add(m.group(1));
                last = m.end();
            }
            regex.append(Pattern.quote(uri.substring(last)));
            out.put(uri, new McpResource(uri, r, who, Pattern.compile(regex.toString()), List.copyOf(parts), mark.resourceDescription()));
        }
        return out;
    }

    /** @return this resource as {@code resources/list} or {@code resources/templates/list} shows it */
    ObjectNode definition() {
        ObjectNode d = JsonRpc.NODES.objectNode().put(template() ? "uriTemplate" : "uri", uri);
        d.put("name", route.summary().orElse(uri));
        d.put("description", description);
        return d;
    }

    /** @return the values of the template's parts in {@code read}, null if it is not one of this resource's URIs */
    Map<String, String> match(String read) {
        Matcher m = matcher.matcher(read);
        if (!m.matches()) return null;
        Map<String, String> values = new LinkedHashMap<>();
        for (int i = 0; i < parts.size(); i++) values.put(parts.get(i), m.group(i + 1));
        return values;
    }

    /** Runs the route for {@code read}; the answer is {@code contents}, or an HTTP refusal, or an error for a non-2xx. */
    CompletionStage<Methods.Answer> read(Request mcpRequest, String read, Map<String, String> values) {
        StringBuilder path = new StringBuilder();
        for (String seg : route.pattern().split("/")) {
            if (seg.isEmpty()) continue;
            path.append('/');
            if (seg.startsWith("{")) {
                String name = seg.substring(seg.startsWith("{*") ? 2 : 1, seg.length() - 1);
                path.append(URLEncoder.encode(java.net.URLDecoder.decode(values.getOrDefault(name, ""), StandardCharsets.UTF_8),
                        StandardCharsets.UTF_8).replace("+", "%20"));
            } else {
                path.append(seg);
            }
        }
        if (path.isEmpty()) path.append('/');
        HttpHeaders headers = ToolCalls.forward(mcpRequest);
        headers.set("Content-Length", "0");
        return InnerCall.run((Exchange) mcpRequest, "GET", path.toString(), headers, new byte[0], java.util.Map.of()).thenApply(a -> {
            if (a.status() == 401 || a.status() == 403) return new Methods.Answer(null, 0, null, ToolCalls.refusal(mcpRequest, a));
            if (a.status() < 200 || a.status() > 299) {
                return Methods.Answer.error(JsonRpc.INTERNAL_ERROR, "reading " + read + " failed: " + a.status() + " "
                        + new String(a.body(), StandardCharsets.UTF_8));
            }
            String type = a.contentType() != null ? a.contentType() : a.header("Content-Type");
            String mime = type == null ? "application/octet-stream" : type.split(";")[0].strip();
            ObjectNode content = JsonRpc.NODES.objectNode().put("uri", read).put("mimeType", mime);
            if (mime.startsWith("text/") || mime.endsWith("json") || mime.endsWith("+json") || mime.endsWith("xml")) {
                content.put("text", new String(a.body(), StandardCharsets.UTF_8));
            } else {
                content.put("blob", Base64.getEncoder().encodeToString(a.body()));
            }
            ObjectNode result = JsonRpc.NODES.objectNode();
            result.putArray("contents").add(content);
            return Methods.Answer.ok(result);
        });
    }
}
