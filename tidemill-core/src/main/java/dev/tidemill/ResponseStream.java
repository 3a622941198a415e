package dev.tidemill;

import java.util.concurrent.CompletionStage;

/**
 * A response body written piece by piece (chunked transfer encoding). Writes respect the
 * channel's writability: the stage a write returns completes once the connection can take more, so
 * a slow client pushes back on the producer. In {@link ExecutionMode#VIRTUAL} it is fine to block on
 * it ({@code stream.write(x).toCompletableFuture().join()}).
 *
 * <p>The stream holds its concurrency slot until {@link #close()} or the client leaves; once its
 * first byte is out it is exempt from the request timeout. Methods may be called from any thread.
 */
public interface ResponseStream {

    /**
     * Sends a chunk.
     *
     * @param data bytes to send (copied)
     * @return completes when the connection can take more; fails with
     *     {@link java.nio.channels.ClosedChannelException} if the client is gone
     */
    CompletionStage<Void> write(byte[] data);

    /**
     * Sends UTF-8 text as a chunk.
     *
     * @param text text to send
     * @return as {@link #write(byte[])}
     */
    CompletionStage<Void> write(String text);

    /** @return false once the client disconnected or the stream was closed */
    boolean isOpen();

    /** @return completes when the stream ends, by {@link #close()} or because the client left */
    CompletionStage<Void> closed();

    /** Ends the response (sends the final chunk) and releases the slot. Idempotent. */
    void close();

    /**
     * Ends the response with trailer fields (RFC 9110 6.5): after the last chunk on HTTP/1.1
     * (chunked encoding only; an HTTP/1.0 client, whose body ends with the connection, gets none),
     * as a final HEADERS frame on HTTP/2. Fields that frame, route or authenticate a message are
     * refused ({@code content-length}, {@code transfer-encoding}, {@code host}, {@code trailer},
     * {@code set-cookie}, {@code authorization} and the like), as are names that are not tokens
     * and values with CR, LF or NUL. Idempotent with {@link #close()}: the first close wins.
     *
     * @param trailers name to value, sent in iteration order
     * @throws IllegalArgumentException naming the field that cannot be a trailer
     */
    void close(java.util.Map<String, String> trailers);
}
