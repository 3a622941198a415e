package dev.tidemill.internal.exchange;

import dev.tidemill.Response;
import dev.tidemill.ResponseStream;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import dev.tidemill.internal.codec.ChunkEncoder;
import java.nio.channels.ClosedChannelException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A streamed response body. Writes may come from any thread; each goes to the exchange's
 * {@link ReplySink}, which keeps it behind the head, and the returned stage completes once the
 * transport can take more: that is the back-pressure (HTTP/1.1: a slow reader fills Netty's
 * outbound buffer past its high-water mark and the producer's next stage waits).
 *
 * <p>A compressed stream runs each write through its {@link ChunkEncoder} (compressed and flushed,
 * so the client can decode it on arrival) on the writer's thread, under the encoder's lock so that
 * the chunks reach the sink in the order they were compressed; the end of the compressed stream
 * is the last chunk before {@link ReplySink#end}.
 */
public final class StreamingBody implements ResponseStream {
    final Exchange exchange;
    final Response.StreamProducer producer;
    private final ByteBufAllocator alloc;
    private final AtomicBoolean open = new AtomicBoolean(true);
    private final CompletableFuture<Void> closed = new CompletableFuture<>();
    /** Null for an identity stream; guarded by itself. */
    private final ChunkEncoder encoder;

    StreamingBody(Exchange exchange, Response.StreamProducer producer, ByteBufAllocator alloc) {
        this(exchange, producer, alloc, null);
    }

    StreamingBody(Exchange exchange, Response.StreamProducer producer, ByteBufAllocator alloc, ChunkEncoder encoder) {
        this.exchange = exchange;
        this.producer = producer;
        this.alloc = alloc;
        this.encoder = encoder;
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
        if (encoder == null) {
            exchange.sink().sendChunk(exchange, buf, done);
            return done;
        }
        synchronized (encoder) {
            if (!open.get()) {
                buf.release();
                return CompletableFuture.failedFuture(new ClosedChannelException());
            }
            ByteBuf encoded = encoder.encode(buf);
            if (!encoded.isReadable()) {
                // An empty chunk would read as the end of a chunked body.
                encoded.release();
                return CompletableFuture.completedFuture(null);
            }
            exchange.sink().sendChunk(exchange, encoded, done);
        }
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
            if (encoder != null) {
                synchronized (encoder) {
                    ByteBuf tail = encoder.finish();
                    if (tail.isReadable()) exchange.sink().sendChunk(exchange, tail, new CompletableFuture<>());
                    else tail.release();
                }
            }
            exchange.sink().end(exchange);
            exchange.releaseSlot();
            closed.complete(null);
        }
    }

    /** The producer failed: ends the response as truncated (no final chunk) and releases the slot. */
    void abort() {
        if (open.compareAndSet(true, false)) {
            freeEncoder();
            exchange.sink().abort(exchange);
            exchange.releaseSlot();
            closed.complete(null);
        }
    }

    /** The client left (called through the exchange): the producer learns it from {@link #isOpen()}, failed writes and {@link #closed()}. */
    void clientGone() {
        if (open.compareAndSet(true, false)) {
            freeEncoder();
            exchange.releaseSlot();
            closed.complete(null);
        }
    }

    private void freeEncoder() {
        if (encoder == null) return;
        synchronized (encoder) {
            encoder.close();
        }
    }
}
