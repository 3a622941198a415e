package dev.tidemill.internal.mcp;

import dev.tidemill.Response;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * JSON-RPC 2.0 as MCP uses it: the error codes (JSON-RPC's own and MCP's, 2026-07-28 basic/index
 * "Error Codes") and the messages the endpoint answers with.
 */
final class JsonRpc {
    static final int PARSE_ERROR = -32700;
    static final int INVALID_REQUEST = -32600;
    static final int METHOD_NOT_FOUND = -32601;
    static final int INVALID_PARAMS = -32602;
    static final int INTERNAL_ERROR = -32603;
    /** 2026-07-28 transports/streamable-http "Server Validation": headers and body disagree. */
    static final int HEADER_MISMATCH = -32020;
    /** 2026-07-28 basic/versioning: the version asked for is not one this server speaks. */
    static final int UNSUPPORTED_VERSION = -32022;
    static final String JSON = "application/json";

    static final ObjectMapper MAPPER = JsonMapper.builder().build();
    static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private JsonRpc() {}

    static ObjectNode result(JsonNode id, JsonNode result) {
        ObjectNode out = NODES.objectNode().put("jsonrpc", "2.0");
        out.set("id", id);
        out.set("result", result);
        return out;
    }

    static ObjectNode error(JsonNode id, int code, String message, JsonNode data) {
        ObjectNode out = NODES.objectNode().put("jsonrpc", "2.0");
        out.set("id", id == null ? NODES.nullNode() : id);
        ObjectNode e = out.putObject("error").put("code", code).put("message", message);
        if (data != null) e.set("data", data);
        return out;
    }

    /** @return an HTTP answer carrying {@code message} as JSON */
    static Response answer(int status, JsonNode message) {
        return Response.status(status).bytes(MAPPER.writeValueAsBytes(message), JSON);
    }

    /** @return an HTTP answer carrying a JSON-RPC error */
    static Response fail(int status, JsonNode id, int code, String message) {
        return answer(status, error(id, code, message, null));
    }
}
