package dev.tidemill.internal.openapi;

import dev.tidemill.Param;
import dev.tidemill.ParamType;
import dev.tidemill.Requirement;
import dev.tidemill.Route;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Builds the OpenAPI 3.1 document of an app from its routes: the same {@link Route}s, {@link Param}s
 * and declared types the router and the binder use, so the document cannot describe a route that
 * does not exist or a parameter the router does not check. Built once (at start, or by the
 * {@code openapi} command); the problem responses are {@link Responses}'.
 */
public final class OpenApiDocument {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    /** The methods a 3.1 path item has a field for; a route of another method is left out. */
    private static final Set<String> METHODS = Set.of("GET", "PUT", "POST", "DELETE", "OPTIONS", "PATCH", "TRACE");

    /**
     * One route to describe.
     *
     * @param route the route
     * @param kind what it serves
     * @param requirement who may call it (the route's, its groups', else the app's), null for anyone
     */
    public record Entry(Route route, RouteKind kind, Requirement requirement) {
        /** A route anyone may call. */
        public Entry(Route route, RouteKind kind) {
            this(route, kind, null);
        }
    }

    /**
     * The credentials the app takes, named in {@code components/securitySchemes}.
     *
     * @param bearer bearer tokens (JWT)
     * @param apiKey API keys in {@code Authorization: ApiKey}
     * @param apiKeyHeader the header an API key may come in alone, if any
     */
    public record Schemes(boolean bearer, boolean apiKey, Optional<String> apiKeyHeader) {
        /** No credentials configured. */
        public static final Schemes NONE = new Schemes(false, false, Optional.empty());

        /** @return the scheme names, in the order an operation's {@code security} lists them */
        List<String> names() {
            List<String> n = new ArrayList<>();
            if (bearer) n.add("bearer");
            if (apiKey) n.add("apiKey");
            if (apiKeyHeader.isPresent()) n.add("apiKeyHeader");
            return n;
        }
    }

    /**
     * The document's {@code info}.
     *
     * @param title the API's name
     * @param version the API's version
     * @param description CommonMark text, if any
     */
    public record Info(String title, String version, Optional<String> description) {}

    private OpenApiDocument() {}

    /**
     * @param info the info object
     * @param entries the routes, in registration order; operational ones are skipped
     * @return the document as indented UTF-8 JSON
     * @throws IllegalStateException if two operations have the same operationId
     */
    public static byte[] render(Info info, List<Entry> entries) {
        return render(info, entries, Schemes.NONE);
    }

    /**
     * @param info the info object
     * @param entries the routes, in registration order; operational ones are skipped
     * @param schemes the credentials the app takes
     * @return the document as indented UTF-8 JSON
     */
    public static byte[] render(Info info, List<Entry> entries, Schemes schemes) {
        return JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build().writeValueAsBytes(build(info, entries, schemes));
    }

    /**
     * @param info the info object
     * @param entries the routes
     * @return the document
     * @throws IllegalStateException if two operations have the same operationId
     */
    public static ObjectNode build(Info info, List<Entry> entries) {
        return build(info, entries, Schemes.NONE);
    }

    /**
     * @param info the info object
     * @param entries the routes
     * @param schemes the credentials the app takes: {@code securitySchemes}, and each guarded
     *     operation's {@code security} (any one scheme, with the scopes its requirement names)
     * @return the document
     */
    public static ObjectNode build(Info info, List<Entry> entries, Schemes schemes) {
        Schemas schemas = new Schemas(Responses.SCHEMA_NAMES);
        Responses responses = new Responses(schemas);
        ObjectNode doc = NODES.objectNode().put("openapi", "3.1.0");
        ObjectNode i = doc.putObject("info").put("title", info.title()).put("version", info.version());
        info.description().ifPresent(d -> i.put("description", d));
        ObjectNode paths = doc.putObject("paths");
        Map<String, Route> ids = new HashMap<>();
        for (Entry e : entries) {
            Route r = e.route();
            if (r.operational() || e.kind() == RouteKind.MCP || !METHODS.contains(r.method())) continue;
            String id = r.operationId().orElseGet(() -> derivedId(r.method(), r.pattern()));
            Route other = ids.putIfAbsent(id, r);
            if (other != null) {
                throw new IllegalStateException("operationId '" + id + "' names both " + other + " and " + r
                        + "; give one of them its own with Route.operationId(...)");
            }
            ObjectNode item = paths.has(template(r.pattern())) ? (ObjectNode) paths.get(template(r.pattern()))
                    : paths.putObject(template(r.pattern()));
            ObjectNode op = operation(r, e.kind(), id, schemas, responses);
            if (e.requirement() != null && e.requirement() != Requirement.anonymous() && e.requirement() != Requirement.anyone()) guarded(op, e.requirement(), schemes, responses);
            item.set(r.method().toLowerCase(Locale.ROOT), op);
        }
        ObjectNode components = doc.putObject("components");
        ObjectNode s = components.putObject("schemas");
        schemas.components().forEach(s::set);
        ObjectNode rs = components.putObject("responses");
        responses.used().forEach(rs::set);
        if (!schemes.names().isEmpty()) {
            ObjectNode sec = components.putObject("securitySchemes");
            if (schemes.bearer()) sec.putObject("bearer").put("type", "http").put("scheme", "bearer").put("bearerFormat", "JWT");
            if (schemes.apiKey()) {
                sec.putObject("apiKey").put("type", "apiKey").put("in", "header").put("name", "Authorization")
                        .put("description", "Authorization: ApiKey <key>");
            }
            schemes.apiKeyHeader().ifPresent(h -> sec.putObject("apiKeyHeader").put("type", "apiKey").put("in", "header").put("name", h));
        }
        return doc;
    }

