package dev.tidemill.internal.http1;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.channel.socket.ChannelInputShutdownReadComplete;
import io.netty.channel.socket.DuplexChannel;
import io.netty.util.ReferenceCountUtil;
import dev.tidemill.internal.exchange.ServerEvents;
import io.netty.util.concurrent.ScheduledFuture;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * How a connection ends once the server has written its last response: the response, then a FIN,
 * then everything the client still sends is read and thrown away until the client closes, for at
 * most the linger timeout ({@link dev.tidemill.Timeouts#linger()}).
 *
 * <p>Why not close at once: a socket closed with unread bytes in its receive buffer makes the
 * kernel send a reset, and the client's kernel then drops whatever of our response its application
 * had not read yet. A client uploading a body we refused (413 for a 1 GiB upload) would see
 * "connection reset" instead of the 413. RFC 9112 9.6 asks servers to close in stages for this
 * reason; nginx calls it lingering close.
 *
 * <p>Installed at the head of the pipeline, so nothing read while lingering reaches the HTTP
 * decoder; the server's drain event (graceful shutdown) closes at once.
 */
final class LingeringClose extends ChannelInboundHandlerAdapter {
    private LingeringClose() {}

    /**
     * Ends the connection once {@code written} (its last response) completes.
     *
     * @param written the future of the last write
     * @param linger the longest time to keep reading after the FIN
     */
    static void after(ChannelFuture written, Duration linger) {
        written.addListener(f -> start(written.channel(), f.isSuccess(), linger));
    }

    private static void start(Channel ch, boolean written, Duration linger) {
        if (!written || !ch.isActive() || !(ch instanceof DuplexChannel duplex) || duplex.isInputShutdown()) {
            ch.close(); // nothing to protect: the write failed, the client already closed its side, or no TCP socket
            return;
        }
        ch.pipeline().addFirst("lingering-close", new LingeringClose());
        duplex.shutdownOutput().addListener(f -> {
            if (!f.isSuccess()) ch.close();
        });
        // cancelled on close, so a connection that ends early is not kept reachable for the whole linger
        ScheduledFuture<?> deadline = ch.eventLoop().schedule(() -> ch.close(), linger.toNanos(), TimeUnit.NANOSECONDS);
        ch.closeFuture().addListener(f -> deadline.cancel(false));
        ch.config().setAutoRead(true); // reading may have been paused for back-pressure
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ReferenceCountUtil.release(msg);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        // swallowed: the HTTP stages after this one are done with the connection
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof ChannelInputShutdownEvent || evt == ChannelInputShutdownReadComplete.INSTANCE
                || evt == ServerEvents.DRAIN) {
            ctx.close();
            return;
        }
        ReferenceCountUtil.release(evt);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ctx.close(); // typically a reset from the client: it is gone, which is what we were waiting for
    }
}
