package dev.tidemill.bench;

import static dev.tidemill.bench.Args.value;

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

/**
 * {@code ./tidemill bench overload [--quick]}: what Tidemill does with more work than it can do.
 * For each configuration (LOOP and VIRTUAL, each with the default concurrency limit and with a
 * tight one) it measures capacity on a CPU-bound handler ({@code /cost?us=200}) with wrk, then
 * offers 0.5x, 1x, 1.5x and 3x that capacity open-loop with the {@link OpenLoopGenerator}, and
 * 0.5x once more to show it recovered. Reports goodput (2xx per second), shed rate (503s), the
 * latency of the served requests and how fast a refusal came back. Writes {@code <UTC>-overload.json}
 * and {@code .md}.
 *
 * <p>The generator keeps one request per connection in flight, so it opens more connections than
 * the server admits (twice the limit, at least 256): otherwise the generator, not the server,
 * would be where excess requests wait.
 */
public final class OverloadSuite {
    /** CPU cost of the handler, microseconds: high enough that 3x capacity stays within what one generator core sends. */
    static final int COST_MICROS = 200;
    /** Offered load as multiples of the measured capacity, in order; the last is the recovery check. */
    static final List<Double> FACTORS = List.of(0.5, 1.0, 1.5, 3.0, 0.5);
    /** The tight per-loop concurrency limit measured next to the default. */
    static final int TIGHT_LIMIT = 32;
    /** How the configurations that keep Tidemill's default limit are labelled. */
    static final String DEFAULT_LIMIT_LABEL = "default limit";

    /**
     * One configuration.
     *
     * @param name its label
     * @param mode {@code loop} or {@code virtual}
     * @param limitPerLoop the per-loop concurrency limit, or 0 for Tidemill's default
     */
    public record Config(String name, String mode, int limitPerLoop) {
        Map<String, String> env() {
            Map<String, String> env = new LinkedHashMap<>();
            env.put("TIDEMILL_MODE", mode);
            if (limitPerLoop > 0) env.put("TIDEMILL_CONCURRENCY_PER_LOOP", Integer.toString(limitPerLoop));
            return env;
        }
    }

    static List<Config> configs() {
        return List.of(new Config("loop, " + DEFAULT_LIMIT_LABEL, "loop", 0),
                new Config("loop, limit " + TIGHT_LIMIT, "loop", TIGHT_LIMIT),
                new Config("virtual, " + DEFAULT_LIMIT_LABEL, "virtual", 0),
                new Config("virtual, limit " + TIGHT_LIMIT, "virtual", TIGHT_LIMIT));
    }

    /**
     * Options.
     *
     * @param quick short windows ({@code time ./tidemill bench overload --quick} says how long here)
     * @param windowSeconds open-loop window per offered load
     * @param warmupSeconds wrk warm-up per configuration before capacity is measured
     * @param outDir where results go
     */
    public record Settings(boolean quick, int windowSeconds, int warmupSeconds, Path outDir) {
        /**
         * @param args the arguments after {@code overload}
         * @return the settings
         */
        public static Settings parse(List<String> args) {
            boolean quick = args.contains("--quick");
            int window = quick ? 3 : 10, warmup = quick ? 3 : 15;
            Path out = Path.of("bench", "results");
            for (int i = 0; i < args.size(); i++) {
                String a = args.get(i);
                switch (a) {
                    case "--quick" -> { }
                    case "--duration" -> window = Integer.parseInt(value(args, ++i, a));
                    case "--warmup" -> warmup = Integer.parseInt(value(args, ++i, a));
                    case "--out" -> out = Path.of(value(args, ++i, a));
                    default -> throw new IllegalArgumentException("unknown option " + a
                            + " (overload takes --quick --duration S --warmup S --out DIR)");
                }
            }
            if (window < 1 || warmup < 0) throw new IllegalArgumentException("duration must be >= 1, warm-up >= 0");
            return new Settings(quick, window, warmup, out);
        }
    }