    /** An operation with a requirement: any one scheme will do, with the scopes the requirement names; 401 and 403. */
    private static void guarded(ObjectNode op, Requirement requirement, Schemes schemes, Responses responses) {
        ArrayNode security = op.putArray("security");
        for (String name : schemes.names()) {
            ArrayNode scopes = security.addObject().putArray(name);
            requirement.scopes().forEach(scopes::add);
        }
        ObjectNode out = (ObjectNode) op.get("responses");
        out.set("401", responses.ref(401));
        out.set("403", responses.ref(403));
    }

    private static ObjectNode operation(Route r, RouteKind kind, String id, Schemas schemas, Responses responses) {
        ObjectNode op = NODES.objectNode();
        if (!r.tags().isEmpty()) {
            ArrayNode t = op.putArray("tags");
            r.tags().forEach(t::add);
        }
        Optional<String> summary = r.summary().or(() -> switch (kind) {
            case WEBSOCKET -> Optional.of("WebSocket handshake");
            case ASSETS -> Optional.of("Static assets");
            case HTTP, MCP -> Optional.empty();
        });
        summary.ifPresent(v -> op.put("summary", v));
        Optional<String> description = r.description().or(() -> switch (kind) {
            case WEBSOCKET -> Optional.of("Answered 101 Switching Protocols to a WebSocket handshake (RFC 6455); "
                    + "the messages exchanged afterwards are not described here.");
            case ASSETS -> Optional.of("Content-hashed names are answered with immutable caching; a logical name "
                    + "is redirected (307) to its hashed one.");
            case HTTP, MCP -> Optional.empty();
        });
        description.ifPresent(v -> op.put("description", v));
        op.put("operationId", id);
        ArrayNode params = parameters(r);
        if (!params.isEmpty()) op.set("parameters", params);
        r.body().ifPresent(type -> {
            ObjectNode body = op.putObject("requestBody").put("required", true);
            body.putObject("content").putObject(r.bodyMediaType().orElseThrow()).set("schema", schemas.of(type));
        });
        if (r.body().isEmpty() && r.streamsBody()) {
            // A streamed body of no declared type: any bytes (OpenAPI 3.1 4.8.14: a media type without a schema).
            op.putObject("requestBody").putObject("content").putObject("application/octet-stream");
        }
        ObjectNode out = op.putObject("responses");
        switch (kind) {
            case WEBSOCKET -> {
                out.putObject("101").put("description", "Switching Protocols: the connection is a WebSocket from here on");
                out.set("400", responses.ref(400));
                out.set("403", responses.ref(403));
                out.set("426", responses.ref(426));
            }
            case ASSETS -> {
                out.putObject("200").put("description", "The asset (br, zstd or gzip as Accept-Encoding asks)")
                        .putObject("content").putObject("*/*").putObject("schema");
                out.putObject("206").put("description", "One range of the asset")
                        .putObject("content").putObject("*/*").putObject("schema");
                out.putObject("304").put("description", "Not Modified");
                out.putObject("307").put("description", "Redirect from a logical name to its hashed name");
                out.set("404", responses.ref(404));
                out.set("416", responses.ref(416));
            }
            case HTTP, MCP -> success(out, r, schemas);
        }
        boolean inputs = !r.params().isEmpty() || r.body().isPresent();
        if (inputs || r.pattern().contains("{")) out.set("400", responses.ref(400));
        if (r.body().isPresent()) {
            out.set("413", responses.ref(413));
            out.set("415", responses.ref(415));
        }
        if (inputs) out.set("422", responses.ref(422));
        if (kind == RouteKind.HTTP) out.set("500", responses.ref(500));
        out.set("503", responses.ref(503));
        out.set("504", responses.ref(504));
        return op;
    }

