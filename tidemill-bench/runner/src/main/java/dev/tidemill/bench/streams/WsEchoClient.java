package dev.tidemill.bench.streams;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketClientProtocolConfig;
import io.netty.handler.codec.http.websocketx.WebSocketClientProtocolHandler;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketFrameAggregator;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.HdrHistogram.Histogram;

/**
 * Closed-loop WebSocket echo on one {@link ClientLoop}: each connection (Netty's
 * {@link WebSocketClientProtocolHandler}, which runs the handshake with a
 * {@code WebSocketClientHandshaker}, and a {@link WebSocketFrameAggregator} in case a server
 * fragments) keeps one binary message of a fixed size in flight. A message carries its send time
 * ({@code System.nanoTime()}, 8 bytes) at its start; the echo's arrival minus it is the round
 * trip, recorded in microseconds while {@link #record} is on. Counters belong to the loop's thread.
 */
final class WsEchoClient {
    /** Largest message the client accepts back, bytes (the largest size measured is 16 KiB). */
    static final int MAX_MESSAGE = 1 << 20;

    /**
     * What the window saw.
     *
     * @param roundTrips echoes received while recording
     * @param wrongSize echoes whose length was not the size sent
     * @param latencyMicros round-trip time, microseconds (a copy)
     */
    record Snapshot(long roundTrips, long wrongSize, Histogram latencyMicros) {}

    private final int size;
    private final Histogram latency = new Histogram(3_600_000_000L, 3);
    private final List<Echo> connections = new ArrayList<>();
    private boolean recording;
    private boolean running;
    private long roundTrips;
    private long wrongSize;

    /** @param size bytes per message, at least 8 */
    WsEchoClient(int size) {
        if (size < Long.BYTES) throw new IllegalArgumentException("messages must hold their 8-byte send time");
        this.size = size;
    }

    /**
     * Opens the connections and waits for every handshake.
     *
     * @param loop where they live
     * @param port the server's port
     * @param path the WebSocket path
     * @param count connections
     * @return the channels
     */
    List<Channel> connect(ClientLoop loop, int port, String path, int count) {
        URI uri = URI.create("ws://127.0.0.1:" + port + path);
        ChannelInitializer<SocketChannel> init = new ChannelInitializer<>() {
            @Override
            protected void initChannel(SocketChannel ch) {
                WebSocketClientProtocolConfig config = WebSocketClientProtocolConfig.newBuilder().webSocketUri(uri)
                        .maxFramePayloadLength(MAX_MESSAGE).handleCloseFrames(true).build();
                Echo echo = new Echo();
                ch.pipeline().addLast(new HttpClientCodec(), new HttpObjectAggregator(8192),
                        new WebSocketClientProtocolHandler(config), new WebSocketFrameAggregator(MAX_MESSAGE), echo);
            }
        };
        return loop.open(port, count, init, ch -> ch.pipeline().get(Echo.class).ready, 30);
    }

    /** Starts every connection's loop of messages (call on the loop's thread). */
    void start() {
        running = true;
        for (Echo e : connections) e.send();
    }

    /**
     * @param on whether round trips count from now on (call on the loop's thread); turning it on
     *     resets the counters
     */
    void record(boolean on) {
        if (on) {
            latency.reset();
            roundTrips = 0;
            wrongSize = 0;
        }
        recording = on;
    }

    /** Sends no new messages and closes each connection with a close frame (call on the loop's thread). */
    void stop() {
        running = false;
        recording = false;
        for (Echo e : connections) e.ctx.writeAndFlush(new CloseWebSocketFrame());
    }

    /** @return the counters (call on the loop's thread) */
    Snapshot snapshot() {
        return new Snapshot(roundTrips, wrongSize, latency.copy());
    }

    /** One connection. */
    private final class Echo extends SimpleChannelInboundHandler<WebSocketFrame> {
        final CompletableFuture<Void> ready = new CompletableFuture<>();
        ChannelHandlerContext ctx;

        @Override
        public void handlerAdded(ChannelHandlerContext ctx) {
            this.ctx = ctx;
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            if (evt == WebSocketClientProtocolHandler.ClientHandshakeStateEvent.HANDSHAKE_COMPLETE) {
                connections.add(this);
                ready.complete(null);
            } else if (evt == WebSocketClientProtocolHandler.ClientHandshakeStateEvent.HANDSHAKE_TIMEOUT) {
                ready.completeExceptionally(new IllegalStateException("WebSocket handshake timed out"));
            }
            ctx.fireUserEventTriggered(evt);
        }

        void send() {
            ByteBuf b = ctx.alloc().buffer(size);
            b.writeLong(System.nanoTime()).writeZero(size - Long.BYTES);
            ctx.writeAndFlush(new BinaryWebSocketFrame(b));
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, WebSocketFrame frame) {
            if (!(frame instanceof BinaryWebSocketFrame)) return;
            ByteBuf b = frame.content();
            if (recording) {
                if (b.readableBytes() != size) wrongSize++;
                if (b.readableBytes() >= Long.BYTES) {
                    latency.recordValue(Math.max(0, (System.nanoTime() - b.getLong(b.readerIndex())) / 1_000));
                }
                roundTrips++;
            }
            if (running) send();
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            ready.completeExceptionally(new IllegalStateException("closed before the handshake completed"));
            connections.remove(this);
            ctx.fireChannelInactive();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ready.completeExceptionally(cause);
            ctx.close();
        }
    }
}
