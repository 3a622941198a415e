package dev.tidemill.internal.openapi;

import dev.tidemill.Route;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * A route's MCP tool schemas, from the same declarations and the same generator as its OpenAPI
 * operation (JSON Schema 2020-12), so a tool and its operation cannot disagree. The input is one
 * object: each path and query parameter a property of its own name (header and cookie parameters are
 * not arguments: a call forwards the MCP request's own fields), and the body's properties beside
 * them when the body is an object whose property names no parameter takes (an agent fills one flat
 * object); otherwise the body is the property {@value #BODY}. Records and enums go into {@code $defs}
 * of the schema itself, as a tool's schema must stand alone. The output is the route's
 * {@code returns} type, wrapped as {@code {"result": ...}} when it is not an object, because
 * {@code structuredContent} is always an object.
 *
 * @param input the {@code inputSchema}
 * @param output the {@code outputSchema}, empty when the route declares no JSON or text return type
 * @param flatBody whether the body's properties sit at the top level of the arguments (else under {@value #BODY})
 * @param bodyProperties the top-level argument names that belong to the body when it is flat
 * @param wrapsResult whether the route's answer is wrapped as {@code {"result": ...}}
 */
public record ToolSchemas(ObjectNode input, Optional<ObjectNode> output, boolean flatBody, Set<String> bodyProperties,
                          boolean wrapsResult) {
    /** The argument holding the body when it cannot be flat. */
    public static final String BODY = "body";
    /** The property wrapping an answer that is not an object. */
    public static final String RESULT = "result";
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final String DEFS = "#/$defs/";

    /**
     * @param r a route with a JSON body or none
     * @return its schemas
     */
    public static ToolSchemas of(Route r) {
        Schemas schemas = new Schemas(Set.of(), DEFS);
        ObjectNode in = NODES.objectNode().put("type", "object");
        ObjectNode props = in.putObject("properties");
        ArrayNode required = NODES.arrayNode();
        Set<String> params = new LinkedHashSet<>();
        for (JsonNode p : OpenApiDocument.parameters(r)) {
            String at = p.get("in").asString();
            if (!at.equals("path") && !at.equals("query")) continue;
            String name = p.get("name").asString();
            params.add(name);
            ObjectNode schema = ((ObjectNode) p.get("schema")).deepCopy();
            if (p.has("description")) schema.put("description", p.get("description").asString());
            props.set(name, schema);
            if (p.get("required").asBoolean()) required.add(name);
        }
        boolean flat = false;
        Set<String> bodyProps = new LinkedHashSet<>();
        if (r.body().isPresent()) {
            ObjectNode body = schemas.of(r.body().get());
            ObjectNode object = resolve(body, schemas);
            if (object != null && object.has("properties") && disjoint(object.get("properties"), params)) {
                flat = true;
                for (Map.Entry<String, JsonNode> e : object.get("properties").properties()) {
                    props.set(e.getKey(), e.getValue());
                    bodyProps.add(e.getKey());
                }
                if (object.has("required")) object.get("required").forEach(required::add);
            } else {
                props.set(BODY, body);
                required.add(BODY);
            }
        }
        if (!required.isEmpty()) in.set("required", required);
        Optional<ObjectNode> out = Optional.empty();
        boolean wraps = false;
        Class<?> type = r.returns().orElse(null);
        if (type != null && type != Void.class && type != void.class && type != byte[].class) {
            ObjectNode schema = schemas.of(type);
            ObjectNode object = resolve(schema, schemas);
            if (object != null && "object".equals(text(object.get("type")))) {
                out = Optional.of(schema.has("$ref") ? object.deepCopy() : schema);
            } else {
                wraps = true;
                ObjectNode wrapper = NODES.objectNode().put("type", "object");
                wrapper.putObject("properties").set(RESULT, schema);
                wrapper.putArray("required").add(RESULT);
                out = Optional.of(wrapper);
            }
        }
        Map<String, ObjectNode> defs = schemas.components();
        if (!defs.isEmpty()) {
            in.set("$defs", defsOf(defs));
            out.ifPresent(o -> o.set("$defs", defsOf(defs)));
        }
        return new ToolSchemas(in, out, flat, Set.copyOf(bodyProps), wraps);
    }

    private static ObjectNode defsOf(Map<String, ObjectNode> defs) {
        ObjectNode out = NODES.objectNode();
        defs.forEach((k, v) -> out.set(k, v.deepCopy()));
        return out;
    }

    /** @return the object schema a {@code $ref} names, or the schema itself; null for anything else */
    private static ObjectNode resolve(ObjectNode schema, Schemas schemas) {
        JsonNode ref = schema.get("$ref");
        if (ref == null) return schema;
        return schemas.components().get(ref.asString().substring(DEFS.length()));
    }

    private static boolean disjoint(JsonNode properties, Set<String> params) {
        for (String name : properties.propertyNames()) {
            if (params.contains(name)) return false;
        }
        return true;
    }

    private static String text(JsonNode n) {
        return n == null || !n.isString() ? null : n.asString();
    }
}
