package dev.tidemill.bench.cluster;

import dev.tidemill.bench.CpuSets;
import dev.tidemill.bench.CpuTimes;
import dev.tidemill.bench.Preflight;
import dev.tidemill.bench.ProcessCpu;
import dev.tidemill.bench.RunningTarget;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Measures rows against one running system: node A takes the publishes, node B serves the
 * subscribers (one node: both), Redis behind them when the system uses it. Per row the subscribers
 * connect and the runner waits until node B counts them all; the publisher then runs at the row's
 * rate, first for the warm-up, then for the measured window, whose messages alone are recorded;
 * CPU of every server process ({@code /proc/<pid>/stat}) and of the client's two loop threads is
 * read from the window's first publish to the moment its last delivery arrived.
 */
final class ClusterMeasure {
    /** A row whose deliveries stop coming for this long ends with what it has (the rest counts as lost). */
    static final long STALL_NANOS = 5_000_000_000L;

    /**
     * The processes of one system.
     *
     * @param a node A: the publishes go here
     * @param b node B: the subscribers are here (for one node, the same as A)
     * @param redis the run's Redis, or null when the system does not use it
     */
    record Nodes(RunningTarget a, RunningTarget b, RedisProcess redis) {
        boolean single() {
            return a == b;
        }
    }

    private final ClientLoop subscriberLoop;
    private final ClientLoop publisherLoop;
    private final CpuSets cpus;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();

    ClusterMeasure(ClientLoop subscriberLoop, ClientLoop publisherLoop, CpuSets cpus) {
        this.subscriberLoop = subscriberLoop;
        this.publisherLoop = publisherLoop;
        this.cpus = cpus;
    }

    /**
     * @param target the system's name
     * @param n its processes
     * @param subscribers SSE subscribers on node B
     * @param rate messages per second
     * @param warmupSeconds publishing before the window
     * @param seconds the window
     * @return the row
     */
    ClusterRows.Row fanout(String target, Nodes n, int subscribers, int rate, int warmupSeconds, int seconds) {
        awaitSubscribers(n.b(), 0);
        Preflight.serverBusyPercent(cpus, 300); // what the last row left behind (a backlog, a collection) is done first
        try (Subscribers subs = new Subscribers(subscriberLoop, n.b().port(), "/events", subscribers)) {
            awaitSubscribers(n.b(), subscribers);
            Publisher pub = new Publisher(publisherLoop, n.a().port());
            try {
                pub.start(rate);
                sleep(warmupSeconds * 1_000L);
                long from = pub.nextSeq();
                subs.measureFrom(from);
                Cpu c0 = cpu(n);
                sleep(seconds * 1_000L);
                long to = pub.stop();
                subs.measureTo(to);
                long t1 = System.nanoTime();
                pub.awaitAnswers(10);
                Publisher.Snapshot p = pub.snapshot();
                long ackedInWindow = p.ackedSeqs().get((int) from, (int) to + 1).cardinality();
                long expected = ackedInWindow * subscribers;
                Cpu c1 = awaitDeliveries(n, subs::measured, expected, 100);
                Subscribers.Snapshot s = subs.snapshot();
                long[] against = subs.against(p.ackedSeqs());
                return row(target, n, subscribers, rate, to - from + 1, ackedInWindow, p, expected, s, against[0], c0, c1, t1);
            } finally {
                pub.close();
            }
        }
    }

