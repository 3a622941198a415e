package dev.tidemill.bench.cluster;

import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.concurrent.ScheduledFuture;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.BitSet;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/**
 * Publishes at a fixed rate to node A: message {@code n} is due {@code n / rate} seconds after the
 * start and goes out as {@code POST /publish} with the body {@code <n> <System.nanoTime()>}, the
 * time taken on the loop's thread just before the write (what the subscribers measure from). Keep-
 * alive HTTP/1.1 connections, one request in flight on each; a message due while every connection
 * waits for its answer opens another (at most {@link #MAX_CONNECTIONS}; past that it waits). Each
 * answer is counted by status: 2xx marks the message acknowledged; 503 is what a node answers while
 * its store is unreachable. All state lives on the loop's thread.
 */
final class Publisher {
    /** Most connections to node A at once. */
    static final int MAX_CONNECTIONS = 64;
    /** An answer later than this counts as a timeout, and its connection is closed. */
    static final long TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(5);

    /**
     * What the publishes got.
     *
     * @param sent POSTs written
     * @param acked answered 2xx
     * @param unavailable answered 503
     * @param otherStatus answered anything else
     * @param errors connections that failed or closed with a POST in flight, and timeouts
     * @param connections connections opened
     * @param ackMicros POST to its 2xx answer, microseconds (a copy)
     * @param ackedSeqs the messages answered 2xx (a copy)
     * @param firstAckAfterNanos the first 2xx after {@link #watchAcks} ({@code System.nanoTime()}; 0: none)
     */
    record Snapshot(long sent, long acked, long unavailable, long otherStatus, long errors, int connections, Histogram ackMicros,
                    BitSet ackedSeqs, long firstAckAfterNanos) {}

    private final ClientLoop loop;
    private final String host;
    private final io.netty.bootstrap.Bootstrap bootstrap;
    private final ArrayDeque<Conn> idle = new ArrayDeque<>();
    private final Set<Conn> open = new HashSet<>();
    private final BitSet ackedSeqs = new BitSet();
    private final Histogram ackMicros = new Histogram(3_600_000_000L, 3);
    private ScheduledFuture<?> ticker;
    private long startNanos;
    private int rate;
    private long next = 1;
    private int connecting;
    private long sent, acked, unavailable, otherStatus, errors;
    private int connections;
    private long watchAfter = Long.MAX_VALUE, firstAckAfter;
    private volatile long nextSeq = 1;

    /**
     * @param loop the publisher's own loop
     * @param port node A's port
     */
    Publisher(ClientLoop loop, int port) {
        this.loop = loop;
        this.host = "127.0.0.1:" + port;
        this.bootstrap = loop.bootstrap(new ChannelInitializer<SocketChannel>() {
            @Override
            protected void initChannel(SocketChannel ch) {
                ch.pipeline().addLast(new HttpClientCodec()).addLast(new HttpObjectAggregator(1 << 16)).addLast(new Conn());
            }
        }).remoteAddress("127.0.0.1", port);
    }

    /** @param rate messages per second, from now on (numbers go on from the last one sent) */
    void start(int rate) {
        loop.call(() -> {
            this.rate = rate;
            startNanos = System.nanoTime();
            long first = next;
            // Every due message goes out on the next tick: a tick each millisecond keeps a message at most about 1 ms late.
            ticker = loop.loop().scheduleAtFixedRate(() -> tick(first), 0, 1, TimeUnit.MILLISECONDS);
            return null;
        });
    }

    /** @return the next sequence number to be sent (any thread) */
    long nextSeq() {
        return nextSeq;
    }

    /** @return the last sequence number sent, once publishing has stopped */
    long stop() {
        return loop.call(() -> {
            if (ticker != null) ticker.cancel(false);
            ticker = null;
            return next - 1;
        });
    }

    /** @param afterNanos note the first 2xx answer that arrives after this moment */
    void watchAcks(long afterNanos) {
        loop.call(() -> {
            watchAfter = afterNanos;
            firstAckAfter = 0;
            return null;
        });
    }

    /** Waits (at most {@code seconds}) until every POST sent has its answer. */
    void awaitAnswers(int seconds) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() < deadline && loop.call(() -> open.stream().anyMatch(c -> c.seq != 0) || connecting > 0)) {
            sleep(10);
        }
    }

    /** @return the counters, read on the loop's thread */
    Snapshot snapshot() {
        return loop.call(() -> new Snapshot(sent, acked, unavailable, otherStatus, errors, connections, ackMicros.copy(),
                (BitSet) ackedSeqs.clone(), firstAckAfter));
    }

    /** Closes every connection. */
    void close() {
        stop();
        ClientLoop.closeAll(loop.call(() -> open.stream().map(c -> c.ctx.channel()).toList()));
    }

    private void tick(long first) {
        long now = System.nanoTime();
        long due = first + (now - startNanos) * rate / 1_000_000_000L;
        for (Conn c : open) {
            if (c.seq != 0 && now - c.sentAt > TIMEOUT_NANOS) {
                errors++;
                c.seq = 0;
                c.ctx.close();
            }
        }
        while (next <= due) {
            Conn c = idle.pollFirst();
            if (c == null) {
                if (open.size() + connecting < MAX_CONNECTIONS) {
                    connecting++;
                    connections++;
                    bootstrap.connect().addListener(f -> {
                        connecting--;
                        if (!f.isSuccess()) errors++;
                    });
                }
                return; // the rest goes out when a connection is free
            }
            send(c, next++);
        }
    }

    private void send(Conn c, long seq) {
        nextSeq = seq + 1;
        c.seq = seq;
        c.sentAt = System.nanoTime();
        byte[] body = (seq + " " + c.sentAt).getBytes(StandardCharsets.US_ASCII);
        FullHttpRequest r = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, "/publish", Unpooled.wrappedBuffer(body));
        r.headers().set(HttpHeaderNames.HOST, host).set(HttpHeaderNames.CONTENT_TYPE, "text/plain; charset=utf-8")
                .setInt(HttpHeaderNames.CONTENT_LENGTH, body.length);
        sent++;
        c.ctx.writeAndFlush(r, c.ctx.voidPromise());
    }

    /** A connection: idle, or waiting for the answer to message {@link #seq}. */
    private final class Conn extends SimpleChannelInboundHandler<FullHttpResponse> {
        ChannelHandlerContext ctx;
        long seq;
        long sentAt;

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            this.ctx = ctx;
            open.add(this);
            idle.addLast(this);
            ctx.fireChannelActive();
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpResponse r) {
            long now = System.nanoTime();
            int status = r.status().code();
            if (seq != 0) {
                if (status / 100 == 2) {
                    acked++;
                    ackedSeqs.set((int) seq);
                    ackMicros.recordValue((now - sentAt) / 1_000);
                    if (firstAckAfter == 0 && sentAt > watchAfter) firstAckAfter = now;
                } else if (status == 503) {
                    unavailable++;
                } else {
                    otherStatus++;
                }
            }
            seq = 0;
            idle.addLast(this);
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            if (seq != 0) errors++;
            seq = 0;
            open.remove(this);
            idle.remove(this);
            ctx.fireChannelInactive();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
