package dev.tidemill.internal.http1;

import dev.tidemill.internal.exchange.ConnectionTakeover;
import dev.tidemill.internal.exchange.Exchange;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;

/**
 * A request that asks to switch protocols (RFC 9110 7.8), from its head to its answer. The
 * {@link RequestDecoder} stops decoding after such a request and the connection stops reading,
 * so the bytes that follow stay raw. A {@code 101} hands them, and the connection, to the new
 * protocol's handlers ({@link #takeOver}); any other answer resumes HTTP/1.1 ({@link #answered}).
 * Event-loop confined.
 */
final class UpgradeHandoff {
    private final RequestDecoder decoder;
    private Exchange upgrading;

    UpgradeHandoff(RequestDecoder decoder) {
        this.decoder = decoder;
    }

    /** An HTTP/1.0 request: its {@code Upgrade} is ignored, as RFC 9110 7.8 says a server MUST. */
    static void ignoreUpgrade(io.netty.handler.codec.http.HttpRequest req) {
        req.headers().remove(io.netty.handler.codec.http.HttpHeaderNames.UPGRADE);
    }

    /** A head was read: if the decoder held after it, that exchange is the one asking to upgrade. */
    void headRead(Exchange ex, ChannelHandlerContext ctx) {
        if (!decoder.holding()) return;
        upgrading = ex;
        ctx.channel().config().setAutoRead(false);
    }

    /** @return whether an upgrade request waits for its answer (reading stays off meanwhile) */
    boolean pending() {
        return upgrading != null;
    }

    /** Replies were written: if the upgrade request is among them (not a 101), HTTP/1.1 goes on. */
    void answered(ReplyRing ring) {
        if (upgrading != null && !ring.holds(upgrading)) {
            upgrading = null;
            decoder.resumeDecoding();
        }
    }

    /**
     * The 101 is flushed: installs the new protocol and removes HTTP/1.1's handlers, the decoder
     * last, so what it held reaches the new handlers as their first read. In a fresh task: this may
     * be called inside the decoder's own read, which must not remove itself mid-decode.
     *
     * @param connection the HTTP/1.1 connection handler, removed too
     */
    void takeOver(ChannelHandlerContext ctx, ConnectionTakeover takeover, ChannelHandler connection) {
        upgrading = null;
        ctx.executor().execute(() -> {
            if (!ctx.channel().isActive()) {
                takeover.abandoned();
                return;
            }
            takeover.install(ctx.channel());
            ChannelPipeline p = ctx.pipeline();
            p.remove(connection);
            p.remove(decoder);
            ctx.channel().config().setAutoRead(true);
        });
    }
}