    /**
     * The fault row: subscribers on B, publishes on A at {@code rate}; Redis killed with {@code kill -9}
     * after {@code beforeSeconds}, started again after {@code downMillis}, and the publishing goes on for
     * {@code afterSeconds} once it answers PING.
     *
     * @return the row
     */
    ClusterRows.Fault fault(Nodes n, int subscribers, int rate, int beforeSeconds, int downMillis, int afterSeconds) {
        awaitSubscribers(n.b(), 0);
        try (Subscribers subs = new Subscribers(subscriberLoop, n.b().port(), "/events", subscribers)) {
            awaitSubscribers(n.b(), subscribers);
            Publisher pub = new Publisher(publisherLoop, n.a().port());
            try {
                pub.start(rate);
                sleep(beforeSeconds * 1_000L);
                long killed = System.nanoTime();
                n.redis().kill();
                sleep(Math.max(0, downMillis - (System.nanoTime() - killed) / 1_000_000));
                long restarted = System.nanoTime();
                n.redis().start();
                long ping = System.nanoTime();
                pub.watchAcks(ping);
                subs.watchLive(pub.nextSeq());
                sleep(afterSeconds * 1_000L);
                pub.stop();
                pub.awaitAnswers(10);
                Publisher.Snapshot p = pub.snapshot();
                long expected = p.ackedSeqs().cardinality() * (long) subscribers;
                awaitDeliveries(n, subs::received, expected, 2_000);
                Subscribers.Snapshot s = subs.snapshot();
                long[] against = subs.against(p.ackedSeqs());
                List<String> notes = new ArrayList<>();
                if (against[0] > 0) notes.add("LOST " + against[0] + " acknowledged deliveries");
                if (s.duplicates() > 0) notes.add(s.duplicates() + " duplicates");
                if (subs.allLiveNanos() == 0) notes.add("not every subscriber got a message published after Redis came back");
                return new ClusterRows.Fault(subscribers, rate, p.sent(), p.acked(), p.unavailable(), p.otherStatus() + p.errors(),
                        (restarted - killed) / 1e6, (ping - restarted) / 1e6, since(ping, p.firstAckAfterNanos()),
                        since(ping, subs.firstLiveNanos()), since(ping, subs.allLiveNanos()), expected, against[0], s.duplicates(),
                        s.outOfOrder(), against[1], s.other(), s.closed(), List.copyOf(notes));
            } finally {
                pub.close();
            }
        }
    }

    private ClusterRows.Row row(String target, Nodes n, int subscribers, int rate, long published, long acked, Publisher.Snapshot p,
                                long expected, Subscribers.Snapshot s, long lost, Cpu c0, Cpu c1, long t1) {
        long windowNanos = t1 - c0.nanos, cpuNanos = c1.nanos - c0.nanos;
        double seconds = windowNanos / 1e9;
        long delivered = s.measured();
        long lastDelivery = s.lastMeasuredNanos() == 0 ? c1.nanos : s.lastMeasuredNanos();
        double drainMs = (lastDelivery - t1) / 1e6;
        long aTicks = c1.a - c0.a, bTicks = c1.b - c0.b, redisTicks = c1.redis - c0.redis;
        boolean single = n.single(), redis = n.redis() != null;
        long nodes = aTicks + (single ? 0 : bTicks), total = nodes + (redis ? redisTicks : 0);
        double subLoop = (c1.subLoop - c0.subLoop) * 100.0 / cpuNanos, pubLoop = (c1.pubLoop - c0.pubLoop) * 100.0 / cpuNanos;
        List<String> notes = new ArrayList<>();
        if (lost > 0) notes.add("LOST " + lost + " acknowledged deliveries");
        if (s.duplicates() > 0) notes.add(s.duplicates() + " duplicates");
        if (s.closed() > 0) notes.add(s.closed() + " streams closed during the row");
        long failed = p.sent() - p.acked();
        if (failed > 0) notes.add(failed + " publishes not answered 2xx (" + p.unavailable() + " 503)");
        if (drainMs > ClusterRows.BEHIND_MS) {
            notes.add(String.format(java.util.Locale.ROOT, "fell behind: the last delivery came %.1f s after the last publish", drainMs / 1e3));
        }
        double busy = c1.host.busyPercentSince(c0.host, Set.copyOf(cpus.server()));
        double own = ClusterRows.percent(total, cpuNanos);
        if (Math.max(busy, own / cpus.server().size()) >= ClusterRows.SATURATED_PERCENT) {
            notes.add("server CPUs saturated (" + Math.round(busy) + " % busy; the nodes and Redis " + Math.round(own) + " % of one CPU)");
        }
        if (subLoop >= ClusterRows.CLIENT_BOUND_PERCENT) notes.add("client-bound: the subscriber loop was busy " + Math.round(subLoop) + " %");
        return new ClusterRows.Row(target, subscribers, rate, seconds, drainMs, published, acked, failed, expected, delivered, lost,
                s.duplicates(), s.outOfOrder(), s.other(), s.closed(), delivered * 1e9 / (lastDelivery - c0.nanos), ClusterRows.ms(s.latencyMicros(), 50),
                ClusterRows.ms(s.latencyMicros(), 90), ClusterRows.ms(s.latencyMicros(), 99), ClusterRows.ms(s.latencyMicros(), 99.9),
                ClusterRows.maxMs(s.latencyMicros()), ClusterRows.ms(p.ackMicros(), 50), ClusterRows.ms(p.ackMicros(), 99),
                ClusterRows.per1000(aTicks, delivered), single ? null : ClusterRows.per1000(bTicks, delivered),
                redis ? ClusterRows.per1000(redisTicks, delivered) : null, ClusterRows.per1000(nodes, delivered),
                ClusterRows.per1000(total, delivered), ClusterRows.percent(aTicks, cpuNanos),
                single ? null : ClusterRows.percent(bTicks, cpuNanos), redis ? ClusterRows.percent(redisTicks, cpuNanos) : null, busy, own,
                subLoop, pubLoop, List.copyOf(notes));
    }

