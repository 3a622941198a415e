package dev.tidemill.bench.targets;

import dev.tidemill.bench.common.LoopsContract;
import dev.tidemill.bench.common.Scenario;
import dev.tidemill.bench.common.TlsContract;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.uring.IoUring;
import io.netty.channel.uring.IoUringAdaptiveBufferRingAllocator;
import io.netty.channel.uring.IoUringBufferRingConfig;
import io.netty.channel.uring.IoUringChannelOption;
import io.netty.channel.uring.IoUringIoHandler;
import io.netty.channel.uring.IoUringIoHandlerConfig;
import io.netty.channel.uring.IoUringServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketServerProtocolHandler;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import java.nio.file.Path;

/**
 * Raw Netty 4.2 in the event-loop matrix ({@link LoopsContract}), one transport per process, so
 * that a Tidemill column reads against Netty on the same transport. Arguments {@code <port>
 * <tlsPort> <tcpPort> <ioThreads> <certDir> <transport>}, the transport one of {@code nio},
 * {@code epoll}, {@code io_uring} or {@code io_uring-rings} (io_uring with a provided-buffer ring:
 * {@link IoUringIoHandlerConfig#setBufferRingConfig} with one ring of {@value #RING_BUFFERS}
 * buffers sized by {@link IoUringAdaptiveBufferRingAllocator}, and every child channel reading from
 * it through {@link IoUringChannelOption#IO_URING_BUFFER_GROUP_ID}). A transport this kernel
 * refuses exits with status 3 and Netty's reason, before binding.
 *
 * <p>HTTP is Netty's codec and aggregator with a pre-built response whose body is a
 * {@code retainedDuplicate()}; the echo is {@link WebSocketServerProtocolHandler} and a handler that
 * writes every binary frame back; the TCP echo writes what it reads and flushes once per read
 * batch. TLS is {@link SslContextBuilder} with OpenSSL (netty-tcnative) where it loads, else the
 * JDK's engine. Every handler runs on the event loop.
 */
public final class LoopsNetty {
    /** Buffers in the provided-buffer ring of {@code io_uring-rings} (a power of two, as the kernel wants). */
    static final short RING_BUFFERS = 512;
    private static final short RING_GROUP = 1;
    /** Exit status when the transport cannot run here. */
    static final int UNAVAILABLE = 3;

    private LoopsNetty() {}

