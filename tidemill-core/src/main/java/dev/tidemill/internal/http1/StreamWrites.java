package dev.tidemill.internal.http1;

import dev.tidemill.internal.exchange.Exchange;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import java.nio.channels.ClosedChannelException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The streamed bodies of one connection: the one being written now, chunks that arrived for a
 * stream whose head still waits behind earlier responses (kept until it starts, so a chunk never
 * overtakes its head), and the producers waiting for the channel to become writable again (that
 * is the back-pressure: a write's stage completes only while the channel is writable).
 * Event-loop confined.
 */
final class StreamWrites {
    /** A chunk that arrived before its stream's head could go out. */
    private record Early(ByteBuf data, CompletableFuture<Void> written) {}

    /** What is buffered for one stream that has not started. */
    private static final class Pending {
        final ArrayDeque<Early> chunks = new ArrayDeque<>(4);
        boolean ended;
        boolean aborted;
    }

    private final ChannelHandlerContext ctx;
    private final List<ByteBuf> out = new ArrayList<>(3);
    private final List<CompletableFuture<Void>> waiters = new ArrayList<>();
    private final WriteStallWatch watch;
    private Map<Exchange, Pending> early;
    private Exchange current;
    private boolean http10;
    private boolean aborted;

    StreamWrites(ChannelHandlerContext ctx, WriteStallWatch watch) {
        this.ctx = ctx;
        this.watch = watch;
    }

    /** @return the stream being written now, or null */
    Exchange current() {
        return current;
    }

    /**
     * Its head was written: chunks that came early go out now.
     *
     * @return whether the stream already ended (the caller finishes it with {@link #endCurrent})
     */
    boolean start(Exchange ex, boolean http10) {
        current = ex;
        this.http10 = http10;
        aborted = false;
        Pending p = early == null ? null : early.remove(ex);
        if (p == null) return false;
        for (Early c : p.chunks) write(c.data(), c.written());
        aborted = p.aborted;
        return p.ended;
    }

    /** A chunk for {@code ex}: written now if it is the current stream, else kept. */
    void chunk(Exchange ex, ByteBuf data, CompletableFuture<Void> written) {
        if (ex == current) {
            write(data, written);
            return;
        }
        pending(ex).chunks.add(new Early(data, written));
    }

    /**
     * The producer of {@code ex} ended (or aborted) its body.
     *
     * @return whether {@code ex} is the current stream (the caller finishes it with {@link #endCurrent})
     */
    boolean end(Exchange ex, boolean abort) {
        if (ex == current) {
            aborted |= abort;
            return true;
        }
        Pending p = pending(ex);
        p.ended = true;
        p.aborted |= abort;
        return false;
    }

    /**
     * Ends the current stream: the last chunk (HTTP/1.1), with the trailers it closed with, unless it was aborted.
     *
     * @return whether the connection must close now (aborted, or HTTP/1.0, whose body ends with it)
     */
    boolean endCurrent() {
        boolean close = aborted || http10;
        if (!close) {
            ByteBuf last = current == null ? ResponseEncoder.lastChunk() : ResponseEncoder.lastChunk(current.trailers());
            watch.enqueued(last.readableBytes());
            ctx.write(last, ctx.voidPromise());
        }
        current = null;
        return close;
    }

    /** The channel is writable again: producers waiting on it continue. */
    void writable() {
        if (waiters.isEmpty()) return;
        List<CompletableFuture<Void>> ready = new ArrayList<>(waiters);
        waiters.clear();
        for (CompletableFuture<Void> w : ready) w.complete(null);
    }

    /** The connection closed: everything kept is released, every waiting producer fails. */
    void closeAll() {
        current = null;
        if (early != null) {
            for (Pending p : early.values()) {
                for (Early c : p.chunks) {
                    c.data().release();
                    c.written().completeExceptionally(new ClosedChannelException());
                }
            }
            early = null;
        }
        for (CompletableFuture<Void> w : waiters) w.completeExceptionally(new ClosedChannelException());
        waiters.clear();
    }

    private void write(ByteBuf data, CompletableFuture<Void> written) {
        ResponseEncoder.chunk(ctx.alloc(), data, http10, out);
        for (int i = 0; i < out.size(); i++) {
            watch.enqueued(out.get(i).readableBytes());
            ctx.write(out.get(i), ctx.voidPromise());
        }
        out.clear();
        if (ctx.channel().isWritable()) written.complete(null);
        else waiters.add(written);
    }

    private Pending pending(Exchange ex) {
        if (early == null) early = new IdentityHashMap<>(4);
        return early.computeIfAbsent(ex, e -> new Pending());
    }
}
