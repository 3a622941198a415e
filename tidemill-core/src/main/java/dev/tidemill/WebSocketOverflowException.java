package dev.tidemill;

/**
 * A WebSocket send refused because more than {@link WebSocketOptions#maxOutboundBytes()} were
 * already waiting to be written to a peer that is not reading fast enough (policy
 * {@link WebSocketOptions.Overflow#FAIL}).
 */
public final class WebSocketOverflowException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** @param message what was refused, naming the limit */
    public WebSocketOverflowException(String message) {
        super(message, null, false, false);
    }
}
