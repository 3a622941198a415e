package dev.tidemill;

import dev.tidemill.internal.openapi.RouteKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What a {@link Route} declares for its description rather than for routing: body and response
 * types, summary, tags, operationId. Kept apart so that {@code Route} stays about the request path.
 */
final class RouteDocs {
    static final String JSON = "application/json";
    static final String FORM = "application/x-www-form-urlencoded";
    static final String MULTIPART = "multipart/form-data";

    Class<?> bodyType;
    String bodyMediaType;
    Class<?> returnType;
    int returnStatus = 200;
    /** The media type of a String or byte[] success answer, see {@link Route#produces(String)}. */
    String produces;
    String summary;
    String description;
    String operationId;
    final List<String> tags = new ArrayList<>();
    RouteKind kind = RouteKind.HTTP;
    String toolName;
    String toolDescription;
    /** Tool arguments mirrored into {@code Mcp-Param-*} headers: argument name to header name part. */
    final java.util.Map<String, String> toolHeaders = new java.util.LinkedHashMap<>();
    String resourceUri;
    String resourceDescription;

    void toolHeader(String argument, String header) {
        Objects.requireNonNull(argument, "argument");
        if (header == null || !header.matches("[!#$%&'*+.^_`|~0-9A-Za-z-]+")) throw new IllegalArgumentException("not a header token: " + header);
        for (String h : toolHeaders.values()) {
            if (h.equalsIgnoreCase(header)) throw new IllegalArgumentException("header " + header + " is mirrored twice");
        }
        toolHeaders.put(argument, header);
    }

    /** An MCP resource's URI: an absolute URI, or a template whose {@code {name}}s are the route's path variables. */
    void resource(String uri, String description, String method, String pattern) {
        Objects.requireNonNull(uri, "uri");
        if (!method.equals("GET")) throw new IllegalArgumentException("a resource is read with GET; " + method + " " + pattern + " is not");
        if (!uri.matches("[A-Za-z][A-Za-z0-9+.-]*:[^\\s]*")) throw new IllegalArgumentException("a resource URI is absolute: " + uri);
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\\{([^}]+)}").matcher(uri);
        while (m.find()) {
            if (!pattern.contains("{" + m.group(1) + "}")) {
                throw new IllegalArgumentException("resource " + uri + ": {" + m.group(1) + "} is no path variable of " + pattern);
            }
        }
        resourceDescription = text("description", description);
        resourceUri = uri;
    }

    /** MCP's tool names (2025-11-25, server/tools, "Tool Names"): 1 to 128 of A-Z, a-z, 0-9, '_', '-' and '.'. */
    void tool(String name, String description) {
        Objects.requireNonNull(name, "name");
        if (!name.matches("[A-Za-z0-9_.-]{1,128}")) {
            throw new IllegalArgumentException("a tool name is 1 to 128 of A-Z, a-z, 0-9, '_', '-' and '.': " + name);
        }
        toolDescription = text("description", description);
        toolName = name;
    }

    void body(Class<?> type, String mediaType) {
        Objects.requireNonNull(type, "type");
        if (type.isPrimitive() || type == String.class || type == byte[].class) {
            throw new IllegalArgumentException("a declared body binds to a record or bean, not " + type.getSimpleName());
        }
        bodyType = type;
        bodyMediaType = mediaType;
    }

    void returns(int status, Class<?> type) {
        Objects.requireNonNull(type, "type");
        if (status < 200 || status > 299) throw new IllegalArgumentException("a declared return status is 2xx, not " + status);
        returnStatus = status;
        returnType = type;
    }

    /** RFC 9110 8.3.1: {@code type "/" subtype *( OWS ";" OWS parameter )}, each name a token. */
    static String mediaType(String value) {
        Objects.requireNonNull(value, "mediaType");
        String token = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
        String param = "[ \\t]*;[ \\t]*" + token + "=(" + token + "|\"([^\"\\\\]|\\\\.)*\")";
        if (!value.matches(token + "/" + token + "(" + param + ")*")) {
            throw new IllegalArgumentException("not a media type (type/subtype[; name=value]): " + value);
        }
        return value;
    }

    static String text(String what, String value) {
        Objects.requireNonNull(value, what);
        if (value.isBlank()) throw new IllegalArgumentException(what + " must not be blank");
        return value;
    }

    static String operationIdText(String id) {
        Objects.requireNonNull(id, "operationId");
        if (id.isEmpty() || !id.chars().allMatch(c -> c < 0x80 && (Character.isLetterOrDigit(c) || c == '_' || c == '.' || c == '-'))) {
            throw new IllegalArgumentException("operationId must be letters, digits, '_', '.' or '-': " + id);
        }
        return id;
    }
}
