package dev.tidemill.bench.loadgen;

import io.netty.bootstrap.Bootstrap;
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
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.HdrHistogram.Histogram;

/**
 * An open-loop HTTP/1.1 load generator: sends {@code GET path} at a fixed rate over N keep-alive
 * connections (one request in flight per connection, no pipelining) for a fixed duration. Request
 * {@code i} is due at {@code start + i / rate}; its latency is measured from that intended time, not
 * from when it was actually written (coordinated-omission corrected): a request whose connections
 * are all busy waits for a free one, its clock already running.
 *
 * <p>A single Netty event loop owns all the state (queue of due requests, idle connections,
 * histogram) and releases requests on schedule with its own timer. How late each release ran is
 * the generator's own schedule lag; a run whose lag exceeded {@link #MAX_LAG_NANOS} or
 * with more than 1 % of releases late by over 1 ms is flagged {@link Result#behindSchedule()}:
 * its latencies partly measure the generator, not the server.
 */
public final class OpenLoopGenerator {
    /** A release later than this counts as late. */
    public static final long LATE_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    /** A run whose worst release lag exceeds this fell behind its schedule. */
    public static final long MAX_LAG_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
    /** Connections being opened at once. */
    static final int CONNECT_BATCH = 16;
    /** Highest latency the histogram tracks (microseconds). */
    private static final long HIGHEST_MICROS = TimeUnit.SECONDS.toMicros(120);

    private final String host;
    private final int port;
    private final String path;
    private final int rate;
    private final int connections;
    private final long durationNanos;
    private final long drainNanos;
    private final long rampNanos;
    /** The {@code X-Forwarded-For} value of the i-th request sent, or null for none (the rate-limit suite). */
    private java.util.function.LongFunction<String> forwardedFor;

    /**
     * @param host the server host (an IP literal, e.g. 127.0.0.1)
     * @param port the server port
     * @param path the request path, e.g. {@code /plaintext}
     * @param rate requests per second
     * @param connections keep-alive connections
     * @param durationMillis how long requests are released
     * @param drainMillis how long, after the last release, outstanding requests may still complete
     */
    public OpenLoopGenerator(String host, int port, String path, int rate, int connections, long durationMillis,
                             long drainMillis) {
        this(host, port, path, rate, connections, 0, durationMillis, drainMillis);
    }

    /**
     * A run whose first {@code rampMillis} are sent at the rate like the rest but not recorded
     * (connections' first requests, the server's per-connection set-up): the latencies describe the
     * steady state.
     *
     * @param host the server host (an IP literal)
     * @param port the server port
     * @param path the request path
     * @param rate requests per second
     * @param connections keep-alive connections
     * @param rampMillis how long requests are released before recording starts
     * @param durationMillis how long requests are released and recorded after the ramp
     * @param drainMillis how long, after the last release, outstanding requests may still complete
     */
    public OpenLoopGenerator(String host, int port, String path, int rate, int connections, long rampMillis,
                             long durationMillis, long drainMillis) {
        if (rampMillis < 0) throw new IllegalArgumentException("ramp must be >= 0");
        this.rampNanos = TimeUnit.MILLISECONDS.toNanos(rampMillis);
        if (rate < 1 || connections < 1 || durationMillis < 1) throw new IllegalArgumentException("rate, connections and duration must be >= 1");
        this.host = host;
        this.port = port;
        this.path = path;
        this.rate = rate;
        this.connections = connections;
        this.durationNanos = TimeUnit.MILLISECONDS.toNanos(durationMillis);
        this.drainNanos = TimeUnit.MILLISECONDS.toNanos(drainMillis);
    }

    /**
     * Sends an {@code X-Forwarded-For} header with every request (the generator then plays a
     * trusted proxy in front of many clients).
     *
     * @param value the header's value for the i-th request sent
     * @return this
     */
    public OpenLoopGenerator forwardedFor(java.util.function.LongFunction<String> value) {
        forwardedFor = value;
        return this;
    }

