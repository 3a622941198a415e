package dev.tidemill.bench;

import static dev.tidemill.bench.Args.positive;
import static dev.tidemill.bench.Args.value;
import static dev.tidemill.bench.Args.words;

import dev.tidemill.bench.common.Scenario;
import dev.tidemill.bench.loadgen.OpenLoopGenerator;
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
import java.util.Set;

/**
 * {@code ./tidemill bench heavy}: the heavy fixed-rate load live HTML is judged by: 10,000
 * keep-alive connections each fetch {@code /page} every 2 s: 5,000 requests per second in all, open
 * loop, latency from each request's intended send time (coordinated-omission free, {@link
 * OpenLoopGenerator}). Every target in turn: started, its answers checked, warmed up with wrk, then
 * the connections opened and the rate run for a ramp (not recorded) and a measured window. Reports
 * p50/p90/p99/max, answers per second, errors, connections the server closed, server CPU, and the
 * generator's own CPU and schedule lag, so a row where the client was the bottleneck says so.
 * Writes {@code <UTC>-heavy.json} and {@code .md}.
 *
 * <p>The generator hands each request to the connection idle longest (a FIFO of idle
 * connections), so at 5,000 requests per second over 10,000 connections each connection is asked
 * for the page once every 2 s, as in the write-up.
 */
public final class HeavyLoadSuite {
    /** A generator process above this share of its CPUs was the bottleneck, percent. */
    static final double CLIENT_BOUND_PERCENT = 90;

    /**
     * Options.
     *
     * @param quick 1,000 connections at 500 req/s, short windows (to check that everything works)
     * @param targets target names (empty: Tidemill, the baseline and every peer)
     * @param connections keep-alive connections
     * @param intervalSeconds how often each connection asks for the page: rate = connections / interval
     * @param rampSeconds open-loop load before recording starts
     * @param durationSeconds recorded window
     * @param warmupSeconds wrk closed-loop warm-up on the page per target, before the connections open
     * @param outDir where results go
     * @param repoRoot where the peers are looked for
     */
    public record Settings(boolean quick, List<String> targets, int connections, int intervalSeconds, int rampSeconds,
                           int durationSeconds, int warmupSeconds, Path outDir, Path repoRoot) {
        /** @return requests per second over all connections */
        public int rate() {
            return Math.max(1, connections / intervalSeconds);
        }

        /** @return the suite name in result file names */
        public String suite() {
            return quick ? "heavy-quick" : "heavy";
        }

        /**
         * @param args the arguments after {@code heavy}
         * @return the settings
         */
        public static Settings parse(List<String> args) {
            boolean quick = args.contains("--quick");
            List<String> targets = List.of();
            int connections = quick ? 1_000 : 10_000, interval = 2, ramp = quick ? 2 : 5, duration = quick ? 4 : 20;
            int warmup = quick ? 3 : 8;
            Path out = Path.of("bench", "results");
            Path root = Path.of("");
            for (int i = 0; i < args.size(); i++) {
                String a = args.get(i);
                switch (a) {
                    case "--quick" -> { }
                    case "--targets" -> targets = words(value(args, ++i, a));
                    case "--connections" -> connections = positive(value(args, ++i, a), a);
                    case "--interval" -> interval = positive(value(args, ++i, a), a);
                    case "--ramp" -> ramp = Integer.parseInt(value(args, ++i, a));
                    case "--duration" -> duration = positive(value(args, ++i, a), a);
                    case "--warmup" -> warmup = Integer.parseInt(value(args, ++i, a));
                    case "--out" -> out = Path.of(value(args, ++i, a));
                    case "--root" -> root = Path.of(value(args, ++i, a));
                    default -> throw new IllegalArgumentException("unknown option " + a + " (heavy takes --quick --targets a,b "
                            + "--connections N --interval S --ramp S --duration S --warmup S --out DIR)");
                }
            }
            if (ramp < 0 || warmup < 0) throw new IllegalArgumentException("ramp and warm-up must be >= 0");
            return new Settings(quick, targets, connections, interval, ramp, duration, warmup, out, root);
        }
    }

