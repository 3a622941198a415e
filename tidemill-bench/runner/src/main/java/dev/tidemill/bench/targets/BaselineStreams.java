package dev.tidemill.bench.targets;

import dev.tidemill.bench.common.StreamContract;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketServerProtocolHandler;
import io.netty.util.AttributeKey;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The lean Netty baseline of the streams suite ({@link StreamContract}): what SSE fan-out and
 * WebSocket echo cost on raw Netty 4.2, so that a framework's figure reads against it. Arguments
 * {@code <port> <ioThreads>}; binds 127.0.0.1; epoll (NIO where unavailable).
 *
 * <p>SSE: each subscriber gets a chunked {@code text/event-stream} head and joins the set of its
 * event loop. A publish encodes each event once into one buffer and hands each loop one task that
 * writes a {@code retainedDuplicate()} of it to every subscriber of that loop. Backpressure on
 * {@value StreamContract#FANOUT}: before each event the publisher (a platform thread) waits until
 * every subscriber is writable again (Netty's write-buffer water marks), and at most
 * {@value #IN_FLIGHT} events are queued on the loops at once, so nothing is dropped and nothing
 * grows without bound. On {@value StreamContract#LOSSY} a subscriber that is not writable is
 * skipped for that event (dropped, as Netty offers nothing else) and the publisher never waits.
 *
 * <p>WebSocket: Netty's {@link WebSocketServerProtocolHandler} (handshake, close, ping) and a
 * handler that writes every data frame back as it came.
 */
public final class BaselineStreams {
    /** Events queued on the event loops at once, at most. */
    static final int IN_FLIGHT = 16;
    private static final AttributeKey<Boolean> UNWRITABLE = AttributeKey.valueOf("bench.unwritable");

    private BaselineStreams() {}

    /**
     * @param args port, then I/O threads (default 1)
     * @throws InterruptedException if interrupted while serving
     */
    public static void main(String[] args) throws InterruptedException {
        int port = Integer.parseInt(args[0]);
        int threads = args.length > 1 ? Integer.parseInt(args[1]) : 1;
        boolean epoll = Epoll.isAvailable();
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(threads, epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory());
        Map<String, Stream> streams = Map.of(StreamContract.FANOUT, new Stream(true), StreamContract.LOSSY, new Stream(false),
                StreamContract.DATASTAR, new Stream(true, true));
        Channel server = new ServerBootstrap().group(group).channel(epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class)
                .option(ChannelOption.SO_BACKLOG, 4096)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline().addLast(new HttpServerCodec(), new HttpObjectAggregator(1 << 16),
                                new WebSocketServerProtocolHandler(StreamContract.ECHO, null, false, 1 << 24),
                                new Requests(streams), new Echo());
                    }
                }).bind("127.0.0.1", port).sync().channel();
        System.out.println("baseline streams on 127.0.0.1:" + port + " (" + threads + " event loops, " + (epoll ? "epoll" : "nio") + ")");
        server.closeFuture().sync();
    }

    /** One SSE stream: its subscribers by event loop, and its publisher's backpressure. */
    static final class Stream {
        final boolean lossless;
        final Map<EventLoop, Set<Channel>> byLoop = new ConcurrentHashMap<>();
        final AtomicInteger subscribers = new AtomicInteger();
        final AtomicInteger unwritable = new AtomicInteger();
        final Semaphore inFlight = new Semaphore(IN_FLIGHT);

        /** Whether events are Datastar patches ({@link StreamContract#datastarEvent}) rather than {@code id:} + {@code data:}. */
        final boolean datastar;

        Stream(boolean lossless) {
            this(lossless, false);
        }

        Stream(boolean lossless, boolean datastar) {
            this.lossless = lossless;
            this.datastar = datastar;
        }

        void subscribe(Channel ch) {
            byLoop.computeIfAbsent(ch.eventLoop(), l -> ConcurrentHashMap.newKeySet()).add(ch);
            subscribers.incrementAndGet();
            ch.closeFuture().addListener(f -> {
                byLoop.get(ch.eventLoop()).remove(ch);
                subscribers.decrementAndGet();
                if (Boolean.TRUE.equals(ch.attr(UNWRITABLE).getAndSet(false))) writable();
            });
        }

        /** A subscriber's writability changed (on its loop). */
        void writabilityChanged(Channel ch) {
            boolean now = !ch.isWritable();
            Boolean before = ch.attr(UNWRITABLE).getAndSet(now);
            if (now && !Boolean.TRUE.equals(before)) unwritable.incrementAndGet();
            if (!now && Boolean.TRUE.equals(before)) writable();
        }

        private void writable() {
            if (unwritable.decrementAndGet() == 0) {
                synchronized (this) {
                    notifyAll();
                }
            }
        }

        void publish(int events, int rate) {
            StreamContract.publish(events, rate, (seq, data) -> {
                if (lossless) {
                    synchronized (this) {
                        while (unwritable.get() > 0) wait(100);
                    }
                }
                ByteBuf event = ByteBufUtil.writeAscii(ByteBufAllocator.DEFAULT,
                        datastar ? StreamContract.datastarEvent(data) : "id: " + seq + "\ndata: " + data + "\n\n");
                try {
                    for (Map.Entry<EventLoop, Set<Channel>> e : byLoop.entrySet()) {
                        if (e.getValue().isEmpty()) continue;
                        inFlight.acquire();
                        ByteBuf mine = event.retainedDuplicate();
                        e.getKey().execute(() -> {
                            try {
                                for (Channel ch : e.getValue()) {
                                    if (!lossless && !ch.isWritable()) continue;
                                    ch.writeAndFlush(mine.retainedDuplicate(), ch.voidPromise());
                                }
                            } finally {
                                mine.release();
                                inFlight.release();
                            }
                        });
                    }
                } finally {
                    event.release();
                }
            });
        }
    }

    /** SSE subscriptions, publish and subscriber count; everything else 404. WebSocket frames pass on. */
    static final class Requests extends SimpleChannelInboundHandler<FullHttpRequest> {
        private final Map<String, Stream> streams;
        private Stream subscribed;

        Requests(Map<String, Stream> streams) {
            this.streams = streams;
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest req) {
            QueryStringDecoder uri = new QueryStringDecoder(req.uri());
            String path = uri.path();
            Stream s = streams.get(path);
            if (s != null && req.method() == HttpMethod.GET) {
                DefaultHttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
                head.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/event-stream; charset=utf-8")
                        .set(HttpHeaderNames.CACHE_CONTROL, HttpHeaderValues.NO_CACHE)
                        .set(HttpHeaderNames.TRANSFER_ENCODING, HttpHeaderValues.CHUNKED);
                ctx.writeAndFlush(head);
                subscribed = s;
                s.subscribe(ctx.channel());
                return;
            }
            int slash = path.lastIndexOf('/');
            Stream parent = slash > 0 ? streams.get(path.substring(0, slash)) : null;
            if (parent != null && path.endsWith(StreamContract.PUBLISH) && req.method() == HttpMethod.POST) {
                int events = StreamContract.intParam(uri.rawQuery(), "events", 1);
                int rate = StreamContract.intParam(uri.rawQuery(), "rate", 0);
                Thread.ofPlatform().name("bench-publisher").start(() -> parent.publish(events, rate));
                answer(ctx, HttpResponseStatus.ACCEPTED, "publishing " + events);
            } else if (parent != null && path.endsWith(StreamContract.SUBSCRIBERS) && req.method() == HttpMethod.GET) {
                answer(ctx, HttpResponseStatus.OK, Integer.toString(parent.subscribers.get()));
            } else {
                answer(ctx, HttpResponseStatus.NOT_FOUND, "not found");
            }
        }

        @Override
        public void channelWritabilityChanged(ChannelHandlerContext ctx) {
            if (subscribed != null) subscribed.writabilityChanged(ctx.channel());
            ctx.fireChannelWritabilityChanged();
        }

        private static void answer(ChannelHandlerContext ctx, HttpResponseStatus status, String text) {
            DefaultFullHttpResponse res = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status,
                    Unpooled.copiedBuffer(text, StandardCharsets.UTF_8));
            res.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/plain; charset=utf-8")
                    .setInt(HttpHeaderNames.CONTENT_LENGTH, res.content().readableBytes());
            ctx.writeAndFlush(res);
        }
    }

    /** Writes every WebSocket data frame back as it came. */
    static final class Echo extends SimpleChannelInboundHandler<WebSocketFrame> {
        @Override
        protected void channelRead0(ChannelHandlerContext ctx, WebSocketFrame frame) {
            ctx.writeAndFlush(frame.retain());
        }
    }
}
