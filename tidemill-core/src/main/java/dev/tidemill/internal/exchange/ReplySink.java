package dev.tidemill.internal.exchange;

import io.netty.buffer.ByteBuf;
import java.util.concurrent.CompletableFuture;

/**
 * The seam: the only way an {@link Exchange} reaches the transport that carries it. Each protocol
 * implements it once (an HTTP/1.1 connection, an HTTP/2 connection's streams); nothing in this
 * package knows which one it talks to.
 *
 * <p>Every method may be called from any thread (the handler's worker loop, a virtual thread, the
 * event loop itself); the transport hops onto its own thread and keeps what it sends in request
 * order. The other direction, transport to exchange, is three calls on the exchange:
 * {@link Exchange#body}, {@link Exchange#expire} (the request timeout) and
 * {@link Exchange#transportClosed} (the peer left). Writability reaches a streaming producer
 * through the stage {@link #sendChunk} completes.
 */
public interface ReplySink {

    /**
     * Sends a reply: a complete response, or the head of a streamed one ({@link Reply#stream()} is
     * set, and chunks follow through {@link #sendChunk}). Called once per exchange. The sink owns
     * {@code reply}'s buffer from here on.
     *
     * @param ex the exchange answered
     * @param reply what to send
     */
    void send(Exchange ex, Reply reply);

    /**
     * One chunk of a streamed body, after (or racing with) its head; never overtakes the head.
     *
     * @param ex the exchange
     * @param chunk the bytes, owned by the sink from here on
     * @param written completes when the transport can take more (back-pressure: a slow reader
     *     delays it), or fails with {@link java.nio.channels.ClosedChannelException} if the peer is gone
     */
    void sendChunk(Exchange ex, ByteBuf chunk, CompletableFuture<Void> written);

    /**
     * {@link #sendChunk(Exchange, ByteBuf, CompletableFuture)}, saying whether the producer has
     * more chunks ready to write right after this one: a topic's subscription that fell behind
     * delivering its backlog. A sink may then flush once for the lot instead of once per chunk.
     *
     * @param more whether more chunks follow at once (the flush may wait for them; it happens all the same)
     */
    default void sendChunk(Exchange ex, ByteBuf chunk, CompletableFuture<Void> written, boolean more) {
        sendChunk(ex, chunk, written);
    }

    /** @param ex the exchange whose streamed body is complete */
    void end(Exchange ex);

    /**
     * The producer failed: what was sent goes out, then the body ends so the peer sees it
     * truncated, never complete (HTTP/1.1: the connection closes without the last chunk).
     *
     * @param ex the exchange
     */
    void abort(Exchange ex);

    /**
     * @return whether the calling thread is the transport's own, the one that calls
     *     {@link Exchange#expire} and {@link Exchange#transportClosed}: a handler that completes
     *     there cannot race them, so its exchange is finished with plain stores instead of
     *     compare-and-set (HTTP/1.1: the connection's event loop)
     */
    boolean onTransportThread();

    /**
     * @return the transport's own thread as a scheduler, for timers that belong to an exchange
     *     (an event stream's ping); tasks run where {@link Exchange#transportClosed} runs
     */
    java.util.concurrent.ScheduledExecutorService scheduler();
}
