package dev.tidemill.bench.streams;

import dev.tidemill.bench.Check;
import dev.tidemill.bench.CpuSets;
import dev.tidemill.bench.Fingerprint;
import dev.tidemill.bench.Preflight;
import dev.tidemill.bench.ResultFile;
import dev.tidemill.bench.RunningTarget;
import dev.tidemill.bench.Target;
import dev.tidemill.bench.TargetCatalog;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * {@code ./tidemill bench streams}: SSE fan-out, WebSocket echo and slow-subscriber isolation
 * against every target, one after the other, with the same Netty client on the client CPUs.
 * Writes {@code <UTC>-streams.json} and {@code .md}; {@code bench report} puts the page into
 * docs/performance.md.
 */
public final class StreamsSuite {
    /** The lossless stream: Tidemill's BLOCK topic, each peer's backpressure-respecting publish. */
    static final String FANOUT = "/sse/fanout";
    /** The stream that drops for a subscriber that cannot keep up (Tidemill: a DROP_OLDEST topic). */
    static final String LOSSY = "/sse/lossy";
    /** The WebSocket echo endpoint. */
    static final String ECHO = "/ws/echo";
    /** The Datastar stream: lossless, each event a {@code datastar-patch-elements} with an HTML fragment. */
    static final String DATASTAR = dev.tidemill.bench.common.StreamContract.DATASTAR;

    /**
     * What the suite wrote.
     *
     * @param suite {@code streams} or {@code streams-quick}
     * @param quick whether it was a quick run
     * @param startedUtc start
     * @param finishedUtc end
     * @param command the command line
     * @param fingerprint host and software
     * @param preflight checks
     * @param configuration settings, CPU sets, client
     * @param targets per target: command line, what it serves
     * @param fanout SSE fan-out rows
     * @param echo WebSocket echo rows
     * @param isolation slow-subscriber isolation rows (without, then with a stalled subscriber)
     * @param notMeasured what was not measured, and why
     * @param datastar Datastar fan-out rows ({@code bench live})
     */
    public record Result(String suite, boolean quick, String startedUtc, String finishedUtc, String command,
                         Map<String, Object> fingerprint, List<Check> preflight, Map<String, Object> configuration,
                         List<Map<String, Object>> targets, List<StreamsRows.SseRow> fanout, List<StreamsRows.WsRow> echo,
                         List<StreamsRows.SseRow> isolation, List<String> notMeasured, List<StreamsRows.SseRow> datastar) {
        /** @return whether this is a {@code bench live} result (the Datastar fan-out alone) */
        public boolean live() {
            return suite.startsWith(StreamsSettings.LIVE);
        }
    }

    private final StreamsSettings settings;
    private final String command;
    private final PrintStream out;
    private final List<StreamsRows.SseRow> fanout = new ArrayList<>();
    private final List<StreamsRows.WsRow> echo = new ArrayList<>();
    private final List<StreamsRows.SseRow> isolation = new ArrayList<>();
    private final List<StreamsRows.SseRow> datastar = new ArrayList<>();
    private final List<String> notMeasured = new ArrayList<>();

    /**
     * @param settings the options
     * @param command the command line, as recorded
     * @param out progress
     */
    public StreamsSuite(StreamsSettings settings, String command, PrintStream out) {
        this.settings = settings;
        this.command = command;
        this.out = out;
    }

