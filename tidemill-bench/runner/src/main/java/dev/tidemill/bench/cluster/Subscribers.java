package dev.tidemill.bench.cluster;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.socket.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/**
 * The SSE subscribers of one row, all on one {@link ClientLoop}: each GETs the stream, and every
 * {@code data: <seq> <nanos>} it reads is a delivery. The latency of a delivery is the runner's
 * {@code System.nanoTime()} on arrival minus the one the publisher stamped into the message as it
 * wrote the POST: both clocks are this process's, so the figure holds whichever node published or
 * served it. Each subscriber keeps the set of sequence numbers it got, so that a row can say, for
 * every message whose publish was acknowledged, whether each subscriber got it (lost) and whether
 * one got it twice (duplicates). Everything is counted on the loop's thread; other threads read
 * volatile progress counters, or the rest through {@link #snapshot()}.
 */
final class Subscribers implements AutoCloseable {
    /**
     * What the subscribers saw.
     *
     * @param received deliveries of any message
     * @param measured deliveries of a message of the measured window
     * @param duplicates deliveries of a message the subscriber already had
     * @param outOfOrder deliveries of a message numbered below one the subscriber already had
     * @param other data lines that were not a delivery (a server's lost notice)
     * @param closed subscribers whose stream ended or broke before the row did
     * @param lastMeasuredNanos when the last delivery of a message of the window arrived ({@code System.nanoTime()}; 0: none)
     * @param latencyMicros delivery latency of the measured window, microseconds (a copy)
     */
    record Snapshot(long received, long measured, long duplicates, long outOfOrder, long other, long closed, long lastMeasuredNanos,
                    Histogram latencyMicros) {}

    private final ClientLoop loop;
    private final List<Sub> subs = new ArrayList<>();
    private final List<Channel> channels;
    private final Histogram latency = new Histogram(3_600_000_000L, 3);
    private volatile long measureFrom = Long.MAX_VALUE;
    private volatile long measureTo = Long.MAX_VALUE;
    private volatile long received;
    private volatile long measured;
    private long duplicates;
    private long outOfOrder;
    private long other;
    private long closed;
    private long lastMeasuredNanos;
    private boolean closing;
    // The fault row: the first delivery of a message sent after a given one, on any and on every subscriber.
    private volatile long liveFrom = Long.MAX_VALUE;
    private volatile long firstLiveNanos;
    private volatile long allLiveNanos;
    private int liveSubscribers;

    /**
     * Opens the subscribers and waits until every response head has arrived.
     *
     * @param loop where they live
     * @param port node B's port
     * @param path the stream's path
     * @param count how many
     */
    Subscribers(ClientLoop loop, int port, String path, int count) {
        this.loop = loop;
        byte[] request = ("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nAccept: text/event-stream\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII);
        channels = ClientLoop.connect(loop.bootstrap(new ChannelInitializer<SocketChannel>() {
            @Override
            protected void initChannel(SocketChannel ch) {
                Sub s = new Sub(request);
                subs.add(s); // on the loop's thread, as every other touch of the list
                ch.pipeline().addLast(s);
            }
        }), port, count);
        List<CompletableFuture<Void>> ready = loop.call(() -> subs.stream().map(s -> s.ready).toList());
        try {
            CompletableFuture.allOf(ready.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            close();
            long done = ready.stream().filter(f -> f.isDone() && !f.isCompletedExceptionally()).count();
            throw new IllegalStateException(done + " of " + count + " subscribers got their response head: " + e.getMessage(), e);
        }
    }

    /** @param from the first sequence number of the measured window (its latencies are recorded from here) */
    void measureFrom(long from) {
        measureFrom = from;
    }

    /** @param to the last sequence number of the measured window */
    void measureTo(long to) {
        measureTo = to;
    }

    /** @param seq watch for the first delivery of a message numbered {@code seq} or above, on any and on every subscriber */
    void watchLive(long seq) {
        liveFrom = seq;
    }

    /** @return when the first delivery of a watched message arrived ({@code System.nanoTime()}; 0: none yet) */
    long firstLiveNanos() {
        return firstLiveNanos;
    }

    /** @return when the last subscriber got its first watched message (0: not all yet) */
    long allLiveNanos() {
        return allLiveNanos;
    }

    /** @return deliveries so far (any thread) */
    long received() {
        return received;
    }

    /** @return deliveries of the measured window so far (any thread) */
    long measured() {
        return measured;
    }

    /** @return the counters, read on the loop's thread */
    Snapshot snapshot() {
        return loop.call(() -> new Snapshot(received, measured, duplicates, outOfOrder, other, closed, lastMeasuredNanos,
                latency.copy()));
    }

    /**
     * @param acked the sequence numbers whose publish was answered 2xx
     * @return {lost: acknowledged messages a subscriber did not get, summed over subscribers; delivered though not
     *     acknowledged: deliveries of a message whose publish failed or was never answered}
     */
    long[] against(BitSet acked) {
        return loop.call(() -> {
            long lost = 0, unacked = 0;
            for (Sub s : subs) {
                BitSet missing = (BitSet) acked.clone();
                missing.andNot(s.seen);
                lost += missing.cardinality();
                BitSet extra = (BitSet) s.seen.clone();
                extra.andNot(acked);
                unacked += extra.cardinality();
            }
            return new long[] {lost, unacked};
        });
    }

    @Override
    public void close() {
        loop.call(() -> closing = true);
        ClientLoop.closeAll(channels);
    }

    /** One subscriber: the GET, then the stream. */
    private final class Sub extends ChannelInboundHandlerAdapter implements SseReader.Events {
        final CompletableFuture<Void> ready = new CompletableFuture<>();
        final BitSet seen = new BitSet();
        private final byte[] request;
        private final SseReader reader = new SseReader(this);
        private long highest;
        private boolean live;

        Sub(byte[] request) {
            this.request = request;
        }

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            ctx.writeAndFlush(Unpooled.wrappedBuffer(request));
            ctx.fireChannelActive();
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf b = (ByteBuf) msg;
            try {
                reader.read(b);
            } finally {
                b.release();
            }
        }

        @Override
        public void ready() {
            ready.complete(null);
        }

        @Override
        public void event(long seq, long nanos) {
            long now = System.nanoTime();
            received++;
            if (seq < 0 || seq > Integer.MAX_VALUE) {
                other++;
                return;
            }
            if (seen.get((int) seq)) duplicates++;
            else seen.set((int) seq);
            if (seq < highest) outOfOrder++;
            highest = Math.max(highest, seq);
            if (seq >= measureFrom && seq <= measureTo) {
                latency.recordValue(Math.max(0, (now - nanos) / 1_000));
                measured++;
                lastMeasuredNanos = now;
            }
            if (seq >= liveFrom && !live) {
                live = true;
                if (firstLiveNanos == 0) firstLiveNanos = now;
                if (++liveSubscribers == subs.size()) allLiveNanos = now;
            }
        }

        @Override
        public void other() {
            other++;
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            ready.completeExceptionally(new IllegalStateException("closed before the response head"));
            if (!closing) closed++;
            ctx.fireChannelInactive();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ready.completeExceptionally(cause);
            ctx.close();
        }
    }
}