    private static Double since(long from, long at) {
        return at == 0 ? null : (at - from) / 1e6;
    }

    /**
     * Waits until {@code progress} has reached {@code expected} and then not moved for {@code quietMillis}, or
     * has not moved for {@link #STALL_NANOS}. The quiet period matters when some deliveries are of messages whose
     * publish was not acknowledged (the fault row): the count then reaches the acknowledged total before the
     * last acknowledged message has arrived everywhere.
     *
     * @return the CPU counters at the end of the deliveries: read now, or, when they stalled (some never came),
     *     as they were at the last progress (at most 50 ms before it), so that the stall's idle time does not
     *     dilute the window
     */
    private Cpu awaitDeliveries(Nodes n, java.util.function.LongSupplier progress, long expected, long quietMillis) {
        long last = progress.getAsLong(), lastChange = System.nanoTime();
        Cpu atProgress = cpu(n);
        while (true) {
            sleep(2);
            long now = System.nanoTime(), r = progress.getAsLong();
            if (r != last) {
                last = r;
                lastChange = now;
                if (now - atProgress.nanos > 50_000_000L) atProgress = cpu(n);
            } else if (last >= expected && now - lastChange > quietMillis * 1_000_000) {
                return cpu(n);
            } else if (now - lastChange > STALL_NANOS) {
                return atProgress;
            }
        }
    }

    /** CPU counters at one moment: the server processes' clock ticks, the client loops' nanoseconds, the host's CPUs. */
    private record Cpu(long nanos, long a, long b, long redis, long subLoop, long pubLoop, CpuTimes host) {}

    private Cpu cpu(Nodes n) {
        try {
            long a = ProcessCpu.ticks(n.a().pid());
            long b = n.single() ? a : ProcessCpu.ticks(n.b().pid());
            long r = n.redis() == null ? 0 : n.redis().ticks();
            return new Cpu(System.nanoTime(), a, b, r, subscriberLoop.cpuNanos(), publisherLoop.cpuNanos(), CpuTimes.now());
        } catch (IOException e) {
            throw new UncheckedIOException("a node is gone", e);
        }
    }

    /** Waits (at most 30 s) until node {@code node} counts exactly {@code count} open streams. */
    void awaitSubscribers(RunningTarget node, int count) {
        long deadline = System.nanoTime() + 30_000_000_000L;
        String last = "";
        while (System.nanoTime() < deadline) {
            HttpResponse<String> r = get(node.port(), "/subscribers");
            last = r.statusCode() + " " + r.body().trim();
            if (r.statusCode() == 200 && r.body().trim().equals(Integer.toString(count))) return;
            sleep(20);
        }
        throw new IllegalStateException(node.target().name() + " did not count " + count + " subscribers within 30 s (last answer: "
                + last + ")");
    }

    private HttpResponse<String> get(int port, String path) {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).timeout(Duration.ofSeconds(10)).GET().build();
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException("GET " + request.uri() + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
