package dev.tidemill;

import java.util.concurrent.CompletionStage;

/**
 * An open Server-Sent Events stream ({@link Response#sse}). Sends may come from any thread; each
 * returns a stage that completes once the connection can take more, so a slow reader pushes back
 * on the sender (or, with a {@link Topic}, on the topic's overflow policy). After
 * {@link Timeouts#ssePing()} without a send, a {@code : ping} comment goes out by itself.
 *
 * <p>The stream holds its request's concurrency slot until it ends, and is exempt from the
 * request timeout once its head is sent. It ends when the handler calls {@link #close()}, when
 * the client leaves, when a send fails, or when the server shuts down (a final {@code shutdown}
 * event, then the end of the stream); {@link #onClose} actions run once, whichever comes first.
 */
public interface SseStream {

    /**
     * @param event the event
     * @return completes when the connection can take more; fails with
     *     {@link java.nio.channels.ClosedChannelException} once the stream has ended
     */
    CompletionStage<Void> send(SseEvent event);

    /**
     * @param data an event's data ({@link SseEvent#data})
     * @return as {@link #send(SseEvent)}
     */
    default CompletionStage<Void> send(String data) {
        return send(SseEvent.data(data));
    }

    /** @return the request's {@code Last-Event-ID}: the id of the last event a reconnecting client saw; null if none */
    String lastEventId();

    /** @return false once the stream has ended */
    boolean isOpen();

    /**
     * Runs {@code action} once when the stream ends, however it ends (at once if it has already
     * ended). Actions run on the thread that ends the stream; one that throws is logged and does
     * not stop the others.
     *
     * @param action what to do
     */
    void onClose(Runnable action);

    /** Ends the stream (the last chunk is sent). Idempotent. */
    void close();
}
