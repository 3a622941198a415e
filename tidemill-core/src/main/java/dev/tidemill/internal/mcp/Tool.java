package dev.tidemill.internal.mcp;

import dev.tidemill.Requirement;
import dev.tidemill.Route;
import dev.tidemill.internal.openapi.ToolSchemas;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.node.ObjectNode;

/**
 * A route marked as an MCP tool, with what {@code tools/list} says of it: its input and output
 * schemas ({@link ToolSchemas}) and hints from its method (2025-11-25 server/tools, "Tool
 * Annotations": GET read-only, PUT idempotent, DELETE destructive, the rest neither).
 *
 * @param name the tool's name
 * @param route the route a call runs
 * @param schemas its schemas and how arguments map to the request
 * @param requirement who may call it (the route's, its group's, else the app's)
 * @param definition the tool as {@code tools/list} shows it
 * @param headers arguments mirrored into {@code Mcp-Param-*} headers, argument to header name part
 */
record Tool(String name, Route route, ToolSchemas schemas, Requirement requirement, ObjectNode definition, Map<String, String> headers) {

    /**
     * @param marked the routes marked as tools (and resources, skipped here)
     * @return the tools, by name, in registration order
     * @throws IllegalStateException naming the route, for a duplicate name, a tool without an auth
     *     decision, or a route a tool cannot call (a streamed, form or multipart body)
     */
    static Map<String, Tool> of(List<Marking> marked) {
        Map<String, Tool> out = new LinkedHashMap<>();
        List<String> problems = new ArrayList<>();
        for (Marking m : marked) {
            Route r = m.route();
            String name = m.tool();
            if (name == null) continue;
            Tool taken = out.get(name);
            if (taken != null) {
                problems.add("tool " + name + " is declared twice: " + taken.route() + " and " + r);
                continue;
            }
            Requirement who = m.requirement();
            if (who == null) {
                problems.add("tool " + name + " (" + r + ") has no auth decision: say who may call it with requires(...) on the route, "
                        + "its group or the app (Requirement.anonymous() for anyone)");
                continue;
            }
            if (r.streamsBody() || r.bodyMediaType().filter(t -> !t.equals(JsonRpc.JSON)).isPresent()) {
                problems.add("tool " + name + " (" + r + ") takes a streamed, form or multipart body: a tool's body is JSON");
                continue;
            }
            ToolSchemas schemas = ToolSchemas.of(r);
            String wrong = mirror(schemas, m.toolHeaders());
            if (wrong != null) {
                problems.add("tool " + name + " (" + r + "): " + wrong);
                continue;
            }
            ObjectNode def = JsonRpc.NODES.objectNode().put("name", name);
            r.summary().ifPresent(s -> def.put("title", s));
            def.put("description", m.toolDescription());
            def.set("inputSchema", schemas.input());
            schemas.output().ifPresent(o -> def.set("outputSchema", o));
            ObjectNode hints = def.putObject("annotations");
            switch (r.method()) {
                case "GET" -> hints.put("readOnlyHint", true).put("destructiveHint", false).put("idempotentHint", true);
                case "PUT" -> hints.put("readOnlyHint", false).put("destructiveHint", false).put("idempotentHint", true);
                case "DELETE" -> hints.put("readOnlyHint", false).put("destructiveHint", true).put("idempotentHint", true);
                default -> hints.put("readOnlyHint", false).put("destructiveHint", false).put("idempotentHint", false);
            }
            hints.put("openWorldHint", false);
            out.put(name, new Tool(name, r, schemas, who, def, m.toolHeaders()));
        }
        if (!problems.isEmpty()) throw new IllegalStateException(String.join("; ", problems));
        return out;
    }

    /** Marks the mirrored arguments {@code x-mcp-header}; @return why one cannot be, else null */
    private static String mirror(ToolSchemas schemas, Map<String, String> headers) {
        for (Map.Entry<String, String> h : headers.entrySet()) {
            tools.jackson.databind.JsonNode p = schemas.input().path("properties").get(h.getKey());
            if (p == null || schemas.bodyProperties().contains(h.getKey())) {
                return "toolHeader(" + h.getKey() + ", ...) names no path or query parameter";
            }
            String type = p.path("type").asString("");
            if (!type.equals("string") && !type.equals("integer") && !type.equals("boolean")) {
                return "toolHeader(" + h.getKey() + ", ...): only a string, integer or boolean argument is mirrored, not " + type;
            }
            ((ObjectNode) p).put("x-mcp-header", h.getValue());
        }
        return null;
    }
}
