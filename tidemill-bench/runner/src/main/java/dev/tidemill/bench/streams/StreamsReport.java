package dev.tidemill.bench.streams;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** The streams suite's result as Markdown: the page written next to the JSON, which {@code bench report} includes. */
public final class StreamsReport {
    /** Fingerprint fields the page shows (all of them are in the JSON). */
    static final List<String> HOST_FIELDS = List.of("cpuModel", "threads", "memory", "kernel", "hypervisorFlag",
            "jdkVersion", "netty", "serverCpus", "loadGeneratorCpus", "gitCommit");

    private StreamsReport() {}

    /**
     * @param r the result
     * @return the page: title, method, host, command, tables
     */
    public static String page(StreamsSuite.Result r) {
        if (r.live()) return livePage(r);
        Map<String, Object> c = r.configuration();
        StringBuilder b = new StringBuilder("# Tidemill bench, streams suite" + (r.quick() ? " (quick)" : "") + ", "
                + r.startedUtc() + "\n\n");
        b.append("Command: `").append(r.command()).append("`.\n\n");
        b.append("Every target is its own JVM (`").append(c.get("jvmFlags")).append("`) pinned with `taskset` to server CPUs ")
                .append(c.get("serverCpus")).append(" with ").append(c.get("serverIoThreads"))
                .append(" I/O thread(s); the client is ").append(c.get("client")).append(", on CPUs ").append(c.get("clientCpus"))
                .append(". Server CPU is utime + stime of the server process (`/proc/<pid>/stat`) over the window; client CPU ")
                .append("is the client loop thread's CPU time (% of one CPU) and the runner process's (% of the client CPUs). ")
                .append("A row where either is above ").append(c.get("clientBoundAtPercent"))
                .append(" % is client-bound: its throughput is a floor, what the client could take, not the server's ceiling.\n\n");
        b.append("- **SSE fan-out**: the subscribers GET `/sse/fanout`; once the server counts all of them the client POSTs ")
                .append("`/sse/fanout/publish?events=E&rate=R`. Each event is `data: <seq> <System.nanoTime() at publish>`; latency ")
                .append("is arrival minus that (one host, CLOCK_MONOTONIC). Rate 0 means the publisher goes as fast as its ")
                .append("backpressure lets it (lossless: Tidemill's `Topic.Overflow.BLOCK`, each peer's own idiom), so the ")
                .append("latency there includes the queueing of an unpaced burst. The window runs from the publish request to ")
                .append("the last delivery. Missing = events x subscribers - deliveries, and must be 0.\n")
                .append("- **WebSocket echo**: closed loop, one binary message in flight per connection, after an unmeasured ")
                .append("warm-up; latency is the round trip.\n")
                .append("- **Slow-subscriber isolation**: the same subscribers on `/sse/lossy` (Tidemill: a `DROP_OLDEST` topic, ")
                .append("because `BLOCK` would by design hold the publisher for the stalled reader; the peers skip a subscriber ")
                .append("that cannot take more), events paced; once without and once with one subscriber that stops reading ")
                .append("(autoRead off) after its response head. The figures count only the reading subscribers.\n\n");
        b.append("Host:\n\n| | |\n|---|---|\n");
        for (String k : HOST_FIELDS) {
            Object v = r.fingerprint() == null ? null : r.fingerprint().get(k);
            if (v != null) b.append("| ").append(k).append(" | ").append(String.valueOf(v).replace("|", "\\|")).append(" |\n");
        }
        b.append('\n').append(tables(r));
        return b.toString();
    }