    /**
     * One offered load against one configuration. Latencies in milliseconds from intended send times.
     *
     * @param configuration the configuration
     * @param phase {@code load} or {@code recovery} (the 0.5x after 3x)
     * @param factor offered load / capacity
     * @param capacityRps the configuration's capacity (wrk, closed loop, 64 connections)
     * @param rate requests per second offered
     * @param connections generator connections
     * @param windowSeconds window
     * @param sent requests released
     * @param ok 2xx answers
     * @param shed 503 answers
     * @param errors other answers and lost requests
     * @param incomplete unanswered when the drain time ran out
     * @param goodputRps 2xx per second of window
     * @param shedPercent 503s as a share of requests sent
     * @param p50Ms served (2xx) median
     * @param p99Ms served 99th percentile
     * @param maxMs served maximum
     * @param shedP99Ms 99th percentile of the 503 answers
     * @param queuedSends requests that waited in the generator for a free connection
     * @param behindSchedule the generator fell behind its schedule
     * @param serverCpuPercent server process CPU over the window (100 = one CPU)
     * @param stealPercent hypervisor steal over the window
     */
    public record Row(String configuration, String phase, double factor, double capacityRps, int rate, int connections,
                      int windowSeconds, long sent, long ok, long shed, long errors, long incomplete, double goodputRps,
                      double shedPercent, double p50Ms, double p99Ms, double maxMs, double shedP99Ms, long queuedSends,
                      boolean behindSchedule, double serverCpuPercent, double stealPercent) {}

    /**
     * What the suite wrote.
     *
     * @param suite {@code overload}
     * @param quick whether it was a quick run
     * @param startedUtc start
     * @param finishedUtc end
     * @param fingerprint host and software
     * @param preflight checks
     * @param configuration settings, CPU sets, handler
     * @param targets each configuration's command line, environment, startup lines and verification
     * @param rows the measurements
     */
    public record Result(String suite, boolean quick, String startedUtc, String finishedUtc, Map<String, Object> fingerprint,
                         List<Check> preflight, Map<String, Object> configuration, List<Map<String, Object>> targets,
                         List<Row> rows) {}

    private final Settings settings;
    private final PrintStream out;

    /**
     * @param settings the options
     * @param out progress
     */
    public OverloadSuite(Settings settings, PrintStream out) {
        this.settings = settings;
        this.out = out;
    }

