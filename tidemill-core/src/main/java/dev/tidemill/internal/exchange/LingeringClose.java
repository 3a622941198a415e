package dev.tidemill.internal.exchange;

import io.netty.channel.Channel;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.channel.ChannelPromise;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.channel.socket.ChannelInputShutdownReadComplete;
import io.netty.channel.socket.DuplexChannel;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ScheduledFuture;
import java.nio.channels.ClosedChannelException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * How a connection ends once the server has written its last bytes: those bytes, then a FIN,
 * then everything the client still sends is read and thrown away until the client closes, for at
 * most the linger timeout ({@link dev.tidemill.Timeouts#linger()}).
 *
 * <p>Why not close at once: a socket closed with unread bytes in its receive buffer makes the
 * kernel send a reset, and the client's kernel then drops whatever of our last bytes its
 * application had not read yet. A client uploading a body we refused (413 for a 1 GiB upload)
 * would see "connection reset" instead of the 413; an HTTP/2 client still flooding when we end
 * the connection would never read the GOAWAY that says why. RFC 9112 9.6 asks servers to close in
 * stages for this reason; nginx calls it lingering close.
 *
 * <p>Sits at the head of the pipeline, so nothing read while lingering reaches a protocol stage.
 * HTTP/1.1 starts it after its last response ({@link #after}); HTTP/2 has it catch the close its
 * connection handler asks for after a GOAWAY ({@link #onClose}). While the server drains (graceful
 * shutdown) connections close at once.
 */
public final class LingeringClose extends ChannelDuplexHandler {
    private static final String NAME = "lingering-close";
    /** How often a close waiting for its last bytes to go out looks again, in microseconds. */
    private static final long WRITTEN_POLL_MICROS = 200;

    private final Duration linger;
    private final BooleanSupplier draining;
    private boolean lingering;

    private LingeringClose(Duration linger, BooleanSupplier draining) {
        this.linger = linger;
        this.draining = draining;
    }

    /**
     * Ends the connection once {@code written} (its last response) completes.
     *
     * @param written the future of the last write
     * @param linger the longest time to keep reading after the FIN
     * @param draining whether the server is shutting down (then a close is at once)
     */
    public static void after(ChannelFuture written, Duration linger, BooleanSupplier draining) {
        written.addListener(f -> {
            Channel ch = written.channel();
            if (!f.isSuccess() || draining.getAsBoolean() || !canLinger(ch)) {
                ch.close(); // nothing to protect: the write failed, the client already closed its side, or no TCP socket
                return;
            }
            LingeringClose handler = new LingeringClose(linger, draining);
            ch.pipeline().addFirst(NAME, handler);
            handler.start(ch.pipeline().context(handler));
        });
    }

    /**
     * Makes every later close of {@code ch} asked for by a stage of its pipeline linger, unless the
     * server is draining (then it closes at once).
     *
     * @param ch the connection
     * @param linger the longest time to keep reading after the FIN
     * @param draining whether the server is shutting down
     */
    public static void onClose(Channel ch, Duration linger, BooleanSupplier draining) {
        ch.pipeline().addFirst(NAME, new LingeringClose(linger, draining));
    }

    private static boolean canLinger(Channel ch) {
        return ch.isActive() && ch instanceof DuplexChannel duplex && !duplex.isInputShutdown();
    }

    private void start(ChannelHandlerContext ctx) {
        lingering = true;
        Channel ch = ctx.channel();
        finWhenWritten(ctx);
        // cancelled on close, so a connection that ends early is not kept reachable for the whole linger
        ScheduledFuture<?> deadline = ch.eventLoop().schedule(() -> ctx.close(), linger.toNanos(), TimeUnit.NANOSECONDS);
        ch.closeFuture().addListener(f -> deadline.cancel(false));
        ch.config().setAutoRead(true); // reading may have been paused for back-pressure
    }

    /**
     * The FIN once every byte written before it has gone out. On epoll and NIO a flush writes what
     * the socket takes there and then, so this is at once. On io_uring a write stays in flight until
     * the kernel completes it, and a shutdown submitted meanwhile can reach the socket first: Netty's
     * HTTP/2 reset limit writes its GOAWAY and closes in one call, and the client saw the FIN without
     * the GOAWAY. Checked again every {@value #WRITTEN_POLL_MICROS} us until then; the linger's
     * deadline still bounds it.
     */
    private void finWhenWritten(ChannelHandlerContext ctx) {
        Channel ch = ctx.channel();
        if (!ch.isOpen()) return;
        ChannelOutboundBuffer pending = ch.unsafe().outboundBuffer();
        if (pending != null && !pending.isEmpty()) {
            ch.eventLoop().schedule(() -> finWhenWritten(ctx), WRITTEN_POLL_MICROS, TimeUnit.MICROSECONDS);
            return;
        }
        // closes go from this handler's context on, past its own close(), which ignores them while lingering
        ((DuplexChannel) ch).shutdownOutput().addListener(f -> {
            if (!f.isSuccess()) ctx.close();
        });
    }

    /**
     * Nothing written once the linger began goes out: the connection's last bytes are the ones
     * before it (a GOAWAY), as when the FIN follows at once. A stage still decoding what it had read
     * (Netty's reset limit closes in the middle of a read) would otherwise add frames behind the
     * GOAWAY while the FIN waits for the writes in flight.
     */
    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (!lingering) {
            ctx.write(msg, promise);
            return;
        }
        ReferenceCountUtil.release(msg);
        if (!promise.isVoid()) promise.tryFailure(new ClosedChannelException());
    }

    /**
     * A close asked for by a later stage starts the linger. Once lingering, further closes (a
     * protocol stage that meets more of the client's bytes it already gave up on) wait for the
     * linger to end, unless the server is stopping.
     */
    @Override
    public void close(ChannelHandlerContext ctx, ChannelPromise promise) {
        // not writable: the client is not reading what we sent, so no lingering can get it there
        if (draining.getAsBoolean() || (!lingering && (!canLinger(ctx.channel()) || !ctx.channel().isWritable()))) {
            ctx.close(promise);
            return;
        }
        ctx.channel().closeFuture().addListener(f -> promise.trySuccess());
        if (lingering) return;
        ctx.flush();
        start(ctx);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (lingering) {
            ReferenceCountUtil.release(msg);
        } else {
            ctx.fireChannelRead(msg);
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        // swallowed while lingering: the stages after this one are done with the connection
        if (!lingering) ctx.fireChannelReadComplete();
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (!lingering) {
            ctx.fireUserEventTriggered(evt);
        } else if (evt instanceof ChannelInputShutdownEvent || evt == ChannelInputShutdownReadComplete.INSTANCE
                || evt == ServerEvents.DRAIN) {
            ctx.close();
        } else {
            ReferenceCountUtil.release(evt);
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (lingering) {
            ctx.close(); // typically a reset from the client: it is gone, which is what we were waiting for
        } else {
            ctx.fireExceptionCaught(cause);
        }
    }
}