    /**
     * One target under the load. Latencies in milliseconds from intended send times, of 2xx answers
     * to requests released in the recorded window.
     *
     * @param target the target
     * @param connections keep-alive connections
     * @param rate requests per second offered
     * @param seconds recorded window
     * @param sent requests released over ramp and window
     * @param ok 2xx answers in the window
     * @param answeredPerSec ok / seconds
     * @param p50Ms median
     * @param p90Ms 90th percentile
     * @param p99Ms 99th percentile
     * @param maxMs maximum
     * @param errors non-2xx answers (503 included), failed writes, requests lost with their connection and
     *     requests unanswered at the end, over ramp and window
     * @param connectionsLost connections the server had closed by the end
     * @param serverCpuPercent server process CPU over ramp and window, percent of one CPU
     * @param clientCpuPercent the generator's process (the runner JVM) over ramp and window, percent of its CPUs
     * @param clientCpusBusyPercent the generator's CPUs' busy share over ramp and window (every process), percent
     * @param maxScheduleLagMs the generator's worst lag behind a request's intended time
     * @param behindSchedule whether the generator fell behind its schedule (its latencies then partly measure it)
     * @param notes what a reader must know
     */
    public record Row(String target, int connections, int rate, int seconds, long sent, long ok, double answeredPerSec,
                      double p50Ms, double p90Ms, double p99Ms, double maxMs, long errors, long connectionsLost,
                      double serverCpuPercent, double clientCpuPercent, double clientCpusBusyPercent,
                      double maxScheduleLagMs, boolean behindSchedule, List<String> notes) {}

    /**
     * What the suite wrote.
     *
     * @param suite {@code heavy} or {@code heavy-quick}
     * @param quick whether it was a quick run
     * @param startedUtc start
     * @param finishedUtc end
     * @param command the command line
     * @param fingerprint host and software
     * @param preflight checks
     * @param configuration settings and method
     * @param targets per target: command line and verification
     * @param rows the measurements
     */
    public record Result(String suite, boolean quick, String startedUtc, String finishedUtc, String command,
                         Map<String, Object> fingerprint, List<Check> preflight, Map<String, Object> configuration,
                         List<Map<String, Object>> targets, List<Row> rows) {}

    private final Settings settings;
    private final String command;
    private final PrintStream out;

    /**
     * @param settings the options
     * @param command the command line, as recorded
     * @param out progress
     */
    public HeavyLoadSuite(Settings settings, String command, PrintStream out) {
        this.settings = settings;
        this.command = command;
        this.out = out;
    }

    /** @return every target this suite can run here: Tidemill (default mode, baked page), the baseline, the peers */
    List<Target> targets() {
        TargetCatalog catalog = new TargetCatalog(settings.repoRoot(), System.getProperty("java.class.path"));
        List<Target> all = new ArrayList<>();
        // Tidemill's connection limit (10,000 by default) must admit every connection and the warm-up's.
        all.add(TargetCatalog.tidemill("tidemill", Map.of("TIDEMILL_MAX_CONNECTIONS",
                Integer.toString(settings.connections() + 1_000)), CpuSets.derive().server().size()));
        for (Target t : catalog.all()) {
            if (t.kind().equals("baseline") || t.kind().equals("peer")) all.add(t);
        }
        if (settings.targets().isEmpty()) return all;
        List<Target> chosen = new ArrayList<>();
        for (String n : settings.targets()) {
            chosen.add(all.stream().filter(t -> t.name().equals(n)).findFirst().orElseThrow(() -> new IllegalArgumentException(
                    "unknown target " + n + "; found: " + String.join(", ", all.stream().map(Target::name).toList()))));
        }
        return chosen;
    }

