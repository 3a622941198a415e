package dev.tidemill.internal.http2;

import dev.tidemill.Problem;
import dev.tidemill.internal.exchange.RequestBodyQueue;
import dev.tidemill.internal.exchange.Exchange;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2LocalFlowController;
import io.netty.handler.codec.http2.Http2Stream;
import java.nio.channels.ClosedChannelException;
import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;

/**
 * One stream's request, as the connection tracks it (attached to Netty's {@link Http2Stream}):
 * its exchange, the body being gathered (a route that reads it whole) or streamed (a route with
 * {@code streamedBody()}), the request timer, and a streamed response's producer waiting for the
 * stream's window. Event-loop confined.
 */
final class H2Request {
    final Exchange exchange;
    final Http2Stream stream;
    /** The body so far, for a route that reads it whole; null once handed over or for none. */
    private CompositeByteBuf body;
    private long bodyBytes;
    /** The streamed body's transport side, or null. */
    H2RequestBody source;
    /** An extended CONNECT's stream as a channel (RFC 8441), or null for any other request. */
    H2Tunnel tunnel;
    /** The answer was decided before dispatch (refused), or the body failed: DATA still coming is dropped. */
    boolean refused;
    /** Every byte of the request arrived (END_STREAM seen). */
    boolean requestEnded;
    /** The reply's head went out. */
    boolean replied;
    /** A streamed response's chunk waits for the stream (or connection) to be writable. */
    CompletableFuture<Void> waitingWrite;
    /** The last DATA of a streamed answer handed to the encoder: an abort resets the stream only once it is written. */
    io.netty.channel.ChannelFuture lastData;
    ScheduledFuture<?> timeout;
    /** {@link System#nanoTime} since the reply has waited for window with none granted; 0 while it is not waiting ({@link H2WriteStall}). */
    long stalledSince;
    /** {@link System#nanoTime} of the last body piece (or dispatch): a streamed body's request timer counts from it. */
    long lastPiece;
    /**
     * A streamed answer's writes that came before its head, in order; null while none. A producer on the event loop
     * (an event stream's topic pump) can outrun a head that a worker loop hands over through the batcher only once
     * its own drain ends: DATA before HEADERS would break the stream.
     */
    private ArrayDeque<Runnable> behindHead;
    /** The caller is authenticated off the loop: DATA (and the end) waits in {@link #held}, its window not given back. */
    boolean admitting;
    private ArrayDeque<Object[]> held;

    /** Reads a DATA frame's bytes as the connection does; returns the bytes whose window may be given back. */
    interface DataReader {
        int read(ByteBuf data, boolean end) throws Http2Exception;
    }

    H2Request(Exchange exchange, Http2Stream stream) {
        this.exchange = exchange;
        this.stream = stream;
    }

    /**
     * @param data a DATA frame's bytes (retained here)
     * @return the body's size so far
     */
    long gather(ByteBuf data, ByteBufAllocator alloc) {
        int n = data.readableBytes();
        bodyBytes += n;
        if (n > 0) {
            if (body == null) body = alloc.compositeBuffer(1024);
            body.addComponent(true, data.retain());
        }
        return bodyBytes;
    }

    /** @return the gathered body's bytes (released here) */
    byte[] takeBody() {
        if (body == null) return new byte[0];
        byte[] b = new byte[body.readableBytes()];
        body.readBytes(b);
        release();
        return b;
    }

    /** Drops whatever was gathered and stops the timer. */
    void release() {
        if (body != null) {
            body.release();
            body = null;
        }
    }

    /** Keeps a DATA frame (retained) until the verdict; an empty one with {@code end} stands for trailers. */
    void hold(ByteBuf data, boolean end) {
        if (held == null) held = new ArrayDeque<>(2);
        held.add(new Object[] {data.retain(), end});
    }

    /** Reads what was held, in order, giving back the window each read frees. */
    void replayHeld(DataReader reader, Http2LocalFlowController flow) throws Http2Exception {
        while (held != null && !held.isEmpty()) {
            Object[] f = held.poll();
            ByteBuf data = (ByteBuf) f[0];
            try {
                int done = reader.read(data, (Boolean) f[1]);
                if (done > 0 && stream.state() != Http2Stream.State.CLOSED) flow.consumeBytes(stream, done);
            } finally {
                data.release();
            }
        }
    }

    /** @return whether {@code write} waits for the head (held until {@link #runHeld}) */
    boolean holdBehindHead(Runnable write) {
        if (replied) return false;
        if (behindHead == null) behindHead = new ArrayDeque<>(4);
        behindHead.add(write);
        return true;
    }

    /** Runs what waited for the head: once it is out, or when the stream closes first (the writes then release their buffers). */
    void runHeld() {
        ArrayDeque<Runnable> held = behindHead;
        behindHead = null;
        if (held != null) held.forEach(Runnable::run);
    }

    /**
     * The stream closed (answered, reset or with its connection): the timer stops, a gathered body is dropped, a
     * tunnel's protocol ends (a WebSocket: 1006 unless closed first), a handler still running is abandoned (an
     * answered one is unaffected), a streamed body still coming fails, and a producer waiting for window learns it.
     */
    void streamClosed() {
        cancelTimeout();
        release();
        if (tunnel != null) tunnel.streamClosed();
        exchange.transportClosed();
        if (source != null && !source.stream().ended()) {
            source.stream().fail(Problem.of(400, "Bad Request", "the stream was closed before the body's end"));
        }
        exchange.ended();
        failWaiting();
        runHeld();
        while (held != null && !held.isEmpty()) ((ByteBuf) held.poll()[0]).release();
    }

    /** The stream can take more: the producer waiting for it goes on. */
    void writable() {
        CompletableFuture<Void> w = waitingWrite;
        waitingWrite = null;
        if (w != null) w.complete(null);
    }

    /** The stream closed: the producer waiting for it learns so. */
    private void failWaiting() {
        CompletableFuture<Void> w = waitingWrite;
        waitingWrite = null;
        if (w != null) w.completeExceptionally(new ClosedChannelException());
    }

    void cancelTimeout() {
        if (timeout != null) {
            timeout.cancel(false);
            timeout = null;
        }
    }

    /** @return the streamed body, when the route streams it */
    RequestBodyQueue streamed() {
        return source == null ? null : source.stream();
    }
}
