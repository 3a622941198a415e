package dev.tidemill;

/**
 * Handles one WebSocket connection. Its methods run in the route's {@link ExecutionMode}, one at
 * a time per connection and in order: {@link #onOpen} first, then {@link #onMessage} per message,
 * then {@link #onClose} exactly once however the connection ends. In {@link ExecutionMode#IO}
 * they run on the event loop and must not block; in {@code LOOP} on the worker loop the
 * connection was given at its handshake; in {@code VIRTUAL} on a virtual thread, where blocking
 * is fine (the next message waits for it, and TCP pushes back on the peer once
 * {@link WebSocketOptions#maxMessageBytes()} worth is queued).
 *
 * <p>An exception from any method closes the connection with {@link WebSocket#INTERNAL_ERROR}
 * (a {@link ProblemException} from {@link WebSocketMessage#json}: {@link WebSocket#INVALID_PAYLOAD}).
 */
@FunctionalInterface
public interface WebSocketHandler {

    /**
     * The handshake completed.
     *
     * @param ws the connection
     * @throws Exception closes the connection with 1011
     */
    default void onOpen(WebSocket ws) throws Exception {}

    /**
     * A complete message arrived.
     *
     * @param ws the connection
     * @param message the message
     * @throws Exception closes the connection with 1011 (or 1007, see the type)
     */
    void onMessage(WebSocket ws, WebSocketMessage message) throws Exception;

    /**
     * The connection ended: closed by either side, dropped, timed out, or the server stopped.
     * Called exactly once, also when {@link #onOpen} threw.
     *
     * @param ws the connection (closed)
     * @param status how it ended
     */
    default void onClose(WebSocket ws, WebSocket.CloseStatus status) {}
}