    /**
     * Runs every configuration and offered load, writes the files.
     *
     * @return the JSON file
     */
    public Path run() {
        String started = Instant.now().toString();
        CpuSets cpus = CpuSets.derive();
        BenchMain.keepOffServerCpus(cpus, out);
        int loops = cpus.server().size();
        String path = "/cost?us=" + COST_MICROS;
        out.printf("overload: server CPUs %s, load generator CPUs %s, %d worker loop(s), GET %s, factors %s, %d s windows%n",
                cpus.serverList(), cpus.clientList(), loops, path, FACTORS, settings.windowSeconds());
        List<Check> preflight = Preflight.run(cpus, 4096);
        Preflight.requireLoadGenerator(preflight);
        preflight.stream().filter(Check::failed).forEach(c -> out.println("preflight FAIL " + c.name() + ": " + c.reading()));
        Map<String, Object> fingerprint = Fingerprint.take(cpus);
        List<Row> rows = new ArrayList<>();
        List<Map<String, Object>> targets = new ArrayList<>();
        Path work;
        try {
            work = Files.createTempDirectory("tidemill-bench-overload-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        for (Config c : configs()) {
            Target t = TargetCatalog.tidemill("tidemill-" + c.mode(), c.env(), loops);
            Preflight.serverBusyPercent(cpus, 300);
            Path dir = work.resolve(c.name().replaceAll("[^a-z0-9]+", "-"));
            try (RunningTarget running = RunningTarget.start(t, cpus, dir)) {
                int port = running.port();
                List<String> problems = new ArrayList<>(Verifier.check(port, true));
                String answer = Sweep.answers(port, new Sweep.Handler("cost", path, "spun"));
                if (answer != null) problems.add(answer);
                Map<String, Object> rec = new LinkedHashMap<>();
                rec.put("configuration", c.name());
                rec.put("commandLine", running.commandLine());
                rec.put("env", t.launch().at(port, loops, dir).env());
                rec.put("verification", problems);
                targets.add(rec);
                if (!problems.isEmpty()) {
                    out.println("REFUSED " + c.name() + ": " + String.join("; ", problems));
                    continue;
                }
                // Capacity with no more connections than the server admits: past the limit wrk's
                // closed loop would spend the server's CPU on 503s and measure less than it can do.
                int limit = (c.limitPerLoop() > 0 ? c.limitPerLoop() : defaultLimit(running)) * loops;
                int wrkConnections = Math.min(64, limit);
                out.printf("%s: warming up %d s%n", c.name(), settings.warmupSeconds());
                if (settings.warmupSeconds() > 0) {
                    Wrk.run(Wrk.get(cpus.clientList(), 1, port, path, wrkConnections, settings.warmupSeconds()), settings.warmupSeconds());
                }
                List<String> capacityCommand = Wrk.get(cpus.clientList(), 1, port, path, wrkConnections, settings.windowSeconds());
                WrkResult cap = Wrk.run(capacityCommand, settings.windowSeconds());
                // 2xx per second only
                double capacity = cap.seconds() <= 0 ? 0 : (cap.requests() - cap.non2xx()) / cap.seconds();
                rec.put("startup", running.startupLines());
                rec.put("capacityCommand", String.join(" ", capacityCommand));
                out.printf(Locale.ROOT, "  capacity %.0f req/s (wrk, %d connections, %d errors, %d non-2xx)%n", capacity,
                        wrkConnections, cap.socketErrors(), cap.non2xx());
                if (capacity < 10) {
                    out.println("  capacity too low to measure overload; skipped");
                    continue;
                }
                int connections = Math.max(256, 2 * limit);
                for (int i = 0; i < FACTORS.size(); i++) {
                    double f = FACTORS.get(i);
                    String phase = i == FACTORS.size() - 1 ? "recovery" : "load";
                    Row r = offer(c, phase, f, capacity, port, path, connections, running.pid());
                    rows.add(r);
                    out.printf(Locale.ROOT, "  %-8s %.1fx = %6d req/s: goodput %7.0f/s, shed %5.1f %%, served p50 %7.2f p99 %7.2f ms, "
                                    + "503 p99 %6.2f ms, errors %d%s%n", phase, f, r.rate(), r.goodputRps(), r.shedPercent(),
                            r.p50Ms(), r.p99Ms(), r.shedP99Ms(), r.errors() + r.incomplete(),
                            r.behindSchedule() ? "  GENERATOR BEHIND SCHEDULE" : "");
                }
            } catch (RuntimeException e) {
                out.println("FAILED " + c.name() + ": " + e.getMessage());
            }
        }
        Map<String, Object> conf = new LinkedHashMap<>();
        conf.put("serverCpus", cpus.serverList());
        conf.put("loadGeneratorCpus", cpus.clientList());
        conf.put("workerLoops", loops);
        conf.put("path", path);
        conf.put("factors", FACTORS);
        conf.put("tightLimitPerLoop", TIGHT_LIMIT);
        conf.put("windowSeconds", settings.windowSeconds());
        conf.put("warmupSeconds", settings.warmupSeconds());
        conf.put("capacity", "2xx per second of wrk -t1 closed loop on the same path after the warm-up, with min(64, "
                + "concurrency limit) connections");
        conf.put("connections", "max(256, 2 x concurrency limit x loops): the server, not the generator, must be the queue");
        conf.put("latency", "from each request's intended send time (coordinated-omission corrected), HdrHistogram, 3 digits");
        conf.put("jvmFlags", TargetCatalog.JVM_FLAGS);
        Result result = new Result(settings.quick() ? "overload-quick" : "overload", settings.quick(), started,
                Instant.now().toString(), fingerprint, preflight, conf, targets, rows);
        Path json = ResultFile.write(settings.outDir(), result.suite(), result, page(result));
        out.println();
        out.print(markdown(rows));
        return json;
    }

    /** The per-loop limit the server reported at startup ("concurrency N per loop"); 1024 if it did not say. */
    static int defaultLimit(RunningTarget running) {
        for (String line : running.startupLines()) {
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("concurrency (\\d+) per loop").matcher(line);
            if (m.find()) return Integer.parseInt(m.group(1));
        }
        return 1024;
    }

    private Row offer(Config c, String phase, double factor, double capacity, int port, String path, int connections, long pid) {
        int rate = (int) Math.max(1, Math.round(factor * capacity));
        try {
            CpuTimes before = CpuTimes.now();
            long ticks0 = ProcessCpu.ticks(pid);
            OpenLoopGenerator.Result r = new OpenLoopGenerator("127.0.0.1", port, path, rate, connections,
                    settings.windowSeconds() * 1_000L, 10_000).run();
            long ticks1 = ProcessCpu.ticks(pid);
            double steal = CpuTimes.now().stealPercentSince(before);
            double seconds = settings.windowSeconds();
            return new Row(c.name(), phase, factor, capacity, rate, connections, settings.windowSeconds(), r.sent(), r.count(),
                    r.shed(), r.errors(), r.incomplete(), r.count() / seconds, r.sent() == 0 ? 0 : 100.0 * r.shed() / r.sent(),
                    ms(r.p50Micros()), ms(r.p99Micros()), ms(r.maxMicros()), ms(r.shedP99Micros()), r.queuedSends(),
                    r.behindSchedule(), 100 * ProcessCpu.micros(ticks1 - ticks0) / (seconds * 1e6), steal);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static double ms(long micros) {
        return Math.round(micros / 10.0) / 100.0;
    }

    static String page(Result r) {
        Map<String, Object> c = r.configuration();
        return "# Tidemill bench, overload suite" + (r.quick() ? " (quick)" : "") + ", " + r.startedUtc() + "\n\n"
                + "`GET " + c.get("path") + "` (a handler spinning " + COST_MICROS + " us of CPU), " + c.get("workerLoops")
                + " worker loop(s) on server CPUs " + c.get("serverCpus") + ", generator on CPUs " + c.get("loadGeneratorCpus")
                + ". Capacity: " + c.get("capacity") + ". Then " + c.get("windowSeconds") + " s open-loop at each multiple of it; "
                + "the last 0.5x row follows the 3x row (recovery). Served latency counts 2xx only, from intended send times.\n\n"
                + markdown(r.rows());
    }

    /**
     * @param rows the measurements
     * @return the Markdown table
     */
    public static String markdown(List<Row> rows) {
        StringBuilder b = new StringBuilder("| configuration | offered | req/s offered | goodput req/s | shed (503) | served p50 ms "
                + "| served p99 ms | served max ms | 503 p99 ms | errors | server CPU | notes |\n"
                + "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
        for (Row r : rows) {
            List<String> notes = new ArrayList<>();
            if (r.behindSchedule()) notes.add("generator behind schedule");
            if (r.queuedSends() > 0) notes.add(String.format(Locale.ROOT, "%.1f %% waited for a connection",
                    r.sent() == 0 ? 0.0 : 100.0 * r.queuedSends() / r.sent()));
            if (r.stealPercent() > Preflight.MAX_STEAL_PERCENT) notes.add(String.format(Locale.ROOT, "steal %.1f %%", r.stealPercent()));
            b.append(String.format(Locale.ROOT, "| %s | %s%.1fx of %,.0f | %,d | %,.0f | %.1f %% | %.2f | %.2f | %.2f | %s | %d | %.0f %% | %s |%n",
                    r.configuration(), r.phase().equals("recovery") ? "after 3x: " : "", r.factor(), r.capacityRps(), r.rate(),
                    r.goodputRps(), r.shedPercent(), r.p50Ms(), r.p99Ms(), r.maxMs(), r.shed() == 0 ? "-" : String.format(Locale.ROOT, "%.2f", r.shedP99Ms()),
                    r.errors() + r.incomplete(), r.serverCpuPercent(), String.join("; ", notes)));
        }
        return b.toString();
    }

}
