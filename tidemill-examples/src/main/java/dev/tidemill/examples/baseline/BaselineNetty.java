package dev.tidemill.examples.baseline;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.AsciiString;
import java.nio.charset.StandardCharsets;

/**
 * The baseline for Tidemill's benchmarks: a minimal hand-written Netty server (native epoll,
 * pre-encoded response), the best case for the JVM. Answers every request with
 * {@code Hello, World!}. The benchmark issue moves it under tidemill-bench with the other peers.
 */
public final class BaselineNetty {
    private static final ByteBuf BODY = Unpooled.unreleasableBuffer(
            Unpooled.directBuffer().writeBytes("Hello, World!".getBytes(StandardCharsets.US_ASCII))).asReadOnly();
    private static final AsciiString TEXT = AsciiString.cached("text/plain; charset=utf-8");
    private static final AsciiString SERVER = AsciiString.cached("Netty");
    private static final AsciiString LENGTH = AsciiString.cached(Integer.toString(BODY.readableBytes()));

    private BaselineNetty() {}

    /**
     * @param args port (default 8081), then I/O threads (default: CPUs)
     * @throws InterruptedException if interrupted while serving
     */
    public static void main(String[] args) throws InterruptedException {
        int port = args.length > 0 ? Integer.parseInt(args[0]) : 8081;
        int threads = args.length > 1 ? Integer.parseInt(args[1]) : Runtime.getRuntime().availableProcessors();
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(threads, EpollIoHandler.newFactory());
        Channel ch = new ServerBootstrap().group(group).channel(EpollServerSocketChannel.class)
                .option(ChannelOption.SO_BACKLOG, 1024)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel c) {
                        c.pipeline().addLast(new HttpServerCodec()).addLast(new Hello());
                    }
                }).bind("127.0.0.1", port).sync().channel();
        System.out.println("baseline netty on http://127.0.0.1:" + port);
        ch.closeFuture().sync();
    }

    private static final class Hello extends SimpleChannelInboundHandler<HttpObject> {
        @Override
        protected void channelRead0(ChannelHandlerContext ctx, HttpObject msg) {
            if (msg instanceof HttpRequest req) {
                FullHttpResponse res = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK, BODY.duplicate(), false);
                res.headers().set(HttpHeaderNames.CONTENT_TYPE, TEXT).set(HttpHeaderNames.CONTENT_LENGTH, LENGTH)
                        .set(HttpHeaderNames.SERVER, SERVER);
                if (!HttpUtil.isKeepAlive(req)) res.headers().set(HttpHeaderNames.CONNECTION, "close");
                ctx.write(res);
            }
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            ctx.flush();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close(); // a client reset: nothing to log, as in every other target
        }
    }
}
