package dev.tidemill;

/**
 * One complete WebSocket message, reassembled from its fragments (and inflated if it was
 * compressed). A text message was validated as UTF-8 before it got here.
 */
public interface WebSocketMessage {

    /** @return whether this is a text message (else binary) */
    boolean isText();

    /** @return the text of a text message, or the bytes of a binary one decoded as UTF-8 (malformed bytes replaced) */
    String text();

    /** @return the message's bytes (UTF-8 for a text message); a fresh copy per call */
    byte[] bytes();

    /** @return the message's length in bytes */
    int length();

    /**
     * Binds the message as JSON to {@code type} and validates it (Bean Validation), as
     * {@link Request#body(Class)} does for a body.
     *
     * @param type a record or bean type
     * @param <T> the type
     * @return the value
     * @throws ProblemException 400 for malformed JSON, 422 for a constraint violation; if the
     *     handler lets it escape, the connection is closed with {@link WebSocket#INVALID_PAYLOAD}
     *     and the problem's detail as the reason
     */
    <T> T json(Class<T> type);
}
