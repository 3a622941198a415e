package dev.tidemill.bench.streams;

import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * The streams suite's rows and how they are assembled from what was measured: percentiles from the
 * client's histogram, CPU per 1,000 deliveries or round trips, the missing count and the
 * client-bound flag. Pure: no sockets, so unit tests cover every figure the tables show.
 */
public final class StreamsRows {
    /**
     * A window in which the client's CPU was busier than this share of what it had (its one loop
     * thread, or its process over its pinned CPUs), percent, is client-bound: its throughput is
     * what the client could take, a floor of what the server can do.
     */
    public static final double SATURATED_PERCENT = 90;

    /** The note a client-bound row carries. */
    public static final String CLIENT_BOUND = "client-bound: the number is a floor";

    private StreamsRows() {}

    /**
     * CPU readings over one window.
     *
     * @param wallNanos the window's length, nanoseconds
     * @param serverCpuMicros server process CPU (utime + stime), microseconds
     * @param clientLoopCpuNanos CPU of the client's loop thread, nanoseconds (-1: unknown)
     * @param clientProcessCpuMicros CPU of the whole client process (runner JVM), microseconds
     * @param clientCpus CPUs the client is pinned to
     */
    public record Window(long wallNanos, double serverCpuMicros, long clientLoopCpuNanos, double clientProcessCpuMicros,
                         int clientCpus) {
        /** @return server CPU over the window, percent of one CPU */
        public double serverPercent() {
            return wallNanos <= 0 ? 0 : 100 * serverCpuMicros * 1_000 / wallNanos;
        }

        /** @return the client loop thread's CPU, percent of one CPU (-1: unknown) */
        public double clientLoopPercent() {
            return clientLoopCpuNanos < 0 || wallNanos <= 0 ? -1 : 100.0 * clientLoopCpuNanos / wallNanos;
        }

        /** @return the client process's CPU, percent of its pinned CPUs */
        public double clientProcessPercent() {
            return wallNanos <= 0 ? 0 : 100 * clientProcessCpuMicros * 1_000 / wallNanos / Math.max(1, clientCpus);
        }

        /** @return whether the client's thread or its CPUs were saturated */
        public boolean clientBound() {
            return clientLoopPercent() > SATURATED_PERCENT || clientProcessPercent() > SATURATED_PERCENT;
        }
    }

    /**
     * One SSE fan-out (or isolation) row.
     *
     * @param target the server
     * @param scenario {@code fanout}, or {@code isolation} (lossy stream, paced)
     * @param subscribers connections subscribed
     * @param stalled of them, how many stopped reading (not counted in any figure)
     * @param events events published
     * @param rate events per second the publisher was asked for (0: as fast as backpressure allows)
     * @param expected deliveries expected: events x reading subscribers
     * @param received deliveries the reading subscribers got
     * @param missing expected minus received, at least 0 (must be 0)
     * @param outOfOrder deliveries out of sequence (duplicates or after a gap)
     * @param otherEvents data lines that were not fan-out events (a server's "lost" notices)
     * @param seconds from the publish request to the last delivery
     * @param deliveriesPerSec received / seconds
     * @param p50Ms delivery latency median, milliseconds
     * @param p99Ms delivery latency 99th percentile, milliseconds
     * @param maxMs delivery latency maximum, milliseconds
     * @param serverCpuMsPer1000 server CPU per 1,000 deliveries, milliseconds
     * @param serverCpuPercent server CPU over the window, percent of one CPU
     * @param clientLoopCpuPercent client loop thread CPU, percent of one CPU
     * @param clientProcessCpuPercent client process CPU, percent of its CPUs
     * @param clientBound whether the client was saturated (the throughput is then a floor)
     * @param notes what else a reader must know
     */
    public record SseRow(String target, String scenario, int subscribers, int stalled, int events, int rate, long expected,
                         long received, long missing, long outOfOrder, long otherEvents, double seconds,
                         double deliveriesPerSec, double p50Ms, double p99Ms, double maxMs, double serverCpuMsPer1000,
                         double serverCpuPercent, double clientLoopCpuPercent, double clientProcessCpuPercent,
                         boolean clientBound, List<String> notes) {}

