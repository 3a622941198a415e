package dev.tidemill.internal.openapi;

/** What a route serves, as far as its OpenAPI description is concerned. */
public enum RouteKind {
    /** An ordinary request and response. */
    HTTP,
    /** A WebSocket handshake ({@code Routes.ws}): described as a GET answered 101. */
    WEBSOCKET,
    /** Static assets ({@code Routes.assets}): a GET of any file under the prefix. */
    ASSETS,
    /** The MCP endpoint ({@code Tidemill.mcp}): JSON-RPC, described by its own protocol, left out of the document. */
    MCP
}
