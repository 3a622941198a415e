package dev.tidemill.internal.websocket;

import dev.tidemill.WebSocketOptions;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.websocketx.PingWebSocketFrame;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * A connection's ping and idle timer: a ping after {@link WebSocketOptions#pingInterval()}
 * without a frame from the peer, the idle timeout after {@link WebSocketOptions#idleTimeout()}
 * without any. One timer on the event loop, re-armed for what is due next, so a busy connection
 * costs a clock read per read and no timer work per frame. Event-loop confined.
 */
final class Heartbeat {
    /** What the timer needs of its connection. */
    interface Peer {
        /** @return whether the connection is closing or closed: the timer stops */
        boolean closing();

        /** The idle timeout passed. */
        void idle();
    }

    private final ChannelHandlerContext ctx;
    private final Peer peer;
    private final long pingNanos;
    private final long idleNanos;
    private long lastRead;
    /** {@link #lastRead} when the last ping went out: no second ping until the peer sends something. */
    private long pingedAt = -1;
    private ScheduledFuture<?> timer;

    Heartbeat(ChannelHandlerContext ctx, WebSocketOptions options, Peer peer) {
        this.ctx = ctx;
        this.peer = peer;
        this.pingNanos = options.pingInterval().toNanos();
        this.idleNanos = options.idleTimeout().toNanos();
    }

    void start() {
        lastRead = System.nanoTime();
        arm();
    }

    /** A frame came from the peer. */
    void read() {
        lastRead = System.nanoTime();
    }

    void stop() {
        if (timer != null) timer.cancel(false);
    }

    private void arm() {
        long pingAt = lastRead + pingNanos;
        long idleAt = lastRead + idleNanos;
        // While a ping is unanswered, look again a ping interval later: a pong moves lastRead, and
        // the next ping then follows a full interval after it (not the idle deadline).
        long next = pingedAt == lastRead ? Math.min(idleAt, System.nanoTime() + pingNanos) : Math.min(pingAt, idleAt);
        timer = ctx.executor().schedule(this::tick, Math.max(0, next - System.nanoTime()), TimeUnit.NANOSECONDS);
    }

    private void tick() {
        if (peer.closing()) return;
        long quiet = System.nanoTime() - lastRead;
        if (quiet >= idleNanos) {
            peer.idle();
            return;
        }
        if (quiet >= pingNanos && pingedAt != lastRead) {
            pingedAt = lastRead;
            ctx.writeAndFlush(new PingWebSocketFrame(Unpooled.EMPTY_BUFFER), ctx.voidPromise());
        }
        arm();
    }
}
