package dev.tidemill.internal.exchange;

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
 * A streamed response body. Writes may come from any thread; each goes to the exchange's
 * {@link ReplySink}, which keeps it behind the head, and the returned stage completes once the
 * transport can take more: that is the back-pressure (HTTP/1.1: a slow reader fills Netty's
 * outbound buffer past its high-water mark and the producer's next stage waits).
 */
public final class StreamingBody implements ResponseStream {
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
        exchange.sink().sendChunk(exchange, buf, done);
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
            exchange.sink().end(exchange);
            exchange.releaseSlot();
            closed.complete(null);
        }
    }

    /** The producer failed: ends the response as truncated (no final chunk) and releases the slot. */
    void abort() {
        if (open.compareAndSet(true, false)) {
            exchange.sink().abort(exchange);
            exchange.releaseSlot();
            closed.complete(null);
        }
    }

    /** The client left (called through the exchange): the producer learns it from {@link #isOpen()}, failed writes and {@link #closed()}. */
    void clientGone() {
        if (open.compareAndSet(true, false)) {
            exchange.releaseSlot();
            closed.complete(null);
        }
    }

}