    /**
     * What a run measured. Latencies in microseconds, from each request's intended send time.
     *
     * @param rate requests per second asked for
     * @param connections connections used
     * @param durationMillis release window
     * @param sent requests released (rate x duration)
     * @param count requests answered 2xx (the histogram's count)
     * @param errors answers other than 2xx and 503, failed writes and requests lost with their connection
     * @param incomplete requests neither answered nor failed when the drain time ran out
     * @param p50Micros median
     * @param p90Micros 90th percentile
     * @param p99Micros 99th percentile
     * @param maxMicros maximum
     * @param meanMicros mean
     * @param maxScheduleLagMicros worst lag of a release behind its intended time (the generator's own)
     * @param lateSends releases later than 1 ms
     * @param queuedSends requests that found every connection busy and waited for one
     * @param behindSchedule whether the generator fell behind (see the class comment)
     * @param histogram the latencies of 2xx answers (microseconds)
     * @param shed 503 answers: requests the server turned away under its concurrency limit
     * @param shedP99Micros 99th percentile latency of those 503 answers (how fast a refusal came back)
     * @param ramped answers (2xx or 503) to requests released during the ramp, not recorded
     * @param connectionsLost connections the server had closed by the end of the run
     * @param limited 429 answers (rate limited), counted apart from errors and the histogram
     */
    public record Result(int rate, int connections, long durationMillis, long sent, long count, long errors,
                         long incomplete, long p50Micros, long p90Micros, long p99Micros, long maxMicros, double meanMicros,
                         long maxScheduleLagMicros, long lateSends, long queuedSends, boolean behindSchedule,
                         Histogram histogram, long shed, long shedP99Micros, long ramped, long connectionsLost,
                         long limited) {}