    /**
     * Runs every target, writes the files.
     *
     * @return the JSON file
     */
    public Path run() {
        String started = Instant.now().toString();
        CpuSets cpus = CpuSets.derive();
        List<Target> targets = StreamsTargets.select(StreamsTargets.all(settings.repoRoot(), settings.maxConnections()),
                settings.targets());
        out.println("streams: server CPUs " + cpus.serverList() + ", client CPUs " + cpus.clientList() + ", targets "
                + String.join(", ", targets.stream().map(Target::name).toList()));
        List<Check> preflight = Preflight.run(cpus, settings.maxConnections());
        preflight.stream().filter(Check::failed).forEach(c -> out.println("preflight FAIL " + c.name() + ": " + c.reading()));
        Map<String, Object> fingerprint = Fingerprint.take(cpus);
        List<Map<String, Object>> records = new ArrayList<>();
        Path work;
        try {
            work = Files.createTempDirectory("tidemill-bench-streams-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String transport;
        try (ClientLoop loop = new ClientLoop(settings.clientTransport())) {
            transport = loop.transport();
            for (Target t : targets) {
                Preflight.serverBusyPercent(cpus, 300);
                try (RunningTarget running = RunningTarget.start(t, cpus, work.resolve(t.name()))) {
                    records.add(measure(t, running, new StreamsMeasure(loop, running.port(), running.pid(), cpus.client().size())));
                } catch (RuntimeException e) {
                    out.println("FAILED " + t.name() + ": " + e.getMessage());
                    notMeasured.add(t.name() + ": failed: " + e.getMessage());
                }
            }
        }
        Map<String, Object> conf = new LinkedHashMap<>();
        conf.put("serverCpus", cpus.serverList());
        conf.put("clientCpus", cpus.clientList());
        conf.put("serverIoThreads", cpus.server().size());
        conf.put("client", "one Netty event loop (" + transport + ") in the runner JVM, pinned with taskset to the client CPUs; "
                + "raw bytes after the response head (no Netty HTTP or WebSocket codec): SSE chunks and lines scanned in place, "
                + "WebSocket frames read by their header lengths, each connection's masked frame encoded once; "
                + "HdrHistogram, 3 digits");
        conf.put("settings", settings);
        conf.put("clientBoundAtPercent", StreamsRows.SATURATED_PERCENT);
        conf.put("jvmFlags", TargetCatalog.JVM_FLAGS);
        Result result = new Result(settings.suite(), settings.quick(), started, Instant.now().toString(), command, fingerprint,
                preflight, conf, records, fanout, echo, isolation, notMeasured, datastar);
        Path json = ResultFile.write(settings.outDir(), result.suite(), result, StreamsReport.page(result));
        out.println();
        out.print(result.live() ? StreamsReport.datastarTable(result.datastar()) : StreamsReport.tables(result));
        return json;
    }

    private Map<String, Object> measure(Target t, RunningTarget running, StreamsMeasure m) {
        String name = t.name();
        boolean sse = m.servesSse(FANOUT) && m.servesSse(LOSSY);
        boolean ws = m.servesWebSocket(ECHO);
        boolean ds = m.servesSse(DATASTAR);
        Map<String, Object> rec = new LinkedHashMap<>();
        rec.put("target", name);
        rec.put("commandLine", running.commandLine());
        rec.put("startup", running.startupLines());
        rec.put("sse", sse);
        rec.put("webSocket", ws);
        rec.put("datastar", ds);
        List<String> scenarios = settings.scenarios();
        boolean wantsSse = scenarios.contains("fanout") || scenarios.contains("isolation");
        out.printf("%s: SSE %s, WebSocket %s, Datastar stream %s%n", name, sse ? "yes" : "no", ws ? "yes" : "no", ds ? "yes" : "no");
        if (!sse && wantsSse) notMeasured.add(name + ": SSE (" + FANOUT + " and " + LOSSY + " not served)");
        if (!ws && scenarios.contains("echo")) notMeasured.add(name + ": WebSocket (no handshake on " + ECHO + ")");
        if (!ds && scenarios.contains("datastar")) notMeasured.add(name + ": Datastar fan-out (" + DATASTAR + " not served)");
        if (settings.warmupSeconds() > 0) {
            // JIT warm-up of the paths about to be measured; nothing of it is recorded.
            if (sse && wantsSse) m.fanout(FANOUT, 100, 0, Math.max(100, settings.deliveries() / 500), 0, 120);
            if (ws && scenarios.contains("echo")) m.echo(ECHO, 100, 1_024, 0, settings.warmupSeconds());
            if (ds && scenarios.contains("datastar")) m.fanout(DATASTAR, 100, 0, 2_000, 0, 120, datastarClient());
        }
        if (ds && scenarios.contains("datastar")) {
            int subs = settings.datastarSubscribers(), events = settings.datastarEvents(), rate = settings.datastarRate();
            row(name, "datastar " + subs, () -> {
                StreamsMeasure.Fanout f = m.fanout(DATASTAR, subs, 0, events, rate, timeout(events, rate), datastarClient());
                StreamsRows.SseRow r = StreamsRows.sse(name, "datastar", subs, 0, events, rate, f.seen(), f.window(), f.deliveryNanos());
                Optional<String> bytes = StreamsRows.datastarBytesProblem(f.firstBytes());
                rec.put("datastarFirstEvent", new String(f.firstBytes(), java.nio.charset.StandardCharsets.UTF_8));
                if (bytes.isPresent()) {
                    List<String> notes = new ArrayList<>(r.notes());
                    notes.add(bytes.get());
                    r = new StreamsRows.SseRow(r.target(), r.scenario(), r.subscribers(), r.stalled(), r.events(), r.rate(), r.expected(),
                            r.received(), r.missing(), r.outOfOrder(), r.otherEvents(), r.seconds(), r.deliveriesPerSec(), r.p50Ms(),
                            r.p99Ms(), r.maxMs(), r.serverCpuMsPer1000(), r.serverCpuPercent(), r.clientLoopCpuPercent(),
                            r.clientProcessCpuPercent(), r.clientBound(), List.copyOf(notes));
                }
                datastar.add(r);
                print(r);
            });
        }
        if (sse && settings.scenarios().contains("fanout")) {
            for (int subs : settings.subscribers()) {
                row(name, "fanout " + subs, () -> {
                    int events = settings.eventsFor(subs);
                    StreamsMeasure.Fanout f = m.fanout(FANOUT, subs, 0, events, settings.rate(), timeout(events, settings.rate()));
                    StreamsRows.SseRow r = StreamsRows.sse(name, "fanout", subs, 0, events, settings.rate(), f.seen(), f.window(),
                            f.deliveryNanos());
                    fanout.add(r);
                    print(r);
                });
            }
        }
        if (ws && settings.scenarios().contains("echo")) {
            for (int conns : settings.connections()) {
                for (int size : settings.sizes()) {
                    row(name, "echo " + conns + " x " + size, () -> {
                        StreamsMeasure.Echo e = m.echo(ECHO, conns, size, settings.echoWarmupSeconds(), settings.windowSeconds());
                        StreamsRows.WsRow r = StreamsRows.ws(name, conns, size, e.seen(), e.window());
                        echo.add(r);
                        out.printf(Locale.ROOT, "  echo %5d x %6d B: %,10.0f rt/s  p50 %7.3f p99 %7.3f ms  server %.4f ms/1k rt (%.0f %%)  "
                                        + "client loop %.0f %%%s%n", conns, size, r.roundTripsPerSec(), r.p50Ms(), r.p99Ms(),
                                r.serverCpuMsPer1000(), r.serverCpuPercent(), r.clientLoopCpuPercent(), r.clientBound() ? "  CLIENT-BOUND" : "");
                    });
                }
            }
        }
        if (sse && settings.scenarios().contains("isolation")) {
            int subs = settings.isolationSubscribers(), events = settings.isolationEvents(), rate = settings.isolationRate();
            for (int stalled : List.of(0, 1)) {
                row(name, "isolation stalled=" + stalled, () -> {
                    StreamsMeasure.Fanout f = m.fanout(LOSSY, subs, stalled, events, rate, timeout(events, rate));
                    StreamsRows.SseRow r = StreamsRows.sse(name, "isolation", subs, stalled, events, rate, f.seen(), f.window(),
                            f.deliveryNanos());
                    isolation.add(r);
                    print(r);
                });
            }
        }
        return rec;
    }

    /** A client for the Datastar stream: the numbers sit inside {@code data: elements <div id="tick">...</div>}. */
    static SseFanoutClient datastarClient() {
        return new SseFanoutClient("elements " + dev.tidemill.bench.common.StreamContract.FRAGMENT_PREFIX,
                dev.tidemill.bench.common.StreamContract.FRAGMENT_SUFFIX);
    }

    /** Runs one row; a row that fails is reported as not measured and the suite goes on. */
    private void row(String target, String what, Runnable row) {
        try {
            row.run();
        } catch (RuntimeException e) {
            out.println("  " + what + " FAILED: " + e.getMessage());
            notMeasured.add(target + ": " + what + ": failed: " + e.getMessage());
        }
    }

    private void print(StreamsRows.SseRow r) {
        out.printf(Locale.ROOT, "  %-9s %5d subs%s: %,10.0f deliveries/s  missing %d  p50 %8.3f p99 %8.3f ms  server %.4f ms/1k (%.0f %%)  "
                        + "client loop %.0f %%%s%n", r.scenario(), r.subscribers(), r.stalled() > 0 ? " (1 stalled)" : "",
                r.deliveriesPerSec(), r.missing(), r.p50Ms(), r.p99Ms(), r.serverCpuMsPer1000(), r.serverCpuPercent(),
                r.clientLoopCpuPercent(), r.clientBound() ? "  CLIENT-BOUND" : "");
    }

    /** The most a publish may take: twice its paced duration, or 120 s unpaced, plus 30 s. */
    static int timeout(int events, int rate) {
        return (rate > 0 ? 2 * events / rate : 120) + 30;
    }
}
