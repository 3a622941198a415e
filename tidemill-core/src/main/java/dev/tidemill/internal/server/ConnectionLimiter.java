package dev.tidemill.internal.server;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.util.ArrayDeque;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Caps open connections ({@link dev.tidemill.Limits#maxConnections()}). At the cap the server
 * channel stops accepting (auto-read off), so further clients wait in the kernel's backlog; accepting
 * resumes when a connection closes. Auto-read off only stops the <em>next</em> accept burst: sockets
 * Netty already accepted in the current one are parked here, unregistered and unread (to the client
 * exactly like the backlog), and admitted in order as connections close.
 */
@ChannelHandler.Sharable
final class ConnectionLimiter extends ChannelInboundHandlerAdapter {
    private final int max;
    private final AtomicInteger open = new AtomicInteger();
    private final ArrayDeque<Channel> parked = new ArrayDeque<>(); // server channel's event loop only
    private volatile ChannelHandlerContext server;

    ConnectionLimiter(int max) {
        this.max = max;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        server = ctx;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        Channel child = (Channel) msg;
        if (!parked.isEmpty() || !tryOpen()) {
            parked.add(child);
            ctx.channel().config().setAutoRead(false);
            return;
        }
        admit(ctx, child);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        for (Channel c; (c = parked.poll()) != null; ) c.unsafe().closeForcibly();
        ctx.fireChannelInactive();
    }

    private boolean tryOpen() {
        for (;;) {
            int n = open.get();
            if (n >= max) return false;
            if (open.compareAndSet(n, n + 1)) {
                if (n + 1 >= max) server.channel().config().setAutoRead(false);
                return true;
            }
        }
    }

    private void admit(ChannelHandlerContext ctx, Channel child) {
        child.closeFuture().addListener(f -> closed());
        ctx.fireChannelRead(child);
    }

    private void closed() {
        open.decrementAndGet();
        ChannelHandlerContext ctx = server;
        ctx.executor().execute(() -> {
            while (!parked.isEmpty() && tryOpen()) admit(ctx, parked.poll());
            if (parked.isEmpty() && open.get() < max && ctx.channel().isOpen() && !ctx.channel().config().isAutoRead()) {
                ctx.channel().config().setAutoRead(true);
            }
        });
    }
}