    /**
     * @param args see the class comment
     * @throws Exception if a port cannot be bound or the certificate read
     */
    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]), tlsPort = Integer.parseInt(args[1]), tcpPort = Integer.parseInt(args[2]);
        int threads = Integer.parseInt(args[3]);
        Path certs = Path.of(args[4]);
        String transport = args[5];
        String refused = refusal(transport);
        if (refused != null) {
            System.out.println(LoopsContract.READY_PREFIX + " netty " + transport + " unavailable: " + refused);
            System.exit(UNAVAILABLE);
        }
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(threads, ioHandler(transport));
        Class<? extends ServerChannel> channel = switch (transport) {
            case "nio" -> NioServerSocketChannel.class;
            case "epoll" -> EpollServerSocketChannel.class;
            default -> IoUringServerSocketChannel.class;
        };
        boolean openssl = OpenSsl.isAvailable();
        SslContext tls = SslContextBuilder.forServer(TlsContract.cert(certs).toFile(), TlsContract.key(certs).toFile())
                .sslProvider(openssl ? SslProvider.OPENSSL : SslProvider.JDK).build();
        bind(group, channel, transport, port, web(null));
        bind(group, channel, transport, tlsPort, web(tls));
        if (tcpPort > 0) {
            bind(group, channel, transport, tcpPort, new ChannelInitializer<SocketChannel>() {
                @Override
                protected void initChannel(SocketChannel c) {
                    c.pipeline().addLast(new TcpEcho());
                }
            });
        }
        System.out.println(LoopsContract.READY_PREFIX + " netty " + transport + " on " + port + " (TLS " + tlsPort + ", TCP echo " + tcpPort
                + "), " + threads + " event loop(s), TLS " + (openssl ? "OpenSSL (" + OpenSsl.versionString() + ")" : "JDK")
                + (transport.equals("io_uring-rings") ? ", provided-buffer ring: group " + RING_GROUP + ", " + RING_BUFFERS
                + " buffers, adaptive sizes" : ""));
    }

    /** @return why the transport cannot run here, or null */
    static String refusal(String transport) {
        return switch (transport) {
            case "nio" -> null;
            case "epoll" -> Epoll.isAvailable() ? null : String.valueOf(Epoll.unavailabilityCause());
            case "io_uring" -> IoUring.isAvailable() ? null : String.valueOf(IoUring.unavailabilityCause());
            case "io_uring-rings" -> !IoUring.isAvailable() ? String.valueOf(IoUring.unavailabilityCause())
                    : IoUring.isRegisterBufferRingSupported() ? null : "the kernel does not register provided-buffer rings";
            default -> "unknown transport " + transport + " (nio, epoll, io_uring, io_uring-rings)";
        };
    }

    private static IoHandlerFactory ioHandler(String transport) {
        return switch (transport) {
            case "nio" -> NioIoHandler.newFactory();
            case "epoll" -> EpollIoHandler.newFactory();
            case "io_uring" -> IoUringIoHandler.newFactory();
            default -> IoUringIoHandler.newFactory(new IoUringIoHandlerConfig().setBufferRingConfig(IoUringBufferRingConfig.builder()
                    .bufferGroupId(RING_GROUP).bufferRingSize(RING_BUFFERS).batchSize(RING_BUFFERS / 4)
                    .allocator(new IoUringAdaptiveBufferRingAllocator(PooledByteBufAllocator.DEFAULT)).build()));
        };
    }

    private static void bind(EventLoopGroup group, Class<? extends ServerChannel> channel, String transport, int port, ChannelHandler child)
            throws InterruptedException {
        ServerBootstrap b = new ServerBootstrap().group(group).channel(channel)
                .option(ChannelOption.SO_BACKLOG, 4096)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(child);
        if (transport.equals("io_uring-rings")) b.childOption(IoUringChannelOption.IO_URING_BUFFER_GROUP_ID, RING_GROUP);
        b.bind("127.0.0.1", port).sync();
    }

    private static ChannelInitializer<SocketChannel> web(SslContext tls) {
        return new ChannelInitializer<>() {
            @Override
            protected void initChannel(SocketChannel c) {
                if (tls != null) c.pipeline().addLast(tls.newHandler(c.alloc()));
                c.pipeline().addLast(new HttpServerCodec(), new HttpObjectAggregator(1 << 20),
                        new WebSocketServerProtocolHandler(LoopsContract.ECHO, null, false, 1 << 20), new Plaintext(), new WsEcho());
            }
        };
    }

    /** {@code GET /plaintext} from a pre-built response; anything else 404. */
    private static final class Plaintext extends SimpleChannelInboundHandler<FullHttpRequest> {
        private static final FullHttpResponse OK = response(HttpResponseStatus.OK, Scenario.PLAINTEXT_BODY);
        private static final FullHttpResponse NOT_FOUND = response(HttpResponseStatus.NOT_FOUND, "not found");

        private static FullHttpResponse response(HttpResponseStatus status, String body) {
            ByteBuf bytes = io.netty.buffer.Unpooled.unreleasableBuffer(io.netty.buffer.Unpooled.directBuffer().writeBytes(Scenario.utf8(body)));
            FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, bytes);
            r.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/plain").setInt(HttpHeaderNames.CONTENT_LENGTH, bytes.readableBytes());
            return r;
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest req) {
            FullHttpResponse template = Scenario.PLAINTEXT_PATH.equals(req.uri()) ? OK : NOT_FOUND;
            FullHttpResponse r = template.retainedDuplicate();
            if (HttpUtil.isKeepAlive(req)) {
                ctx.write(r, ctx.voidPromise());
            } else {
                r.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
                ctx.writeAndFlush(r).addListener(ChannelFutureListener.CLOSE);
            }
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            ctx.flush();
            ctx.fireChannelReadComplete();
        }
    }

    /** Every binary message back as it came. */
    private static final class WsEcho extends SimpleChannelInboundHandler<BinaryWebSocketFrame> {
        @Override
        protected void channelRead0(ChannelHandlerContext ctx, BinaryWebSocketFrame frame) {
            ctx.writeAndFlush(frame.retain(), ctx.voidPromise());
        }
    }

    /** Every byte back, one flush per read batch. */
    private static final class TcpEcho extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ctx.write(msg, ctx.voidPromise());
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            ctx.flush();
        }
    }
}
