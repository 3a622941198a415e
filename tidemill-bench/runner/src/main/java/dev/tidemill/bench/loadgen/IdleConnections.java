package dev.tidemill.bench.loadgen;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpVersion;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Opens many keep-alive connections in bounded batches, sends one {@code GET} on each (so the
 * server has set up everything a served connection holds) and leaves them open and idle until
 * {@link #close}. Used by the memory suite to measure a server's RSS with 10,000 idle connections.
 */
public final class IdleConnections implements AutoCloseable {
    private final EventLoopGroup group;
    private final AtomicInteger answered = new AtomicInteger();
    private final AtomicInteger failed = new AtomicInteger();
    private final AtomicInteger closedEarly = new AtomicInteger();

    private IdleConnections(EventLoopGroup group) {
        this.group = group;
    }

    /**
     * Opens {@code count} connections, {@code batch} at a time: a batch's connections are all
     * answered (or failed, or out of time) before the next batch starts, so the server never sees
     * more than one batch of connects at once.
     *
     * @param host the server's IP literal
     * @param port its port
     * @param path what each connection asks for once
     * @param count connections to open
     * @param batch connections per batch
     * @param batchTimeoutMillis how long one batch may take
     * @return the open connections (check {@link #answered()})
     * @throws InterruptedException if interrupted
     */
    public static IdleConnections open(String host, int port, String path, int count, int batch, long batchTimeoutMillis)
            throws InterruptedException {
        boolean epoll = Epoll.isAvailable();
        IdleConnections c = new IdleConnections(
                new MultiThreadIoEventLoopGroup(1, epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory()));
        try {
            for (int start = 0; start < count; start += batch) {
                int n = Math.min(batch, count - start);
                CountDownLatch latch = new CountDownLatch(n);
                Bootstrap b = new Bootstrap().group(c.group)
                        .channel(epoll ? EpollSocketChannel.class : NioSocketChannel.class)
                        .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) batchTimeoutMillis)
                        .handler(new ChannelInitializer<SocketChannel>() {
                            @Override
                            protected void initChannel(SocketChannel ch) {
                                ch.pipeline().addLast(new HttpClientCodec(), new HttpObjectAggregator(1 << 16), c.new Once(latch));
                            }
                        });
                for (int i = 0; i < n; i++) {
                    b.connect(host, port).addListener((io.netty.channel.ChannelFutureListener) f -> {
                        if (!f.isSuccess()) {
                            c.failed.incrementAndGet();
                            latch.countDown();
                            return;
                        }
                        Channel ch = f.channel();
                        DefaultFullHttpRequest req = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, path,
                                Unpooled.EMPTY_BUFFER);
                        req.headers().set(HttpHeaderNames.HOST, host + ":" + port);
                        ch.writeAndFlush(req);
                    });
                }
                if (!latch.await(batchTimeoutMillis, TimeUnit.MILLISECONDS)) {
                    c.failed.addAndGet((int) latch.getCount()); // counted as failed; the stragglers are closed with the rest
                }
            }
            return c;
        } catch (InterruptedException | RuntimeException e) {
            c.close();
            throw e;
        }
    }

    /** @return connections that got a 2xx answer to their one request */
    public int answered() {
        return answered.get();
    }

    /** @return connections that could not connect, got another answer, or ran out of time */
    public int failed() {
        return failed.get();
    }

    /** @return connections the server has closed since they were answered (idle timeouts) */
    public int closedEarly() {
        return closedEarly.get();
    }

    /** Closes every connection. */
    @Override
    public void close() {
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(10, TimeUnit.SECONDS);
    }

    /** Counts one answer per connection, then keeps the connection open and watches for the server closing it. */
    private final class Once extends SimpleChannelInboundHandler<FullHttpResponse> {
        private final CountDownLatch latch;
        private boolean done;

        Once(CountDownLatch latch) {
            this.latch = latch;
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpResponse res) {
            if (done) return;
            done = true;
            if (res.status().code() >= 200 && res.status().code() < 300) answered.incrementAndGet(); else failed.incrementAndGet();
            latch.countDown();
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            if (!done) {
                done = true;
                failed.incrementAndGet();
                latch.countDown();
            } else if (!group.isShuttingDown()) {
                closedEarly.incrementAndGet();
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }
}
