package dev.tidemill;

import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * The body of a request to a route declared with {@link Route#streamedBody()}, read as it arrives.
 * Nothing is read from the client until the handler asks for the first bytes (so a handler that
 * refuses the request first never triggers {@code 100 Continue}, and the client never sends the
 * body). Between the socket and the handler at most {@link Limits#bodyHighWaterBytes()} (default
 * 1 MiB) plus one socket read is held; past it the server stops reading the connection and TCP
 * pushes back on the client, until the handler takes some.
 *
 * <p>A body is read once, through one of {@link #inputStream()}, {@link #read()},
 * {@link #publisher()}, {@link #forEach}, {@link #transferTo} or {@link #discard()}; asking for a second one throws
 * {@link IllegalStateException}. What it delivers is the body after transfer decoding and after
 * {@code Content-Encoding} decoding (gzip, deflate, br, zstd), bounded by the route's
 * {@link Limits#maxBodyBytes()} as it comes out.
 *
 * <p>Faults reach the reader as a {@link ProblemException} (from {@link #inputStream()}: an
 * {@link java.io.IOException} whose cause is one), and the server answers the request with that
 * problem itself unless the handler already answered: 413 past the body limit, also for a chunked
 * body of unknown length (the connection closes after the answer); 408 when the client sends
 * nothing for {@link Timeouts#bodyStall()} while the handler waits; 400 when the client ends the
 * connection or the chunked framing before the body's end. A handler that answers (or closes the
 * stream) before the end leaves the rest to the server: it is read and discarded within
 * {@link Limits#maxDrainBytes()}, or the connection closes after the answer.
 */
public interface RequestBody {

    /** @return the {@code Content-Length} the client declared, in bytes; -1 for a chunked body */
    long declaredLength();

    /**
     * A blocking stream of the body, for handlers on virtual threads ({@link ExecutionMode#VIRTUAL})
     * or worker loops. {@code read} blocks until bytes arrive; {@link InputStream#close()} before
     * the end stops reading (the rest is discarded within the drain limit, or the connection closes).
     *
     * @return the stream
     * @throws IllegalStateException on an event loop ({@link ExecutionMode#IO}): blocking there
     *     would stop the very connection the bytes come from
     */
    InputStream inputStream();

    /**
     * Pull-style, non-blocking: the next piece of the body. The stage completes when bytes are
     * available, on the connection's event loop unless they already were (do not block in its
     * callbacks). Call again after it completes; one read at a time.
     *
     * @return the next piece (a buffer the caller owns), or {@code null} at the end of the body
     */
    CompletionStage<ByteBuffer> read();

    /**
     * The body as a {@link Flow.Publisher} for one subscriber; demand drives reading, so a
     * subscriber that requests nothing stops the socket. Each buffer is the subscriber's to keep.
     *
     * @return the publisher
     */
    Flow.Publisher<ByteBuffer> publisher();

    /**
     * Writes the body to a file (created or truncated, owner read/write only), with back-pressure:
     * the socket is read only as fast as the file is written. The writing runs on a virtual thread
     * of its own, so this is safe in every mode. Past {@code maxBytes} the stage fails with a 413
     * {@link ProblemException}, reading stops and the partial file is deleted.
     *
     * @param file the target
     * @param maxBytes the most bytes to accept, at most the route's body limit applying anyway
     * @return the number of bytes written, once the body ended and the file is closed
     */
    CompletionStage<Long> transferTo(Path file, long maxBytes);

    /**
     * Non-blocking and without a copy: hands each piece of the body to {@code consumer} as a
     * read-only view of the server's own buffer, valid only during the call (copy what you keep).
     * The consumer runs on the connection's event loop (or the caller's thread for pieces already
     * there), so it must not block; the next piece is read once it returns. A consumer that throws
     * stops the reading: the stage fails with its exception.
     *
     * @param consumer called once per piece, in order
     * @return the number of bytes handed over, once the body ended
     */
    CompletionStage<Long> forEach(java.util.function.Consumer<ByteBuffer> consumer);

    /**
     * Reads the rest of the body and drops it (bounded by the route's body limit).
     *
     * @return the number of bytes dropped
     */
    CompletionStage<Long> discard();
}
