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
public final class StreamedResponseBody implements ResponseStream {
    final Exchange exchange;
    final Response.StreamProducer producer;
    private final ByteBufAllocator alloc;
    private final AtomicBoolean open = new AtomicBoolean(true);
    private final CompletableFuture<Void> closed = new CompletableFuture<>();
    /** Null for an identity stream; guarded by itself. */
    private final ChunkEncoder encoder;

    StreamedResponseBody(Exchange exchange, Response.StreamProducer producer, ByteBufAllocator alloc) {
        this(exchange, producer, alloc, null);
    }

    StreamedResponseBody(Exchange exchange, Response.StreamProducer producer, ByteBufAllocator alloc, ChunkEncoder encoder) {
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

    /**
     * Writes {@code text}, saying whether more writes follow at once ({@link ReplySink#sendChunk(Exchange, ByteBuf,
     * CompletableFuture, boolean)}): a topic's stream delivering its backlog.
     */
    CompletionStage<Void> write(String text, boolean more) {
        if (!open.get()) return CompletableFuture.failedFuture(new ClosedChannelException());
        if (text.isEmpty()) return CompletableFuture.completedFuture(null);
        ByteBuf buf = alloc.buffer(ByteBufUtil.utf8MaxBytes(text));
        ByteBufUtil.writeUtf8(buf, text);
        return send(buf, more);
    }

    private CompletionStage<Void> send(ByteBuf buf) {
        return send(buf, false);
    }

    private CompletionStage<Void> send(ByteBuf buf, boolean more) {
        if (!buf.isReadable()) {
            buf.release();
            return CompletableFuture.completedFuture(null);
        }
        CompletableFuture<Void> done = new CompletableFuture<>();
        if (encoder == null) {
            exchange.sink().sendChunk(exchange, buf, done, more);
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
            exchange.sink().sendChunk(exchange, encoded, done, more);
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

    /** Fields a trailer section must not carry (RFC 9110 6.5.1: framing, routing, authentication, controls, the body's own metadata). */
    private static final java.util.Set<String> NOT_TRAILERS = java.util.Set.of("content-length", "transfer-encoding", "host",
            "content-encoding", "content-type", "content-range", "trailer", "te", "connection", "keep-alive", "upgrade",
            "proxy-connection", "set-cookie", "authorization", "proxy-authenticate", "www-authenticate", "cache-control",
            "expires", "date", "location", "retry-after", "vary", "age", "expect", "max-forwards", "pragma", "range");

    private volatile java.util.Map<String, String> trailers = java.util.Map.of();

    /** @return the trailer fields the producer closed with, names in lower case; empty for none */
    public java.util.Map<String, String> trailers() {
        return trailers;
    }

    @Override
    public void close(java.util.Map<String, String> fields) {
        java.util.Map<String, String> checked = new java.util.LinkedHashMap<>();
        for (java.util.Map.Entry<String, String> e : fields.entrySet()) {
            String name = e.getKey().toLowerCase(java.util.Locale.ROOT);
            if (name.isEmpty() || !name.chars().allMatch(StreamedResponseBody::tokenChar)) {
                throw new IllegalArgumentException("trailer name is not a token: " + e.getKey());
            }
            if (NOT_TRAILERS.contains(name)) throw new IllegalArgumentException(name + " cannot be a trailer field (RFC 9110 6.5.1)");
            String value = e.getValue();
            if (value.indexOf('\r') >= 0 || value.indexOf('\n') >= 0 || value.indexOf('\0') >= 0) {
                throw new IllegalArgumentException("trailer " + name + ": CR, LF or NUL in its value");
            }
            checked.put(name, value.strip());
        }
        if (!open.get()) return;
        trailers = java.util.Collections.unmodifiableMap(checked);
        close();
    }

    /** RFC 9110 5.6.2 tchar. */
    private static boolean tokenChar(int c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
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