    /**
     * One WebSocket echo row.
     *
     * @param target the server
     * @param connections connections, one message in flight each
     * @param bytes message size, bytes
     * @param seconds the measured window
     * @param roundTrips echoes received in the window
     * @param wrongSize echoes of another length than sent (must be 0)
     * @param roundTripsPerSec roundTrips / seconds
     * @param p50Ms round-trip median, milliseconds
     * @param p99Ms round-trip 99th percentile, milliseconds
     * @param maxMs round-trip maximum, milliseconds
     * @param serverCpuMsPer1000 server CPU per 1,000 round trips, milliseconds
     * @param serverCpuPercent server CPU over the window, percent of one CPU
     * @param clientLoopCpuPercent client loop thread CPU, percent of one CPU
     * @param clientProcessCpuPercent client process CPU, percent of its CPUs
     * @param clientBound whether the client was saturated
     * @param notes what else a reader must know
     */
    public record WsRow(String target, int connections, int bytes, double seconds, long roundTrips, long wrongSize,
                        double roundTripsPerSec, double p50Ms, double p99Ms, double maxMs, double serverCpuMsPer1000,
                        double serverCpuPercent, double clientLoopCpuPercent, double clientProcessCpuPercent,
                        boolean clientBound, List<String> notes) {}

    /**
     * @param target the server
     * @param scenario {@code fanout} or {@code isolation}
     * @param subscribers connections
     * @param stalled of them stalled
     * @param events events published
     * @param rate events per second asked for (0: unpaced)
     * @param seen what the reading subscribers saw
     * @param w CPU over the window (the publish request to when the last delivery was seen)
     * @param deliveryNanos the publish request to the last delivery, nanoseconds
     * @return the row
     */
    static SseRow sse(String target, String scenario, int subscribers, int stalled, int events, int rate,
                      SseFanoutClient.Snapshot seen, Window w, long deliveryNanos) {
        long expected = (long) events * (subscribers - stalled);
        long missing = Math.max(0, expected - seen.received());
        double seconds = deliveryNanos / 1e9;
        List<String> notes = new ArrayList<>();
        if (missing > 0) notes.add(String.format(java.util.Locale.ROOT, "%,d deliveries missing", missing));
        if (seen.outOfOrder() > 0) notes.add(seen.outOfOrder() + " out of order");
        if (w.clientBound()) notes.add(CLIENT_BOUND);
        Histogram h = seen.latencyMicros();
        return new SseRow(target, scenario, subscribers, stalled, events, rate, expected, seen.received(), missing,
                seen.outOfOrder(), seen.otherEvents(), round(seconds, 3), perSecond(seen.received(), seconds),
                ms(h, 50), ms(h, 99), maxMs(h), perThousand(w.serverCpuMicros(), seen.received()),
                round(w.serverPercent(), 1), round(w.clientLoopPercent(), 1), round(w.clientProcessPercent(), 1),
                w.clientBound(), List.copyOf(notes));
    }

    /** One Datastar event exactly as {@link dev.tidemill.bench.common.StreamContract#datastarEvent} writes it, any numbers. */
    static final java.util.regex.Pattern DATASTAR_EVENT = java.util.regex.Pattern.compile(
            java.util.regex.Pattern.quote("event: " + dev.tidemill.bench.common.StreamContract.DATASTAR_PATCH_ELEMENTS
                    + "\ndata: elements " + dev.tidemill.bench.common.StreamContract.FRAGMENT_PREFIX) + "\\d+ -?\\d+"
                    + java.util.regex.Pattern.quote(dev.tidemill.bench.common.StreamContract.FRAGMENT_SUFFIX + "\n\n"));

