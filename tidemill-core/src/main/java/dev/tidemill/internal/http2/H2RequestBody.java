package dev.tidemill.internal.http2;

import dev.tidemill.internal.exchange.RequestBodySource;
import dev.tidemill.internal.exchange.RequestBodyQueue;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2LocalFlowController;
import io.netty.handler.codec.http2.Http2Stream;
import java.util.concurrent.atomic.LongAdder;

/**
 * A streamed request body on an HTTP/2 stream: the {@link RequestBodySource} whose flow control is the
 * stream's window. DATA is handed to the {@link RequestBodyQueue} unconsumed, so the window the client
 * may fill shrinks with every byte the reader has not taken; what the reader takes is given back
 * as it takes it ({@code consumeBytes}; Netty sends WINDOW_UPDATE once half the window is back). A slow handler therefore
 * closes its own stream's window, never the connection's (which is sized for every stream's full
 * window at once). Abandoning gives every held byte back and resets the stream with
 * {@code NO_ERROR} once the answer is out (RFC 9113 8.1).
 */
final class H2RequestBody implements RequestBodySource {
    private final ChannelHandlerContext ctx;
    private final Http2LocalFlowController flow;
    private final Http2Stream stream;
    private final RequestBodyQueue body;
    private final long limit;
    /** DATA bytes offered to the body and not yet given back to the window. */
    private long unreturned;
    private long seen;
    private boolean abandoned;
    private final Runnable onAbandon;

    H2RequestBody(ChannelHandlerContext ctx, Http2LocalFlowController flow, Http2Stream stream, int highWater, long limit,
            LongAdder held, Runnable onAbandon) {
        this.ctx = ctx;
        this.flow = flow;
        this.stream = stream;
        this.limit = limit;
        this.onAbandon = onAbandon;
        this.body = new RequestBodyQueue(this, ctx.alloc(), highWater, held);
    }

    RequestBodyQueue stream() {
        return body;
    }

    /**
     * @param data a DATA frame's bytes
     * @return false when the body passed the route's limit (the caller answers 413)
     */
    boolean data(ByteBuf data) throws Http2Exception {
        int n = data.readableBytes();
        seen += n;
        if (seen > limit) return false;
        if (abandoned) {
            flow.consumeBytes(stream, n);
            return true;
        }
        if (n > 0) {
            unreturned += n;
            body.offer(data.retain());
        }
        return true;
    }

    boolean abandoned() {
        return abandoned;
    }

    @Override
    public void demand() {
        // nothing: the window reopens as the reader takes bytes (taken), not when the stream runs low
    }

    @Override
    public void taken(int bytes) {
        if (ctx.executor().inEventLoop()) giveBack(bytes);
        else ctx.executor().execute(() -> giveBack(bytes));
    }

    /** Bytes the reader took go back to the stream's window (Netty sends WINDOW_UPDATE past half of it). */
    private void giveBack(int bytes) {
        if (abandoned || bytes <= 0 || stream.state() == Http2Stream.State.CLOSED) return;
        unreturned -= bytes;
        try {
            if (flow.consumeBytes(stream, bytes)) ctx.flush();
        } catch (Http2Exception e) {
            ctx.fireExceptionCaught(e);
        }
    }

    @Override
    public void abandon() {
        ctx.executor().execute(() -> {
            if (abandoned) return;
            abandoned = true;
            long back = unreturned;
            unreturned = 0;
            try {
                if (back > 0 && stream.state() != Http2Stream.State.CLOSED) flow.consumeBytes(stream, (int) back);
            } catch (Http2Exception e) {
                ctx.fireExceptionCaught(e);
            }
            onAbandon.run();
        });
    }

    @Override
    public boolean onTransportThread() {
        return ctx.executor().inEventLoop();
    }
}
