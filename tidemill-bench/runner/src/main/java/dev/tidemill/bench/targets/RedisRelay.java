package dev.tidemill.bench.targets;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.concurrent.EventExecutor;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The floor of the cluster suite: a plain Redis pub/sub relay on the client Tidemill's topics use
 * (Lettuce) and raw Netty, with nothing a framework adds. {@code POST /publish} sends the body with
 * PUBLISH and answers 202 once Redis has answered (503 if it did not); {@code GET /events} is an SSE
 * stream (chunked) fed by the process's one SUBSCRIBE connection, each message written once into a
 * buffer that every open stream shares, and handed to each event loop in one task ({@link Streams}); {@code GET /subscribers} counts the open streams. Pub/sub
 * keeps nothing: a message published while a node is not subscribed is gone, and Redis does not
 * write PUBLISH to its append-only file, so this is delivery without order or durability, which is
 * what makes it a floor. Arguments: {@code <port> <ioThreads> <redisUrl>}, binding 127.0.0.1.
 */
public final class RedisRelay {
    /** The pub/sub channel. */
    static final String CHANNEL = "bench.cluster";

    private static final byte[] HEAD = ("HTTP/1.1 200 OK\r\ncontent-type: text/event-stream; charset=utf-8\r\n"
            + "cache-control: no-cache\r\ntransfer-encoding: chunked\r\n\r\n").getBytes(StandardCharsets.US_ASCII);

    private RedisRelay() {}

    /**
     * @param args port, I/O threads, Redis URL
     * @throws InterruptedException if interrupted while serving
     */
    public static void main(String[] args) throws InterruptedException {
        int port = Integer.parseInt(args[0]), threads = Integer.parseInt(args[1]);
        // One Lettuce I/O thread, as Tidemill's Redis backend runs it.
        ClientResources resources = DefaultClientResources.builder().ioThreadPoolSize(1).computationThreadPoolSize(1).build();
        RedisClient client = RedisClient.create(resources, RedisURI.create(args[2]));
        StatefulRedisConnection<String, String> publisher = client.connect();
        StatefulRedisPubSubConnection<String, String> subscriber = client.connectPubSub();
        boolean epoll = Epoll.isAvailable();
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(threads, epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory());
        Streams streams = new Streams(group);
        subscriber.addListener(new RedisPubSubAdapter<>() {
            @Override
            public void message(String channel, String message) {
                streams.send(chunk(message));
            }
        });
        subscriber.sync().subscribe(CHANNEL);
        Class<? extends ServerChannel> type = epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
        ServerBootstrap b = new ServerBootstrap().group(group).channel(type).option(ChannelOption.SO_BACKLOG, 4096)
                .childOption(ChannelOption.TCP_NODELAY, true).childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline().addLast("codec", new HttpServerCodec()).addLast("aggregator", new HttpObjectAggregator(1 << 20))
                                .addLast(new Handler(publisher, streams));
                    }
                });
        b.bind("127.0.0.1", port).sync();
        System.out.println("redis relay on http://127.0.0.1:" + port + " (" + (epoll ? "epoll" : "nio") + ", " + threads
                + " I/O thread(s), Lettuce " + io.lettuce.core.LettuceVersion.getVersion() + ")");
        group.terminationFuture().sync();
    }

    /** @return {@code data: <message>} as one HTTP/1.1 chunk */
    static ByteBuf chunk(String message) {
        byte[] event = ("data: " + message + "\n\n").getBytes(StandardCharsets.UTF_8);
        byte[] size = (Integer.toHexString(event.length) + "\r\n").getBytes(StandardCharsets.US_ASCII);
        ByteBuf b = Unpooled.directBuffer(size.length + event.length + 2);
        return b.writeBytes(size).writeBytes(event).writeByte('\r').writeByte('\n');
    }

    /**
     * The open streams, kept per event loop and touched only by their loop: a message costs one task per
     * loop (not one per stream), which writes one shared buffer to each of that loop's streams.
     */
    static final class Streams {
        private final Map<EventExecutor, List<Channel>> byLoop = new HashMap<>();
        private final AtomicInteger count = new AtomicInteger();

        Streams(EventLoopGroup group) {
            group.forEach(loop -> byLoop.put(loop, new ArrayList<>()));
        }

        /** @param ch a stream, added on its own loop, removed when it closes */
        void add(Channel ch) {
            List<Channel> mine = byLoop.get(ch.eventLoop());
            mine.add(ch);
            count.incrementAndGet();
            ch.closeFuture().addListener(f -> {
                mine.remove(ch);
                count.decrementAndGet();
            });
        }

        /** @param chunk written to every stream (released once all have it) */
        void send(ByteBuf chunk) {
            for (Map.Entry<EventExecutor, List<Channel>> e : byLoop.entrySet()) {
                ByteBuf mine = chunk.retainedDuplicate();
                e.getKey().execute(() -> {
                    for (Channel ch : e.getValue()) ch.writeAndFlush(mine.retainedDuplicate(), ch.voidPromise());
                    mine.release();
                });
            }
            chunk.release();
        }

        int size() {
            return count.get();
        }
    }

    /** The three routes. */
    private static final class Handler extends SimpleChannelInboundHandler<FullHttpRequest> {
        private final StatefulRedisConnection<String, String> publisher;
        private final Streams streams;

        Handler(StatefulRedisConnection<String, String> publisher, Streams streams) {
            this.publisher = publisher;
            this.streams = streams;
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest req) {
            String path = req.uri();
            boolean keepAlive = HttpUtil.isKeepAlive(req);
            if (req.method().equals(HttpMethod.POST) && path.equals("/publish")) {
                String body = req.content().toString(StandardCharsets.UTF_8);
                publisher.async().publish(CHANNEL, body).whenComplete((receivers, failure) ->
                        answer(ctx, keepAlive, failure == null ? HttpResponseStatus.ACCEPTED : HttpResponseStatus.SERVICE_UNAVAILABLE,
                                failure == null ? "published to " + receivers : "redis: " + failure.getMessage()));
            } else if (req.method().equals(HttpMethod.GET) && path.equals("/events")) {
                // From here on the connection only carries the stream: the codec goes, and the head and each
                // chunk are written as they are (the chunks already framed, once for every stream).
                ctx.pipeline().remove("aggregator");
                ctx.pipeline().remove("codec");
                ctx.writeAndFlush(Unpooled.wrappedBuffer(HEAD));
                streams.add(ctx.channel());
            } else if (req.method().equals(HttpMethod.GET) && path.equals("/subscribers")) {
                answer(ctx, keepAlive, HttpResponseStatus.OK, Integer.toString(streams.size()));
            } else {
                answer(ctx, keepAlive, HttpResponseStatus.NOT_FOUND, "not found");
            }
        }

        private static void answer(ChannelHandlerContext ctx, boolean keepAlive, HttpResponseStatus status, String text) {
            FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status,
                    Unpooled.copiedBuffer(text, StandardCharsets.UTF_8));
            r.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/plain; charset=utf-8").setInt(HttpHeaderNames.CONTENT_LENGTH,
                    r.content().readableBytes());
            if (!keepAlive) r.headers().set(HttpHeaderNames.CONNECTION, "close");
            var f = ctx.writeAndFlush(r);
            if (!keepAlive) f.addListener(io.netty.channel.ChannelFutureListener.CLOSE);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }
}
