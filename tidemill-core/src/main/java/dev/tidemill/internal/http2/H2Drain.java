package dev.tidemill.internal.http2;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.util.concurrent.ScheduledFuture;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * A graceful end of one HTTP/2 connection, as RFC 9113 6.8 describes it: a GOAWAY with the
 * largest stream id and NO_ERROR ("no new streams, please"), a PING, and once its ACK arrives
 * (a round trip later, so every stream the client opened before it read the first GOAWAY has
 * arrived) or {@link #ROUND_TRIP_WAIT} passes, a second GOAWAY naming the last stream taken.
 * Then the connection closes once its streams in flight end, within the shutdown grace (Netty's
 * graceful close). Why two GOAWAYs: with one, a request the client sent while ours was on the wire
 * has an id past the one named, is dropped, and the client cannot tell whether it ran (grpc-java
 * #3442 is that bug). Event-loop confined.
 */
final class H2Drain {
    /** The longest wait for the PING's ACK before the second GOAWAY: 1 s, or the grace if shorter. */
    static final Duration ROUND_TRIP_WAIT = Duration.ofSeconds(1);
    /** The PING's payload: what marks its ACK as the drain's. */
    static final long PING_DATA = 0x7469_6465_6d69_6c6cL; // "tidemill"

    private final H2Connection conn;
    private boolean started;
    private boolean finished;
    private ScheduledFuture<?> timer;

    H2Drain(H2Connection conn) {
        this.conn = conn;
    }

    /** Begins the drain: the first GOAWAY and the PING. Idempotent. */
    void start(ChannelHandlerContext ctx) {
        if (started) return;
        started = true;
        if (!ctx.channel().isActive()) return;
        conn.goAway(ctx, Integer.MAX_VALUE, Http2Error.NO_ERROR.code(), Unpooled.EMPTY_BUFFER, ctx.newPromise());
        conn.encoder().writePing(ctx, false, PING_DATA, ctx.newPromise());
        conn.flush(ctx);
        long wait = Math.min(ROUND_TRIP_WAIT.toNanos(), conn.server().config().timeouts().shutdownGrace().toNanos());
        timer = ctx.executor().schedule(() -> finish(ctx), wait, TimeUnit.NANOSECONDS);
    }

    /** @param data a PING ACK's payload: the drain's ends the wait */
    void pingAcked(ChannelHandlerContext ctx, long data) {
        if (started && data == PING_DATA) finish(ctx);
    }

    private void finish(ChannelHandlerContext ctx) {
        if (finished) return;
        finished = true;
        if (timer != null) timer.cancel(false);
        if (!ctx.channel().isActive()) return;
        conn.goAway(ctx, conn.connection().remote().lastStreamCreated(), Http2Error.NO_ERROR.code(), Unpooled.EMPTY_BUFFER,
                ctx.newPromise());
        conn.closeGracefully(ctx);
    }
}
