package dev.tidemill.internal.openapi;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The problem responses the server itself sends ({@code application/problem+json}, as
 * {@code ProblemJson} writes them), each defined once in {@code components/responses} when an
 * operation first refers to it, with the {@code Problem}, {@code ValidationProblem} and
 * {@code FieldError} schemas they use.
 */
final class Responses {
    static final Set<String> SCHEMA_NAMES = Set.of("Problem", "ValidationProblem", "FieldError");
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final String PROBLEM = "application/problem+json";

    /** status -> component name and description. */
    private static final Map<Integer, String[]> KNOWN = new LinkedHashMap<>();

    static {
        known(400, "BadRequest", "Bad Request: a malformed query string, path encoding, JSON or form body");
        known(401, "Unauthorized", "Unauthorized: the route needs a caller, and the request's credentials are missing "
                + "or not valid (WWW-Authenticate names the schemes taken)");
        known(403, "Forbidden", "Forbidden: the caller lacks what the route requires, or a WebSocket handshake's Origin "
                + "is not allowed");
        known(404, "NotFound", "Not Found: no such asset");
        known(413, "ContentTooLarge", "Content Too Large: the body exceeds the route's maxBodyBytes (or too many form fields)");
        known(415, "UnsupportedMediaType", "Unsupported Media Type: the body is not of the media type the route takes, "
                + "or its Content-Encoding is not gzip, deflate, br or zstd");
        known(416, "RangeNotSatisfiable", "Range Not Satisfiable");
        known(422, "ValidationFailed", "Validation failed: one entry in errors per parameter or body field that "
                + "failed coercion or Bean Validation");
        known(426, "UpgradeRequired", "Upgrade Required: not a WebSocket handshake, or not version 13");
        known(500, "InternalServerError", "Internal Server Error: the handler threw (no detail unless debug is on)");
        known(503, "ServiceUnavailable", "Service Unavailable: every worker is at its concurrency limit (Retry-After: 1)");
        known(504, "GatewayTimeout", "Gateway Timeout: no response within the route's request timeout");
    }

    private static void known(int status, String name, String description) {
        KNOWN.put(status, new String[] {name, description});
    }

    private final Schemas schemas;
    private final Map<String, ObjectNode> used = new TreeMap<>();

    Responses(Schemas schemas) {
        this.schemas = schemas;
    }

    /** @param status one of the statuses above @return a {@code $ref} to its response, defining it on first use */
    ObjectNode ref(int status) {
        String[] k = KNOWN.get(status);
        if (k == null) throw new IllegalArgumentException("no problem response for " + status);
        if (!used.containsKey(k[0])) {
            ObjectNode r = NODES.objectNode().put("description", k[1]);
            if (status == 503) {
                r.putObject("headers").putObject("Retry-After").put("description", "seconds to wait before retrying")
                        .putObject("schema").put("type", "integer");
            }
            String schema = status == 422 ? validationProblem() : problem();
            r.putObject("content").putObject(PROBLEM).putObject("schema").put("$ref", "#/components/schemas/" + schema);
            used.put(k[0], r);
        }
        return NODES.objectNode().put("$ref", "#/components/responses/" + k[0]);
    }

    /** @return every response referred to, by name */
    Map<String, ObjectNode> used() {
        return used;
    }

    private String problem() {
        ObjectNode s = NODES.objectNode().put("type", "object")
                .put("description", "An RFC 9457 problem detail");
        ObjectNode p = s.putObject("properties");
        p.putObject("type").put("type", "string").put("format", "uri-reference")
                .put("description", "about:blank unless a handler's problem names its own type");
        p.putObject("title").put("type", "string");
        p.putObject("status").put("type", "integer").put("format", "int32").put("minimum", 400).put("maximum", 599);
        p.putObject("detail").put("type", "string");
        p.putObject("errors").put("type", "array").putObject("items").put("$ref", "#/components/schemas/FieldError");
        s.putArray("required").add("type").add("title").add("status");
        schemas.define("Problem", s);
        fieldError();
        return "Problem";
    }

    private String validationProblem() {
        ObjectNode s = NODES.objectNode().put("type", "object")
                .put("description", "An RFC 9457 problem detail with one entry per failing input");
        ObjectNode p = s.putObject("properties");
        p.putObject("type").put("type", "string").put("format", "uri-reference").put("const", "about:blank");
        p.putObject("title").put("type", "string").put("const", "Validation failed");
        p.putObject("status").put("type", "integer").put("format", "int32").put("const", 422);
        p.putObject("detail").put("type", "string")
                .put("description", "'invalid request parameters' for path and query parameters; absent for a body");
        p.putObject("errors").put("type", "array").put("minItems", 1)
                .putObject("items").put("$ref", "#/components/schemas/FieldError");
        s.putArray("required").add("type").add("title").add("status").add("errors");
        schemas.define("ValidationProblem", s);
        fieldError();
        return "ValidationProblem";
    }

    private void fieldError() {
        ObjectNode s = NODES.objectNode().put("type", "object").put("description", "One failing input");
        ObjectNode p = s.putObject("properties");
        p.putObject("type").put("type", "string").put("description",
                "missing, a coercion failure (int_parsing, uuid_parsing, date_parsing, enum...) or the constraint's "
                        + "simple name (NotBlank, Size, Min...)");
        ObjectNode loc = p.putObject("loc").put("type", "array").put("minItems", 1)
                .put("description", "where: path, query, header, cookie or body, then the parameter name or the field path");
        loc.putArray("prefixItems").addObject().putArray("enum").add("path").add("query").add("header").add("cookie").add("body");
        loc.putObject("items").put("type", "string");
        p.putObject("msg").put("type", "string");
        p.putObject("input").put("type", "string").put("description", "the offending value as received, when it was text");
        s.putArray("required").add("type").add("loc").add("msg");
        schemas.define("FieldError", s);
    }
}
