package dev.tidemill.bench.streams;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.LineBasedFrameDecoder;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.ReferenceCountUtil;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.HdrHistogram.Histogram;

/**
 * Subscribers of an SSE fan-out on one {@link ClientLoop}: each connection GETs the stream path and
 * reads it through Netty's {@link HttpClientCodec} (chunked decoding) and
 * {@link LineBasedFrameDecoder}; every {@code data: <seq> <publishNanos>} line is one delivery,
 * checked against the sequence the subscriber expects next, and its latency
 * ({@code System.nanoTime()} on arrival minus the publish time it carries) recorded in
 * microseconds. Client and server run on one host and {@code System.nanoTime()} reads
 * {@code CLOCK_MONOTONIC} on Linux, the same clock in every process, so the difference is a real
 * delivery time. All counting happens on the loop's thread; other threads read it through
 * {@link #snapshot()}.
 */
final class SseFanoutClient {
    /** Longest SSE line the client accepts, bytes. */
    static final int MAX_LINE = 4096;

    /**
     * What the subscribers saw.
     *
     * @param received deliveries counted (stalled subscribers excluded)
     * @param outOfOrder deliveries whose sequence was not the one expected next (duplicates, gaps)
     * @param otherEvents data lines that were not {@code <seq> <nanos>} (a server's "lost" notices)
     * @param lastNanos {@code System.nanoTime()} of the last counted delivery (0: none)
     * @param latencyMicros delivery latency, microseconds (a copy)
     */
    record Snapshot(long received, long outOfOrder, long otherEvents, long lastNanos, Histogram latencyMicros) {}

    private final Histogram latency = new Histogram(3_600_000_000L, 3);
    private long outOfOrder;
    private long otherEvents;
    private long lastNanos;
    /** Written only by the loop's thread; volatile so the runner can watch progress without a task. */
    private volatile long received;

    /** @return deliveries counted so far (any thread) */
    long received() {
        return received;
    }

    /**
     * @param loop the client loop
     * @return the counters, read on the loop's thread
     */
    Snapshot snapshot(ClientLoop loop) {
        return loop.call(() -> new Snapshot(received, outOfOrder, otherEvents, lastNanos, latency.copy()));
    }

    /**
     * Opens the subscribers and waits until every response head has arrived.
     *
     * @param loop where they live
     * @param port the server's port
     * @param path the stream's path
     * @param count subscribers
     * @param stalled how many of them (the first ones) stop reading once their head has arrived
     * @return the channels
     */
    List<Channel> subscribe(ClientLoop loop, int port, String path, int count, int stalled) {
        int[] index = {0};
        ChannelInitializer<SocketChannel> init = new ChannelInitializer<>() {
            @Override
            protected void initChannel(SocketChannel ch) {
                boolean stall = index[0]++ < stalled;
                ch.pipeline().addLast(new HttpClientCodec(), new Head(port, path, stall),
                        new LineBasedFrameDecoder(MAX_LINE), new Lines(!stall));
            }
        };
        return loop.open(port, count, init, ch -> ch.pipeline().get(Head.class).ready, 30);
    }

    /** Sends the GET, checks the head, then passes the body's bytes on (or stops reading, if stalled). */
    private static final class Head extends ChannelInboundHandlerAdapter {
        final CompletableFuture<Void> ready = new CompletableFuture<>();
        private final int port;
        private final String path;
        private final boolean stall;

        Head(int port, String path, boolean stall) {
            this.port = port;
            this.path = path;
            this.stall = stall;
        }

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            DefaultFullHttpRequest get = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, path);
            get.headers().set(HttpHeaderNames.HOST, "127.0.0.1:" + port).set(HttpHeaderNames.ACCEPT, "text/event-stream");
            ctx.writeAndFlush(get);
            ctx.fireChannelActive();
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            try {
                if (msg instanceof HttpResponse head) {
                    String type = head.headers().get(HttpHeaderNames.CONTENT_TYPE, "");
                    if (head.status().code() != 200 || !type.startsWith("text/event-stream")) {
                        ready.completeExceptionally(new IllegalStateException("GET " + path + " answered " + head.status()
                                + " " + type));
                        ctx.close();
                        return;
                    }
                    // A stalled subscriber stops here: the server's writes fill its socket buffers.
                    if (stall) ctx.channel().config().setAutoRead(false);
                    ready.complete(null);
                }
                if (msg instanceof HttpContent c && c.content().isReadable()) ctx.fireChannelRead(c.content().retain());
            } finally {
                ReferenceCountUtil.release(msg);
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            ready.completeExceptionally(new IllegalStateException("closed before the response head"));
            ctx.fireChannelInactive();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ready.completeExceptionally(cause);
            ctx.close();
        }
    }

    /** One line of the stream at a time; counts the data lines. */
    private final class Lines extends ChannelInboundHandlerAdapter {
        private final boolean counted;
        private long next = 1;

        Lines(boolean counted) {
            this.counted = counted;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf line = (ByteBuf) msg;
            try {
                if (counted) line(line);
            } finally {
                line.release();
            }
        }

        private void line(ByteBuf line) {
            int start = line.readerIndex(), end = line.writerIndex();
            if (end - start < 6 || line.getByte(start) != 'd' || line.getByte(start + 4) != ':') return; // id:, event:, comments
            long[] parsed = SseData.parse(line, start + 5, end);
            if (parsed == null) {
                otherEvents++;
                return;
            }
            long now = System.nanoTime();
            latency.recordValue(Math.max(0, (now - parsed[1]) / 1_000));
            if (parsed[0] != next) outOfOrder++;
            next = parsed[0] + 1;
            lastNanos = now;
            received = received + 1;
        }
    }
}
