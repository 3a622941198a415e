package dev.tidemill;

import java.util.Optional;
import java.util.concurrent.CompletionStage;

/**
 * An open WebSocket connection (RFC 6455), as its handler sees it. Every method may be called
 * from any thread; sends go out in call order. A send never blocks: it returns a stage that
 * completes once the frame is written to the socket, and fails fast with
 * {@link java.nio.channels.ClosedChannelException} when the connection is closing or gone, or with
 * {@link WebSocketOverflowException} when more than {@link WebSocketOptions#maxOutboundBytes()}
 * wait to be written and the route's {@link WebSocketOptions.Overflow} policy is {@code FAIL}.
 */
public interface WebSocket {

    /** 1000: the purpose of the connection was fulfilled. */
    int NORMAL = 1000;
    /** 1001: the server is going away (shutdown) or the peer idled past the timeout. */
    int GOING_AWAY = 1001;
    /** 1002: the peer broke the protocol. */
    int PROTOCOL_ERROR = 1002;
    /** 1003: a message of a type the handler does not take. */
    int UNSUPPORTED_DATA = 1003;
    /** 1005: the peer's close frame had no status code (never sent on the wire). */
    int NO_STATUS = 1005;
    /** 1006: the connection ended without a close frame (never sent on the wire). */
    int ABNORMAL = 1006;
    /** 1007: a text message that is not UTF-8, or a message the handler could not decode. */
    int INVALID_PAYLOAD = 1007;
    /** 1008: a policy was violated (the outbound bound with the {@code CLOSE} policy). */
    int POLICY_VIOLATION = 1008;
    /** 1009: a message or frame over its size limit. */
    int TOO_BIG = 1009;
    /** 1011: the handler failed. */
    int INTERNAL_ERROR = 1011;

    /**
     * Sends a text message.
     *
     * @param text the message
     * @return completes when written; see the type's documentation for failures
     */
    CompletionStage<Void> send(String text);

    /**
     * Sends a binary message.
     *
     * @param data the message (copied)
     * @return completes when written
     */
    CompletionStage<Void> send(byte[] data);

    /**
     * Sends {@code value} encoded as JSON (the app's {@link JsonCodec}) in a text message.
     *
     * @param value a record, collection, map or anything the codec writes
     * @return completes when written
     */
    CompletionStage<Void> sendJson(Object value);

    /**
     * Starts the closing handshake with 1000. Idempotent.
     *
     * @return completes when the connection is closed
     */
    default CompletionStage<CloseStatus> close() {
        return close(NORMAL, "");
    }

    /**
     * Starts the closing handshake: sends a close frame, then waits at most
     * {@link WebSocketOptions#closeTimeout()} for the peer's before closing the socket. Only the
     * first call counts.
     *
     * @param code 1000-4999 except the codes that must not be sent (1004-1006, 1015)
     * @param reason at most 123 bytes of UTF-8
     * @return completes when the connection is closed
     * @throws IllegalArgumentException for a code that cannot be sent or a reason too long
     */
    CompletionStage<CloseStatus> close(int code, String reason);

    /** @return true until a close frame was sent or received, or the connection dropped */
    boolean isOpen();

    /** @return completes, exactly once, with how the connection ended */
    CompletionStage<CloseStatus> closed();

    /** @return the subprotocol the handshake agreed on, if any */
    Optional<String> subprotocol();

    /** @return the handshake request: its path, parameters, headers and attributes stay readable */
    Request request();

    /**
     * How a connection ended.
     *
     * @param code the close code: the peer's, ours, {@link #NO_STATUS} for a close frame without
     *     one, {@link #ABNORMAL} when the connection dropped without a close frame
     * @param reason the close reason, empty when there was none
     */
    record CloseStatus(int code, String reason) {}
}
