package dev.tidemill.internal.http2;

import io.netty.channel.ChannelHandlerContext;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The idle timeout ({@link dev.tidemill.Timeouts#idle()}, 15 s by default) for HTTP/2, as for a
 * keep-alive HTTP/1.1 connection: a connection with no stream open for that long ends gracefully
 * (GOAWAY NO_ERROR naming the last stream, then the close). PING, SETTINGS or PRIORITY frames do
 * not keep it open, so a client cannot hold a connection slot with control frames alone; without
 * this an h2 connection that opened no stream, or stopped opening them, stayed open until the
 * client left. The timer runs only while no stream is open. Event-loop confined.
 */
final class H2Idle {
    private final H2Connection conn;
    private final long idleNanos;
    private ScheduledFuture<?> timer;

    H2Idle(H2Connection conn, long idleNanos) {
        this.conn = conn;
        this.idleNanos = idleNanos;
    }

    /** No stream is open (the connection began, or its last stream closed): start counting. */
    void start(ChannelHandlerContext ctx) {
        cancel();
        if (!ctx.channel().isActive()) return;
        timer = ctx.executor().schedule(() -> {
            timer = null;
            if (conn.connection().numActiveStreams() == 0 && ctx.channel().isActive()) conn.closeGracefully(ctx);
        }, idleNanos, TimeUnit.NANOSECONDS);
    }

    /** A stream opened, or the connection closed. */
    void cancel() {
        if (timer != null) timer.cancel(false);
        timer = null;
    }
}
