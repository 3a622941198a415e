package dev.tidemill.internal.http;

import dev.tidemill.Response;
import dev.tidemill.ResponseStream;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import java.nio.channels.ClosedChannelException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A chunked response body. Writes may come from any thread; each is handed to the connection's
 * event loop in order (through the same batcher as responses, so a chunk can never overtake its
 * head), and the returned stage completes once the channel is writable again — that is the
 * backpressure: a slow reader fills Netty's outbound buffer past its high-water mark and the
 * producer's next stage waits.
 */
final class StreamingBody implements ResponseStream {
    final Exchange exchange;
    final Response.StreamProducer producer;
    private final ByteBufAllocator alloc;
    private final AtomicBoolean open = new AtomicBoolean(true);
    private final CompletableFuture<Void> closed = new CompletableFuture<>();

    StreamingBody(Exchange exchange, Response.StreamProducer producer, ByteBufAllocator alloc) {
        this.exchange = exchange;
        this.producer = producer;
        this.alloc = alloc;
    }

    @Override
    public CompletionStage<Void> write(byte[] data) {
        if (!open.get()) return CompletableFuture.failedFuture(new ClosedChannelException());
        ByteBuf buf = alloc.buffer(data.length);
        buf.writeBytes(data);
        return send(buf);
    }

    @Override
    public CompletionStage<Void> write(String text) {
        if (!open.get()) return CompletableFuture.failedFuture(new ClosedChannelException());
        if (text.isEmpty()) return CompletableFuture.completedFuture(null);
        ByteBuf buf = alloc.buffer(ByteBufUtil.utf8MaxBytes(text));
        ByteBufUtil.writeUtf8(buf, text);
        return send(buf);
    }

    private CompletionStage<Void> send(ByteBuf buf) {
        if (!buf.isReadable()) {
            buf.release();
            return CompletableFuture.completedFuture(null);
        }
        CompletableFuture<Void> done = new CompletableFuture<>();
        exchange.connection.streamChunk(exchange, buf, done);
        return done;
    }

    @Override
    public boolean isOpen() {
        return open.get();
    }

    @Override
    public CompletionStage<Void> closed() {
        return closed.minimalCompletionStage();
    }

    @Override
    public void close() {
        if (open.compareAndSet(true, false)) {
            exchange.connection.streamEnd(exchange);
            exchange.releaseSlot();
            closed.complete(null);
        }
    }

    /** The producer failed: ends the response as truncated (no final chunk) and releases the slot. */
    void abort() {
        if (open.compareAndSet(true, false)) {
            exchange.connection.streamAbort(exchange);
            exchange.releaseSlot();
            closed.complete(null);
        }
    }

    /** The client left: the producer learns it from {@link #isOpen()}, failed writes and {@link #closed()}. */
    void clientGone() {
        if (open.compareAndSet(true, false)) {
            exchange.releaseSlot();
            closed.complete(null);
        }
    }

}
