package dev.tidemill.internal.http2;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2RemoteFlowController;
import io.netty.handler.codec.http2.Http2Stream;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The write-stall timeout ({@link dev.tidemill.Timeouts#writeStall()}, 30 s by default) for
 * HTTP/2: a stream with response bytes waiting that the client grants no window for that long is
 * reset with CANCEL, which ends its exchange and frees what it holds, while the connection and its
 * other streams go on (CVE-2019-9517: a reader that opens 100 streams and never a window). A
 * connection whose socket takes nothing for that long (the client reads no TCP at all) is closed.
 *
 * <p>Progress is a WINDOW_UPDATE for the stream, or for the connection while the stream's own
 * window is open, or the socket becoming writable again. Checked every quarter of the timeout,
 * and only while some reply is under way, so an idle connection has no timer. Event-loop
 * confined.
 */
final class H2WriteStall {
    private static final Logger LOG = LoggerFactory.getLogger(H2WriteStall.class);

    private final H2Connection conn;
    private final long stallNanos;
    private final long periodNanos;
    private ScheduledFuture<?> timer;
    /** {@link System#nanoTime} of the last WINDOW_UPDATE for the connection; 0 for none yet. */
    private long connectionGrantedAt;
    /** {@link System#nanoTime} since the socket stopped taking bytes; 0 while it takes them. */
    private long unwritableSince;

    H2WriteStall(H2Connection conn, long stallNanos) {
        this.conn = conn;
        this.stallNanos = stallNanos;
        this.periodNanos = Math.max(TimeUnit.MILLISECONDS.toNanos(50), stallNanos / 4);
    }

    /** A reply is under way: watch it, unless already watching. */
    void arm(ChannelHandlerContext ctx) {
        if (timer == null && ctx.channel().isActive()) {
            timer = ctx.executor().schedule(() -> check(ctx), periodNanos, TimeUnit.NANOSECONDS);
        }
    }

    /** @param streamId a WINDOW_UPDATE's stream; 0 for the connection (O(1): {@link #check} reads it) */
    void granted(int streamId) {
        if (streamId == 0) {
            connectionGrantedAt = System.nanoTime();
            return;
        }
        Http2Stream s = conn.connection().stream(streamId);
        H2Request r = s == null ? null : s.getProperty(conn.key());
        if (r != null) r.stalledSince = 0;
    }

    /** The socket takes bytes again. */
    void writable() {
        unwritableSince = 0;
    }

    void cancel() {
        if (timer != null) timer.cancel(false);
        timer = null;
    }

    private void check(ChannelHandlerContext ctx) {
        timer = null;
        if (!ctx.channel().isActive()) return;
        long now = System.nanoTime();
        boolean watching = false;
        if (!ctx.channel().isWritable()) {
            if (unwritableSince == 0) {
                unwritableSince = now;
            } else if (now - unwritableSince > stallNanos) {
                LOG.debug("{}: the client took no bytes for the write-stall timeout; closing", ctx.channel());
                ctx.channel().close();
                return;
            }
            watching = true;
        }
        Http2RemoteFlowController flow = conn.encoder().flowController();
        List<Http2Stream> stalled = new ArrayList<>();
        boolean[] waiting = {false};
        forEachActive(s -> {
            H2Request r = s.getProperty(conn.key());
            if (r == null || !r.replied) return;
            if (!flow.hasFlowControlled(s) && r.waitingWrite == null) {
                r.stalledSince = 0;
                return;
            }
            waiting[0] = true;
            if (r.stalledSince == 0 || (connectionGrantedAt - r.stalledSince > 0 && flow.windowSize(s) > 0)) {
                r.stalledSince = now; // waiting from now on; or the connection's window moved while this stream's own was open
            } else if (now - r.stalledSince > stallNanos) {
                stalled.add(s);
            }
        });
        for (Http2Stream s : stalled) {
            LOG.debug("stream {}: no window for the write-stall timeout; reset", s.id());
            conn.resetStream(ctx, s.id(), Http2Error.CANCEL.code(), ctx.newPromise());
        }
        if (!stalled.isEmpty()) conn.flush(ctx);
        if (watching || waiting[0]) arm(ctx);
    }

    private void forEachActive(java.util.function.Consumer<Http2Stream> each) {
        try {
            conn.connection().forEachActiveStream(s -> {
                each.accept(s);
                return true;
            });
        } catch (io.netty.handler.codec.http2.Http2Exception e) {
            throw new IllegalStateException(e); // only a visitor's own exception; ours throws none
        }
    }
}
