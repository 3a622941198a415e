package dev.tidemill.internal.server;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Caps open connections ({@link dev.tidemill.Limits#maxConnections()}): at the cap the server
 * channel stops accepting (auto-read off), so further clients wait in the kernel's backlog instead of
 * being accepted and dropped; accepting resumes when a connection closes.
 */
@ChannelHandler.Sharable
final class ConnectionLimiter extends ChannelInboundHandlerAdapter {
    private final int max;
    private final AtomicInteger open = new AtomicInteger();
    private volatile Channel serverChannel;

    ConnectionLimiter(int max) {
        this.max = max;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        serverChannel = ctx.channel();
        ctx.fireChannelActive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        Channel child = (Channel) msg;
        int n = open.incrementAndGet();
        if (n >= max) ctx.channel().config().setAutoRead(false);
        if (n > max) {
            // Auto-read off only stops the *next* accept burst; Netty may have accepted a few
            // sockets in this one already. Those few over the cap are closed at once.
            open.decrementAndGet();
            child.unsafe().closeForcibly();
            return;
        }
        child.closeFuture().addListener(f -> closed());
        ctx.fireChannelRead(msg);
    }

    private void closed() {
        Channel server = serverChannel;
        if (open.decrementAndGet() < max && server != null && server.isOpen() && !server.config().isAutoRead()) {
            server.config().setAutoRead(true);
        }
    }

    int open() {
        return open.get();
    }
}