    /** What a row whose events carry the contract's bytes plus an {@code id:} line says. */
    static final String ADDS_ID = "the contract's bytes plus an `id:` line (the topic stream's Last-Event-ID resume)";

    /**
     * Checks the first event of a Datastar stream against the contract's bytes. Comment lines a
     * server sends before it (Helidon opens a stream with one) are not events and are skipped.
     *
     * @param first the first bytes of the event stream, as the server sent them (after the chunked framing)
     * @return empty when its first event has exactly the contract's bytes, else what it was
     */
    static java.util.Optional<String> datastarBytesProblem(byte[] first) {
        String text = new String(first, java.nio.charset.StandardCharsets.UTF_8);
        int from = 0;
        while (text.startsWith(":", from)) { // comment lines, each ending with LF; then the blank line
            int eol = text.indexOf('\n', from);
            if (eol < 0) break;
            from = eol + 1;
            if (text.startsWith("\n", from)) from++;
        }
        int end = text.indexOf("\n\n", from);
        String event = end < 0 ? text.substring(from) : text.substring(from, end + 2);
        if (DATASTAR_EVENT.matcher(event).matches()) return java.util.Optional.empty();
        String withoutId = event.replaceFirst("(?m)^id: \\d+(-\\d+)?\n", "");
        if (!withoutId.equals(event) && DATASTAR_EVENT.matcher(withoutId).matches()) {
            return java.util.Optional.of(ADDS_ID + " (" + (event.length() - withoutId.length()) + " bytes more per event)");
        }
        return java.util.Optional.of("first event differs from the contract's bytes: '" + event.replace("\n", "\\n") + "'");
    }

    /**
     * @param target the server
     * @param connections connections
     * @param bytes message size
     * @param seen the window's counters
     * @param w the window
     * @return the row
     */
    static WsRow ws(String target, int connections, int bytes, WsEchoClient.Snapshot seen, Window w) {
        double seconds = w.wallNanos() / 1e9;
        List<String> notes = new ArrayList<>();
        if (seen.wrongSize() > 0) notes.add(seen.wrongSize() + " echoes of the wrong size");
        if (seen.wrongEcho() > 0) notes.add(seen.wrongEcho() + " echoes not the message in flight");
        if (seen.roundTrips() == 0) notes.add("no round trip completed");
        if (w.clientBound()) notes.add(CLIENT_BOUND);
        Histogram h = seen.latencyMicros();
        return new WsRow(target, connections, bytes, round(seconds, 3), seen.roundTrips(), seen.wrongSize(),
                perSecond(seen.roundTrips(), seconds), ms(h, 50), ms(h, 99), maxMs(h),
                perThousand(w.serverCpuMicros(), seen.roundTrips()), round(w.serverPercent(), 1),
                round(w.clientLoopPercent(), 1), round(w.clientProcessPercent(), 1), w.clientBound(), List.copyOf(notes));
    }

    /**
     * @param cpuMicros CPU time, microseconds
     * @param count deliveries or round trips
     * @return milliseconds of CPU per 1,000 of them (NaN for none): (us / 1,000) / (count / 1,000) = us / count
     */
    static double perThousand(double cpuMicros, long count) {
        return count <= 0 ? Double.NaN : round(cpuMicros / count, 4);
    }

    static double perSecond(long count, double seconds) {
        return seconds <= 0 ? 0 : round(count / seconds, 0);
    }

    /** @return the percentile of a microsecond histogram, in milliseconds (NaN when empty) */
    static double ms(Histogram h, double percentile) {
        return h.getTotalCount() == 0 ? Double.NaN : round(h.getValueAtPercentile(percentile) / 1_000.0, 3);
    }

    static double maxMs(Histogram h) {
        return h.getTotalCount() == 0 ? Double.NaN : round(h.getMaxValue() / 1_000.0, 3);
    }

    static double round(double v, int digits) {
        if (Double.isNaN(v) || Double.isInfinite(v)) return v;
        double f = Math.pow(10, digits);
        return Math.round(v * f) / f;
    }
}