    /**
     * @param r the result
     * @return the summary, the three tables and what was not measured
     */
    public static String tables(StreamsSuite.Result r) {
        StringBuilder b = new StringBuilder();
        b.append(summary(r));
        b.append("\n### SSE fan-out\n\n| target | subscribers | events | rate | deliveries/s | missing | p50 ms | p99 ms "
                + "| server CPU ms / 1,000 deliveries | server CPU | client loop CPU | client process CPU | notes |\n"
                + "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
        for (StreamsRows.SseRow s : r.fanout()) {
            b.append(String.format(Locale.ROOT, "| %s | %,d | %,d | %s | %,.0f | %,d | %s | %s | %s | %.0f %% | %s | %.0f %% | %s |%n",
                    s.target(), s.subscribers(), s.events(), s.rate() == 0 ? "unpaced" : s.rate() + "/s", s.deliveriesPerSec(),
                    s.missing(), num(s.p50Ms(), 2), num(s.p99Ms(), 2), num(s.serverCpuMsPer1000(), 3), s.serverCpuPercent(),
                    pct(s.clientLoopCpuPercent()), s.clientProcessCpuPercent(), String.join("; ", s.notes())));
        }
        b.append("\n### WebSocket echo\n\n| target | connections | message bytes | round trips/s | p50 ms | p99 ms "
                + "| server CPU ms / 1,000 round trips | server CPU | client loop CPU | client process CPU | notes |\n"
                + "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
        for (StreamsRows.WsRow w : r.echo()) {
            b.append(String.format(Locale.ROOT, "| %s | %,d | %,d | %,.0f | %s | %s | %s | %.0f %% | %s | %.0f %% | %s |%n",
                    w.target(), w.connections(), w.bytes(), w.roundTripsPerSec(), num(w.p50Ms(), 3), num(w.p99Ms(), 3),
                    num(w.serverCpuMsPer1000(), 3), w.serverCpuPercent(), pct(w.clientLoopCpuPercent()),
                    w.clientProcessCpuPercent(), String.join("; ", w.notes())));
        }
        b.append("\n### Slow-subscriber isolation\n\n| target | subscribers | events | p99 ms, none stalled | p99 ms, one stalled "
                + "| p50 ms, none / one stalled | missing (reading subscribers), none / one stalled | client loop CPU | notes |\n"
                + "|---|---:|---:|---:|---:|---:|---:|---:|---|\n");
        for (String target : r.isolation().stream().map(StreamsRows.SseRow::target).distinct().toList()) {
            Optional<StreamsRows.SseRow> none = isolation(r, target, false), one = isolation(r, target, true);
            String notes = String.join("; ", java.util.stream.Stream.concat(none.stream(), one.stream())
                    .flatMap(x -> x.notes().stream()).distinct().toList());
            StreamsRows.SseRow any = none.or(() -> one).orElseThrow();
            b.append(String.format(Locale.ROOT, "| %s | %,d | %,d at %d/s | %s | %s | %s / %s | %s / %s | %s / %s | %s |%n", target,
                    any.subscribers(), any.events(), any.rate(), none.map(x -> num(x.p99Ms(), 2)).orElse("-"),
                    one.map(x -> num(x.p99Ms(), 2)).orElse("-"), none.map(x -> num(x.p50Ms(), 2)).orElse("-"),
                    one.map(x -> num(x.p50Ms(), 2)).orElse("-"), none.map(x -> Long.toString(x.missing())).orElse("-"),
                    one.map(x -> Long.toString(x.missing())).orElse("-"), none.map(x -> pct(x.clientLoopCpuPercent())).orElse("-"),
                    one.map(x -> pct(x.clientLoopCpuPercent())).orElse("-"), notes));
        }
        if (!r.notMeasured().isEmpty()) {
            b.append("\nNot measured:\n\n");
            r.notMeasured().forEach(n -> b.append("- ").append(n).append('\n'));
        }
        return b.toString();
    }

    /**
     * The page of {@code bench live}: the Datastar fan-out alone.
     *
     * @param r a live result
     * @return title, method, host, table
     */
    static String livePage(StreamsSuite.Result r) {
        Map<String, Object> c = r.configuration();
        StringBuilder b = new StringBuilder("# Tidemill bench, live (Datastar SSE fan-out)" + (r.quick() ? " (quick)" : "") + ", "
                + r.startedUtc() + "\n\n");
        b.append("Command: `").append(r.command()).append("`.\n\n");
        b.append("The clients GET `").append(StreamsSuite.DATASTAR).append("` and hold the stream; once the server counts all of them ")
                .append("the client POSTs `").append(StreamsSuite.DATASTAR).append("/publish?events=E&rate=R`, and the server pushes ")
                .append("an HTML fragment to every client R times a second as a Datastar 1.0 event, the same bytes from every target: ")
                .append("`event: datastar-patch-elements\\ndata: elements <div id=\"tick\">SEQ NANOS</div>\\n\\n`, NANOS being ")
                .append("`System.nanoTime()` when the publisher made the event. Delivery latency is the client's `System.nanoTime()` ")
                .append("when the event's line has arrived minus NANOS (one host, CLOCK_MONOTONIC). The first event each target sent ")
                .append("is checked byte for byte against that format (a row whose bytes differ says so). Lossless publish ")
                .append("(Tidemill: a `BLOCK` topic). Server CPU is utime + stime of the server process (`/proc/<pid>/stat`) from the ")
                .append("publish request to the last delivery, as a share of one CPU. Targets: the JVMs pinned with `taskset` to server ")
                .append("CPUs ").append(c.get("serverCpus")).append(" (`").append(c.get("jvmFlags")).append("`); the client is ")
                .append(c.get("client")).append(", on CPUs ").append(c.get("clientCpus")).append(".\n\n");
        b.append("Host:\n\n| | |\n|---|---|\n");
        for (String k : HOST_FIELDS) {
            Object v = r.fingerprint() == null ? null : r.fingerprint().get(k);
            if (v != null) b.append("| ").append(k).append(" | ").append(String.valueOf(v).replace("|", "\\|")).append(" |\n");
        }
        b.append('\n').append(datastarTable(r.datastar()));
        if (!r.notMeasured().isEmpty()) {
            b.append("\nNot measured:\n\n");
            r.notMeasured().forEach(n -> b.append("- ").append(n).append('\n'));
        }
        return b.toString();
    }

    /**
     * @param rows Datastar fan-out rows
     * @return their table
     */
    static String datastarTable(List<StreamsRows.SseRow> rows) {
        StringBuilder b = new StringBuilder("| target | clients | events | rate | deliveries | missing | p50 ms | p99 ms | max ms "
                + "| server CPU | server CPU ms / 1,000 deliveries | client loop CPU | notes |\n"
                + "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
        for (StreamsRows.SseRow s : rows) {
            b.append(String.format(Locale.ROOT, "| %s | %,d | %,d | %d/s | %,d | %,d | %s | %s | %s | %.1f %% | %s | %s | %s |%n",
                    s.target(), s.subscribers(), s.events(), s.rate(), s.received(), s.missing(), num(s.p50Ms(), 2),
                    num(s.p99Ms(), 2), num(s.maxMs(), 2), s.serverCpuPercent(), num(s.serverCpuMsPer1000(), 4),
                    pct(s.clientLoopCpuPercent()), String.join("; ", s.notes())));
        }
        return b.toString();
    }

    /** Server CPU per 1,000 deliveries at 1,000 subscribers and per 1,000 round trips at 100 x 1 KiB, per target. */
    static String summary(StreamsSuite.Result r) {
        StringBuilder b = new StringBuilder("### Summary\n\nServer CPU per 1,000 deliveries (SSE fan-out, 1,000 subscribers) and per "
                + "1,000 WebSocket round trips (100 connections x 1 KiB), with the client's loop CPU beside each.\n\n"
                + "| target | SSE ms / 1,000 deliveries | client loop CPU | WebSocket ms / 1,000 round trips | client loop CPU |\n"
                + "|---|---:|---:|---:|---:|\n");
        List<String> targets = java.util.stream.Stream.concat(r.fanout().stream().map(StreamsRows.SseRow::target),
                r.echo().stream().map(StreamsRows.WsRow::target)).distinct().toList();
        for (String t : targets) {
            Optional<StreamsRows.SseRow> s = r.fanout().stream().filter(x -> x.target().equals(t) && x.subscribers() == 1_000).findFirst();
            Optional<StreamsRows.WsRow> w = r.echo().stream().filter(x -> x.target().equals(t) && x.connections() == 100
                    && x.bytes() == 1_024).findFirst();
            b.append("| ").append(t).append(" | ").append(s.map(x -> num(x.serverCpuMsPer1000(), 3) + bound(x.clientBound())).orElse("not measured"))
                    .append(" | ").append(s.map(x -> pct(x.clientLoopCpuPercent())).orElse("-"))
                    .append(" | ").append(w.map(x -> num(x.serverCpuMsPer1000(), 3) + bound(x.clientBound())).orElse("not measured"))
                    .append(" | ").append(w.map(x -> pct(x.clientLoopCpuPercent())).orElse("-")).append(" |\n");
        }
        return b.toString();
    }

    private static Optional<StreamsRows.SseRow> isolation(StreamsSuite.Result r, String target, boolean stalled) {
        return r.isolation().stream().filter(x -> x.target().equals(target) && (x.stalled() > 0) == stalled).findFirst();
    }

    private static String bound(boolean clientBound) {
        return clientBound ? " (client-bound)" : "";
    }

    static String num(double v, int digits) {
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%." + digits + "f", v);
    }

    static String pct(double v) {
        return v < 0 || Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.0f %%", v);
    }
}
