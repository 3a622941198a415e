package dev.tidemill.internal.mcp;

import dev.tidemill.ToolCall;
import java.util.function.Consumer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A tool call's {@link ToolCall}: progress goes out as {@code notifications/progress} with the
 * client's token (2025-11-25 basic/utilities/progress), log messages as {@code notifications/message}
 * at or above the client's level (server/utilities/logging; 2026-07-28: only when the request set
 * {@code io.modelcontextprotocol/logLevel}), each handed to {@code send} (the call's SSE stream).
 * Without a token, or a level, the matching reports go nowhere.
 */
final class CallNotices implements ToolCall {
    private final String tool;
    private final JsonNode progressToken;
    private final Level level;
    private final Consumer<ObjectNode> send;
    private double lastProgress = Double.NEGATIVE_INFINITY;

    /**
     * @param tool the tool's name
     * @param progressToken the client's {@code _meta.progressToken}, or null
     * @param level the least severe level the client wants, or null for none
     * @param send where notifications go, in order
     */
    CallNotices(String tool, JsonNode progressToken, Level level, Consumer<ObjectNode> send) {
        this.tool = tool;
        this.progressToken = progressToken;
        this.level = level;
        this.send = send;
    }

    /** @return the client's level from a wire name, null for none or an unknown one */
    static Level level(String wire) {
        if (wire == null) return null;
        for (Level l : Level.values()) {
            if (l.wire().equals(wire)) return l;
        }
        return null;
    }

    /** @return whether this call reports anything: only then is its answer a stream */
    boolean wanted() {
        return progressToken != null || level != null;
    }

    @Override
    public String tool() {
        return tool;
    }

    @Override
    public synchronized void progress(double progress, double total, String message) {
        if (progressToken == null || progress <= lastProgress) return; // "progress MUST increase with each notification"
        lastProgress = progress;
        ObjectNode params = JsonRpc.NODES.objectNode();
        params.set("progressToken", progressToken);
        params.put("progress", progress);
        if (total >= 0) params.put("total", total);
        if (message != null) params.put("message", message);
        send.accept(notification("notifications/progress", params));
    }

    @Override
    public void log(Level severity, Object data) {
        if (level == null || severity.ordinal() < level.ordinal()) return;
        ObjectNode params = JsonRpc.NODES.objectNode().put("level", severity.wire()).put("logger", tool);
        params.set("data", data instanceof String s ? JsonRpc.NODES.stringNode(s) : JsonRpc.MAPPER.valueToTree(data));
        synchronized (this) {
            send.accept(notification("notifications/message", params));
        }
    }

    private static ObjectNode notification(String method, ObjectNode params) {
        ObjectNode n = JsonRpc.NODES.objectNode().put("jsonrpc", "2.0").put("method", method);
        n.set("params", params);
        return n;
    }
}