    /**
     * Connects, runs for the duration, waits for the outstanding requests (up to the drain time),
     * closes the connections.
     *
     * @return the result
     * @throws IllegalStateException if it cannot connect
     * @throws InterruptedException if interrupted
     */
    public Result run() throws InterruptedException {
        boolean epoll = Epoll.isAvailable();
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory());
        try {
            EventLoop loop = group.next();
            State state = new State();
            Bootstrap b = new Bootstrap().group(loop)
                    .channel(epoll ? EpollSocketChannel.class : NioSocketChannel.class)
                    .option(ChannelOption.TCP_NODELAY, true)
                    .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 5_000)
                    .handler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            ch.pipeline().addLast(new HttpClientCodec(), new HttpObjectAggregator(1 << 20), new Conn(state));
                        }
                    });
            List<Channel> channels = new ArrayList<>();
            // In batches: one connect at a time took 10 s for 10,000 connections; a batch in flight
            // at once stays well inside the listen backlogs of the servers' defaults (100 at once lost connections on Jetty).
            List<io.netty.channel.ChannelFuture> batch = new ArrayList<>(CONNECT_BATCH);
            for (int i = 0; i < connections; i++) {
                batch.add(b.connect(host, port));
                if (batch.size() == CONNECT_BATCH || i == connections - 1) {
                    for (io.netty.channel.ChannelFuture f : batch) {
                        f.awaitUninterruptibly();
                        if (!f.isSuccess()) throw new IllegalStateException("cannot connect to " + host + ":" + port, f.cause());
                        channels.add(f.channel());
                    }
                    batch.clear();
                }
            }
            loop.submit(() -> channels.forEach(state.idle::add)).sync();

            long total = Math.max(1, (rampNanos + durationNanos) * rate / 1_000_000_000L);
            long interval = 1_000_000_000L / rate;
            long start = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(5);
            state.recordFrom = start + rampNanos;
            // Releases run on the event loop itself, scheduled by its own timer: a separate sender
            // thread sharing the generator's one CPU with the loop was woken late whenever the loop
            // was busy (most windows flagged behind schedule in the first runs).
            loop.execute(new Releaser(loop, state, start, interval, total));
            try {
                state.allSent.get(rampNanos + durationNanos + TimeUnit.SECONDS.toNanos(30), TimeUnit.NANOSECONDS);
                state.done.get(Math.max(1, drainNanos), TimeUnit.NANOSECONDS);
            } catch (TimeoutException late) {
                // recorded as incomplete below
            } catch (ExecutionException e) {
                throw new IllegalStateException(e.getCause());
            }
            Result r;
            try {
                long lost = channels.stream().filter(c -> !c.isActive()).count();
                r = loop.submit(() -> state.result(total, lost)).get();
            } catch (ExecutionException e) {
                throw new IllegalStateException(e.getCause());
            }
            List<io.netty.channel.ChannelFuture> closing = new ArrayList<>(channels.size());
            for (Channel c : channels) closing.add(c.close());
            for (io.netty.channel.ChannelFuture f : closing) f.awaitUninterruptibly(2, TimeUnit.SECONDS);
            return r;
        } finally {
            group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
        }
    }

    private long intended(long start, long interval, long i) {
        return start + i * interval + (i * (1_000_000_000L % rate)) / rate;
    }

    /** Releases every request now due, then schedules itself on the loop for the next one. */
    private final class Releaser implements Runnable {
        private final EventLoop loop;
        private final State state;
        private final long start;
        private final long interval;
        private final long total;
        private long next;

        Releaser(EventLoop loop, State state, long start, long interval, long total) {
            this.loop = loop;
            this.state = state;
            this.start = start;
            this.interval = interval;
            this.total = total;
        }

        @Override
        public void run() {
            long now = System.nanoTime();
            while (next < total && intended(start, interval, next) <= now) {
                state.release(intended(start, interval, next));
                next++;
            }
            if (next >= total) {
                state.allReleased = true;
                state.allSent.complete(null);
                state.checkDone();
                return;
            }
            loop.schedule(this, Math.max(0, intended(start, interval, next) - System.nanoTime()), TimeUnit.NANOSECONDS);
        }
    }

    /** Everything mutable, touched only on the event loop. */
    private final class State {
        final Histogram histogram = new Histogram(HIGHEST_MICROS, 3);
        final Histogram shedHistogram = new Histogram(HIGHEST_MICROS, 3);
        final ArrayDeque<Channel> idle = new ArrayDeque<>();
        final ArrayDeque<Long> waiting = new ArrayDeque<>();
        final CompletableFuture<Void> done = new CompletableFuture<>();
        final CompletableFuture<Void> allSent = new CompletableFuture<>();
        boolean allReleased;
        long recordFrom;
        long ramped;
        long released;
        long inFlight;
        long errors;
        long maxLag;
        long late;
        long queued;
        long limited;
        long sentCount;

        void release(long intended) {
            released++;
            long lag = System.nanoTime() - intended;
            // the ramp also warms the generator itself (its JIT): only the recorded window's lag counts
            if (intended >= recordFrom) {
                if (lag > maxLag) maxLag = lag;
                if (lag > LATE_NANOS) late++;
            }
            Channel c = nextIdle();
            if (c == null) {
                queued++;
                waiting.add(intended);
            } else {
                send(c, intended);
            }
        }

        Channel nextIdle() {
            Channel c;
            while ((c = idle.poll()) != null) if (c.isActive()) return c;
            return null;
        }

        void send(Channel c, long intended) {
            inFlight++;
            c.pipeline().get(Conn.class).intended = intended;
            DefaultFullHttpRequest req = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, path, Unpooled.EMPTY_BUFFER);
            req.headers().set(HttpHeaderNames.HOST, host + ":" + port);
            if (forwardedFor != null) req.headers().set("X-Forwarded-For", forwardedFor.apply(sentCount));
            sentCount++;
            c.writeAndFlush(req).addListener(f -> {
                if (!f.isSuccess()) c.close(); // channelInactive counts the error
            });
        }

        /** @param status the answer's status code, or -1 when the request was lost with its connection */
        void finished(Channel c, long intended, int status, boolean reusable) {
            inFlight--;
            long micros = Math.min(HIGHEST_MICROS, Math.max(0, (System.nanoTime() - intended) / 1_000));
            boolean answered = status >= 200 && status < 300 || status == 503;
            if (answered && intended < recordFrom) {
                ramped++;
            } else if (status >= 200 && status < 300) {
                histogram.recordValue(micros);
            } else if (status == 503) {
                shedHistogram.recordValue(micros);
            } else if (status == 429) {
                limited++;
            } else {
                errors++;
            }
            if (reusable && c.isActive()) {
                Long next = waiting.poll();
                if (next != null) send(c, next); else idle.add(c);
            }
            checkDone();
        }

        void checkDone() {
            // a pool whose connections all died leaves requests waiting: the run then ends at the drain timeout
            if (allReleased && inFlight == 0 && waiting.isEmpty()) done.complete(null);
        }

        Result result(long total, long lost) {
            long count = histogram.getTotalCount();
            long shed = shedHistogram.getTotalCount();
            long incomplete = Math.max(0, total - count - shed - errors - ramped - limited);
            boolean behind = maxLag > MAX_LAG_NANOS || late * 100 > Math.max(1, released);
            return new Result(rate, connections, TimeUnit.NANOSECONDS.toMillis(durationNanos), released, count, errors,
                    incomplete, histogram.getValueAtPercentile(50), histogram.getValueAtPercentile(90),
                    histogram.getValueAtPercentile(99), histogram.getMaxValue(), count == 0 ? 0 : histogram.getMean(),
                    maxLag / 1_000, late, queued, behind, histogram.copy(), shed, shedHistogram.getValueAtPercentile(99), ramped,
                    lost, limited);
        }
    }

    /** One connection's handler: at most one request in flight. */
    private static final class Conn extends SimpleChannelInboundHandler<FullHttpResponse> {
        private final State state;
        long intended = -1;

        Conn(State state) {
            this.state = state;
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpResponse res) {
            long t = intended;
            intended = -1;
            if (t < 0) return; // unsolicited
            state.finished(ctx.channel(), t, res.status().code(), true);
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            long t = intended;
            intended = -1;
            if (t >= 0) state.finished(ctx.channel(), t, -1, false);
            ctx.fireChannelInactive();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }
}
