package dev.tidemill.internal.tls;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Bounds TLS handshakes, the expensive part of a connection (a signature and a key exchange per
 * handshake, and a held ClientHello): at most {@code Tls.maxHandshakes} in progress over the
 * listener, each within {@code Tls.handshakeTimeout} counted from the TCP accept, so a client
 * that connects and never sends a ClientHello, or dribbles one, is cut as surely as one that
 * stalls mid-handshake. A connection accepted past the limit is closed before anything is read
 * from it; connections whose handshake is done are not counted, so a flood of new ones cannot
 * starve them. One per connection; it leaves the pipeline when the handshake ends.
 */
final class HandshakeLimiter extends ChannelInboundHandlerAdapter {
    private final AtomicInteger inProgress;
    private final int max;
    private final long timeoutNanos;
    private final TlsCounters counters;
    private boolean counted;
    private ScheduledFuture<?> deadline;

    /**
     * @param inProgress handshakes in progress over the listener, shared
     * @param max the limit
     * @param timeoutNanos from accept to the end of the handshake
     * @param counters refusals and timeouts are counted there
     */
    HandshakeLimiter(AtomicInteger inProgress, int max, long timeoutNanos, TlsCounters counters) {
        this.inProgress = inProgress;
        this.max = max;
        this.timeoutNanos = timeoutNanos;
        this.counters = counters;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        if (inProgress.incrementAndGet() > max) {
            inProgress.decrementAndGet();
            counters.overHandshakeLimit.increment();
            ctx.close(); // before the first read: the ClientHello is never looked at
            return;
        }
        counted = true;
        deadline = ctx.executor().schedule(() -> {
            counters.handshakeTimeouts.increment();
            ctx.close();
        }, timeoutNanos, TimeUnit.NANOSECONDS);
        ctx.fireChannelActive();
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof SslHandshakeCompletionEvent done) {
            if (done.isSuccess()) counters.handshakes.increment();
            else if (!(done.cause() instanceof io.netty.handler.ssl.SslHandshakeTimeoutException)) counters.handshakeFailures.increment();
            release();
            ctx.pipeline().remove(this);
        }
        ctx.fireUserEventTriggered(evt);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        release();
        ctx.fireChannelInactive();
    }

    private void release() {
        if (deadline != null) deadline.cancel(false);
        if (counted) {
            counted = false;
            inProgress.decrementAndGet();
        }
    }
}
