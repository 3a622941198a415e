package dev.tidemill.bench.streams;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.socket.SocketChannel;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.HdrHistogram.Histogram;

/**
 * Subscribers of an SSE fan-out on one {@link ClientLoop}, without Netty's HTTP codec on the hot
 * path: each connection writes its GET itself, checks the response head (200,
 * {@code text/event-stream}) and reads the body with an {@link SseStreamReader} straight off the
 * socket's buffers (chunked framing and lines scanned in place, numbers parsed from the bytes, no
 * String or slice per event); every {@code data: <seq> <publishNanos>} line is one delivery,
 * checked against the sequence the subscriber expects next, and its latency
 * ({@code System.nanoTime()} on arrival minus the publish time it carries) recorded in
 * microseconds. Client and server run on one host and {@code System.nanoTime()} reads
 * {@code CLOCK_MONOTONIC} on Linux, the same clock in every process, so the difference is a real
 * delivery time. All counting happens on the loop's thread; other threads read it through
 * {@link #snapshot}.
 */
final class SseFanoutClient {
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
    private final String prefix;
    private final String suffix;
    /** The first subscriber's reader, which keeps the first bytes of its stream (touched on the loop's thread). */
    private SseStreamReader firstReader;

    /** Subscribers of a stream whose data lines are {@code <seq> <nanos>}. */
    SseFanoutClient() {
        this("", "");
    }

    /**
     * @param prefix what each data value holds before {@code <seq> <nanos>}
     * @param suffix what it holds after them
     */
    SseFanoutClient(String prefix, String suffix) {
        this.prefix = prefix;
        this.suffix = suffix;
    }

    /**
     * @param loop the client loop
     * @return the first bytes (up to 1 KiB) of the first subscriber's event stream, as the server sent them
     */
    byte[] firstBytes(ClientLoop loop) {
        return loop.call(() -> firstReader == null ? new byte[0] : firstReader.first());
    }
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
                ch.pipeline().addLast(new Subscriber(port, path, index[0]++ < stalled));
            }
        };
        return loop.open(port, count, init, ch -> ch.pipeline().get(Subscriber.class).ready, 30);
    }

    /** One subscriber: the GET, the head's check, then the events (or no reading at all, if stalled). */
    private final class Subscriber extends RawConnection implements SseStreamReader.Events {
        private final String path;
        private final boolean stall;
        private SseStreamReader events;
        private long next = 1;

        Subscriber(int port, String path, boolean stall) {
            super("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nAccept: text/event-stream\r\n\r\n");
            this.path = path;
            this.stall = stall;
        }

        @Override
        void accept(ResponseHead head) {
            String type = head.header("content-type");
            if (head.status() != 200 || !type.startsWith("text/event-stream")) {
                throw new IllegalStateException("GET " + path + " answered " + head.status() + " " + type);
            }
            events = new SseStreamReader(head.chunked(), this, prefix, suffix);
            if (firstReader == null) {
                firstReader = events;
                events.keepFirst(1_024);
            }
            // A stalled subscriber stops here: the server's writes fill its socket buffers.
            if (stall) ctx.channel().config().setAutoRead(false);
        }

        @Override
        void body(ByteBuf b) {
            if (!stall) events.read(b);
        }

        @Override
        public void event(long seq, long publishNanos) {
            long now = System.nanoTime();
            latency.recordValue(Math.max(0, (now - publishNanos) / 1_000));
            if (seq != next) outOfOrder++;
            next = seq + 1;
            lastNanos = now;
            received = received + 1;
        }

        @Override
        public void other() {
            otherEvents++;
        }
    }
}