    private static void success(ObjectNode out, Route r, Schemas schemas) {
        String status = Integer.toString(r.returnStatus());
        ObjectNode ok = out.putObject(status).put("description", reason(r.returnStatus()));
        Class<?> type = r.returns().orElse(null);
        if (type == null || type == Void.class || type == void.class) return;
        boolean raw = type == String.class || type == byte[].class;
        String mediaType = raw && r.produces().isPresent() ? r.produces().get()
                : type == String.class ? "text/plain; charset=utf-8"
                : type == byte[].class ? "application/octet-stream" : "application/json";
        ObjectNode schema = type == byte[].class ? NODES.objectNode() : schemas.of(type);
        ok.putObject("content").putObject(mediaType).set("schema", schema);
    }

    private static String reason(int status) {
        return switch (status) {
            case 200 -> "OK";
            case 201 -> "Created";
            case 202 -> "Accepted";
            case 204 -> "No Content";
            default -> "Success";
        };
    }

    /**
     * Path parameters in pattern order (declared or plain text), then query, header and cookie
     * parameters, each location in declaration order.
     */
    static ArrayNode parameters(Route r) {
        ArrayNode out = NODES.arrayNode();
        Map<String, Param<?>> path = new LinkedHashMap<>();
        List<Param<?>> others = new ArrayList<>();
        for (Param.Location at : List.of(Param.Location.QUERY, Param.Location.HEADER, Param.Location.COOKIE)) {
            for (Param<?> p : r.params()) if (p.location() == at) others.add(p);
        }
        for (Param<?> p : r.params()) {
            if (p.location() == Param.Location.PATH) path.put(p.name(), p);
        }
        for (String seg : r.pattern().split("/")) {
            boolean rest = seg.startsWith("{*");
            if (!seg.startsWith("{") || !seg.endsWith("}")) continue;
            String name = seg.substring(rest ? 2 : 1, seg.length() - 1);
            Param<?> p = path.get(name);
            ObjectNode node = out.addObject().put("name", name).put("in", "path").put("required", true);
            if (rest) node.put("description", "the rest of the path; it may contain '/'");
            node.set("schema", p == null ? NODES.objectNode().put("type", "string") : schema(p.type()));
        }
        for (Param<?> p : others) {
            ObjectNode node = out.addObject().put("name", p.name()).put("in", p.location().label())
                    .put("required", p.shape() == Param.Shape.REQUIRED);
            ObjectNode schema = schema(p.type());
            if (p.shape() == Param.Shape.LIST) {
                ObjectNode list = NODES.objectNode().put("type", "array");
                list.set("items", schema);
                schema = list;
                node.put("description", "repeat the key for each value");
            }
            Object dflt = p.defaultValue().orElse(null);
            if (dflt instanceof Integer || dflt instanceof Long) schema.put("default", ((Number) dflt).longValue());
            else if (dflt instanceof Number n) schema.put("default", n.doubleValue());
            else if (dflt instanceof Boolean b) schema.put("default", b);
            else if (dflt instanceof Enum<?> en) schema.put("default", en.name());
            else if (dflt != null) schema.put("default", dflt.toString());
            node.set("schema", schema);
        }
        return out;
    }

    private static ObjectNode schema(ParamType<?> type) {
        ObjectNode s = NODES.objectNode().put("type", type.schemaType());
        type.schemaFormat().ifPresent(f -> s.put("format", f));
        if (type.javaType().isEnum()) {
            ArrayNode values = s.putArray("enum");
            for (Object c : type.javaType().getEnumConstants()) values.add(((Enum<?>) c).name());
        }
        return s;
    }

    /** @return the OpenAPI path template: {@code {*rest}} becomes {@code {rest}}, an empty pattern {@code /} */
    static String template(String pattern) {
        String t = pattern.replace("{*", "{");
        return t.isEmpty() ? "/" : t;
    }

    /**
     * @param method the route's method
     * @param pattern its pattern
     * @return {@code getItemsById} for {@code GET /items/{id}}, {@code getRoot} for {@code GET /}
     */
    public static String derivedId(String method, String pattern) {
        StringBuilder b = new StringBuilder(method.toLowerCase(Locale.ROOT));
        int start = b.length();
        for (String seg : pattern.split("/")) {
            if (seg.isEmpty()) continue;
            boolean param = seg.startsWith("{") && seg.endsWith("}");
            if (param) b.append("By");
            words(b, param ? seg.substring(seg.startsWith("{*") ? 2 : 1, seg.length() - 1) : seg);
        }
        if (b.length() == start) b.append("Root");
        return b.toString();
    }

    /** Appends each run of letters and digits, capitalised: {@code live-board.v2} as {@code LiveBoardV2}. */
    private static void words(StringBuilder b, String text) {
        boolean up = true;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < 0x80 && Character.isLetterOrDigit(c)) {
                b.append(up ? Character.toUpperCase(c) : c);
                up = false;
            } else {
                up = true;
            }
        }
    }
}