    /** @return the JSON file written */
    public Path run() {
        String started = Instant.now().toString();
        CpuSets cpus = CpuSets.derive();
        List<Target> targets = targets();
        out.printf(Locale.ROOT, "heavy: %,d connections x GET %s every %d s = %,d req/s, %d s ramp + %d s recorded; server CPUs %s, "
                        + "generator CPUs %s; targets %s%n", settings.connections(), Scenario.PAGE_PATH, settings.intervalSeconds(),
                settings.rate(), settings.rampSeconds(), settings.durationSeconds(), cpus.serverList(), cpus.clientList(),
                String.join(", ", targets.stream().map(Target::name).toList()));
        List<Check> preflight = Preflight.run(cpus, settings.connections());
        Preflight.requireLoadGenerator(preflight);
        preflight.stream().filter(Check::failed).forEach(c -> out.println("preflight FAIL " + c.name() + ": " + c.reading()));
        Map<String, Object> fingerprint = Fingerprint.take(cpus);
        Path work;
        try {
            work = Files.createTempDirectory("tidemill-bench-heavy-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Wrk wrk = new Wrk(cpus.clientList(), 1, work.resolve("wrk"));
        List<Map<String, Object>> records = new ArrayList<>();
        List<Row> rows = new ArrayList<>();
        for (Target t : targets) {
            Preflight.serverBusyPercent(cpus, 300);
            Map<String, Object> rec = new LinkedHashMap<>();
            rec.put("target", t.name());
            records.add(rec);
            try (RunningTarget running = RunningTarget.start(t, cpus, work.resolve(t.name()))) {
                rec.put("commandLine", running.commandLine());
                rec.put("startup", running.startupLines());
                List<String> problems = Verifier.check(running.port(), false);
                rec.put("verification", problems);
                if (!problems.isEmpty()) {
                    out.println("REFUSED " + t.name() + ": " + problems);
                    continue;
                }
                if (settings.warmupSeconds() > 0) {
                    Wrk.run(wrk.command(running.port(), ScenarioRun.PAGE, 64, settings.warmupSeconds()), settings.warmupSeconds());
                }
                Row r = measure(t.name(), running, cpus);
                rows.add(r);
                out.printf(Locale.ROOT, "  %-16s %,7.0f ok/s  p50 %8.2f  p90 %8.2f  p99 %8.2f  max %8.2f ms  errors %d  lost conns %d  "
                                + "server %.0f %%  generator %.0f %% (CPUs %.0f %% busy)  lag %.1f ms%s%n", t.name(), r.answeredPerSec(),
                        r.p50Ms(), r.p90Ms(), r.p99Ms(), r.maxMs(), r.errors(), r.connectionsLost(), r.serverCpuPercent(),
                        r.clientCpuPercent(), r.clientCpusBusyPercent(), r.maxScheduleLagMs(),
                        r.notes().isEmpty() ? "" : "  " + String.join("; ", r.notes()));
            } catch (RuntimeException e) {
                out.println("FAILED " + t.name() + ": " + e.getMessage());
                rec.put("failed", e.getMessage());
            }
        }
        Map<String, Object> conf = new LinkedHashMap<>();
        conf.put("serverCpus", cpus.serverList());
        conf.put("loadGeneratorCpus", cpus.clientList());
        conf.put("connections", settings.connections());
        conf.put("intervalSeconds", settings.intervalSeconds());
        conf.put("rate", settings.rate());
        conf.put("rampSeconds", settings.rampSeconds());
        conf.put("durationSeconds", settings.durationSeconds());
        conf.put("warmupSeconds", settings.warmupSeconds());
        conf.put("path", Scenario.PAGE_PATH);
        conf.put("generator", "OpenLoopGenerator: one Netty event loop in the runner JVM (pinned to the generator CPUs), "
                + "HTTP/1.1 keep-alive, one request in flight per connection, the idle connection longest idle first; "
                + "latency from each request's intended send time, HdrHistogram, 3 digits; connections opened one after "
                + "another before the rate starts");
        conf.put("jvmFlags", TargetCatalog.JVM_FLAGS);
        Result result = new Result(settings.suite(), settings.quick(), started, Instant.now().toString(), command, fingerprint,
                preflight, conf, records, rows);
        Path json = ResultFile.write(settings.outDir(), result.suite(), result, page(result));
        out.println();
        out.print(markdown(rows));
        return json;
    }

    private Row measure(String name, RunningTarget running, CpuSets cpus) {
        long self = ProcessHandle.current().pid();
        try {
            OpenLoopGenerator g = new OpenLoopGenerator("127.0.0.1", running.port(), Scenario.PAGE_PATH, settings.rate(),
                    settings.connections(), settings.rampSeconds() * 1_000L, settings.durationSeconds() * 1_000L, 10_000);
            // The readings span ramp and window: OpenLoopGenerator.run() opens the connections first
            // (a few seconds), which the CPU shares below include at their low rate.
            CpuTimes before = CpuTimes.now();
            long server0 = ProcessCpu.ticks(running.pid()), client0 = ProcessCpu.ticks(self), t0 = System.nanoTime();
            OpenLoopGenerator.Result r = g.run();
            long server1 = ProcessCpu.ticks(running.pid()), client1 = ProcessCpu.ticks(self), t1 = System.nanoTime();
            CpuTimes after = CpuTimes.now();
            double wallMicros = (t1 - t0) / 1_000.0;
            return row(name, r, settings.durationSeconds(), 100 * ProcessCpu.micros(server1 - server0) / wallMicros,
                    100 * ProcessCpu.micros(client1 - client0) / wallMicros / Math.max(1, cpus.client().size()),
                    after.busyPercentSince(before, Set.copyOf(cpus.client())));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /**
     * @param target the target
     * @param r what the generator measured
     * @param seconds the recorded window
     * @param serverCpu server CPU, percent of one CPU
     * @param clientCpu generator process CPU, percent of its CPUs
     * @param clientCpusBusy generator CPUs' busy share, percent
     * @return the row, with its notes
     */
    static Row row(String target, OpenLoopGenerator.Result r, int seconds, double serverCpu, double clientCpu,
                   double clientCpusBusy) {
        List<String> notes = new ArrayList<>();
        if (r.behindSchedule()) {
            notes.add(String.format(Locale.ROOT, "generator behind schedule (%.2f %% of releases over 1 ms late)",
                    100.0 * r.lateSends() / Math.max(1, r.sent())));
        }
        if (clientCpu >= CLIENT_BOUND_PERCENT || clientCpusBusy >= CLIENT_BOUND_PERCENT) notes.add("generator CPUs saturated");
        if (r.queuedSends() > 0) {
            notes.add(String.format(Locale.ROOT, "%.1f %% of requests found every connection busy", 100.0 * r.queuedSends() / Math.max(1, r.sent())));
        }
        long errors = r.errors() + r.incomplete() + r.shed();
        return new Row(target, r.connections(), r.rate(), seconds, r.sent(), r.count(), (double) r.count() / seconds,
                ms(r.p50Micros()), ms(r.p90Micros()), ms(r.p99Micros()), ms(r.maxMicros()), errors, r.connectionsLost(),
                serverCpu, clientCpu, clientCpusBusy, r.maxScheduleLagMicros() / 1_000.0, r.behindSchedule(), notes);
    }

    private static double ms(long micros) {
        return micros / 1_000.0;
    }

    static String page(Result r) {
        Map<String, Object> c = r.configuration();
        return "# Tidemill bench, heavy fixed-rate load" + (r.quick() ? " (quick)" : "") + ", " + r.startedUtc() + "\n\n"
                + String.format(Locale.ROOT, "%,d keep-alive connections, each asking for `GET %s` every %s s: %,d req/s offered, open "
                        + "loop, for %s s (not recorded) then %s s recorded, per target after a %s s wrk warm-up on the page. Latency from "
                        + "each request's intended send time (coordinated-omission free). Server on CPUs %s, generator on CPUs %s. "
                        + "Errors: non-2xx answers, failed writes, requests lost with their connection and requests unanswered 10 s "
                        + "after the last release, over ramp and window. CPU columns span ramp and window. Command: `%s`.%n%n",
                (Integer) c.get("connections"), c.get("path"), c.get("intervalSeconds"), (Integer) c.get("rate"), c.get("rampSeconds"),
                c.get("durationSeconds"), c.get("warmupSeconds"), c.get("serverCpus"), c.get("loadGeneratorCpus"), r.command())
                + markdown(r.rows());
    }

    /**
     * @param rows the measurements
     * @return the Markdown table
     */
    public static String markdown(List<Row> rows) {
        StringBuilder b = new StringBuilder("| target | connections | offered req/s | answered 2xx/s | p50 ms | p90 ms | p99 ms | max ms "
                + "| errors | connections lost | server CPU | generator CPU | generator lag ms | notes |\n"
                + "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
        for (Row r : rows) {
            b.append(String.format(Locale.ROOT, "| %s | %,d | %,d | %,.0f | %.2f | %.2f | %.2f | %.2f | %,d | %,d | %.0f %% | %.0f %% | %.1f | %s |%n",
                    r.target(), r.connections(), r.rate(), r.answeredPerSec(), r.p50Ms(), r.p90Ms(), r.p99Ms(), r.maxMs(),
                    r.errors(), r.connectionsLost(), r.serverCpuPercent(), r.clientCpuPercent(), r.maxScheduleLagMs(),
                    String.join("; ", r.notes())));
        }
        return b.toString();
    }
}
