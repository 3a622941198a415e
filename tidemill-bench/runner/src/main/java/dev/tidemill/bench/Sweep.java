package dev.tidemill.bench;

import static dev.tidemill.bench.Args.value;
import static dev.tidemill.bench.Args.words;

import dev.tidemill.bench.targets.TidemillApp;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * {@code ./tidemill bench sweep [--quick]}: the handler-cost sweep. Tidemill
 * only: handler CPU cost ({@code /cost?us=N}) x worker count (a ladder from the server CPU set) x
 * mode (LOOP, VIRTUAL, IO), plus a blocking ({@code /block?ms=2}) and an awaiting
 * ({@code /await?ms=2}) handler per mode and worker count. Every cell starts a fresh server pinned
 * to the server CPUs, verifies {@code /plaintext} and the cell's endpoint, warms up, and measures
 * one wrk window. Writes {@code <UTC>-sweep.json} (quick: {@code -sweep-quick}) with {@code .md}.
 */
public final class Sweep {
    /** Handler costs of a full sweep, microseconds. */
    static final List<Integer> COSTS = List.of(0, 10, 50, 100, 500);
    /** Handler costs of a quick sweep, microseconds. */
    static final List<Integer> QUICK_COSTS = List.of(0, 100);
    /** Modes, in column order. */
    static final List<String> MODES = List.of("loop", "virtual", "io");
    /** Sleep / await time of the blocking and awaiting handlers, milliseconds. */
    static final int WAIT_MS = 2;
    private static final double START_ESTIMATE_SECONDS = 2.5;

    /** A handler the sweep measures: its row label, request path and the prefix its body starts with. */
    record Handler(String label, String path, String bodyPrefix) {}

    private final Options options;
    private final List<Integer> costs;
    private final List<Integer> ladder;
    private final List<String> modes;
    private final int durationSeconds;
    private final int warmupSeconds;
    private final CpuSets cpus;
    private final PrintStream out;
    private final String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    private final String classPath = System.getProperty("java.class.path");
    private final Path work;

    private Sweep(Options options, List<Integer> costs, List<Integer> ladder, List<String> modes, int durationSeconds,
                  int warmupSeconds, CpuSets cpus, PrintStream out) {
        this.options = options;
        this.costs = costs;
        this.ladder = ladder;
        this.modes = modes;
        this.durationSeconds = durationSeconds;
        this.warmupSeconds = warmupSeconds;
        this.cpus = cpus;
        this.out = out;
        try {
            this.work = Files.createTempDirectory("tidemill-sweep-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Parses the arguments after {@code sweep}, runs the sweep and writes the result files.
     * Besides the common options ({@code --quick --strict --duration S --warmup S --connections N
     * --out DIR}) it takes {@code --costs a,b}, {@code --workers a,b} and {@code --modes a,b}.
     *
     * @param args the arguments after {@code sweep}
     * @param out progress
     * @return the JSON result file
     */
    public static Path run(List<String> args, PrintStream out) {
        List<String> rest = new ArrayList<>();
        List<Integer> costs = null;
        List<Integer> workers = null;
        List<String> modes = MODES;
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            switch (a) {
                case "--costs" -> costs = ints(value(args, ++i, a), 0);
                case "--workers" -> workers = ints(value(args, ++i, a), 1);
                case "--modes" -> modes = words(value(args, ++i, a));
                default -> rest.add(a);
            }
        }
        for (String m : modes) {
            if (!MODES.contains(m)) throw new IllegalArgumentException("unknown mode " + m + "; known: " + String.join(", ", MODES));
        }
        Options options = Options.parse(rest);
        CpuSets cpus = CpuSets.derive();
        int serverCpus = cpus.server().size();
        if (costs == null) costs = options.quick() ? QUICK_COSTS : COSTS;
        if (workers == null) workers = options.quick() ? List.of(serverCpus) : ladder(serverCpus);
        // the common defaults (quick 3 s / 6 s, full 10 s / 60 s) are for long-lived targets; a cell is short
        int duration = rest.contains("--duration") ? options.durationSeconds() : options.quick() ? 2 : 10;
        int warmup = rest.contains("--warmup") ? options.warmupSeconds() : options.quick() ? 2 : 10;
        BenchMain.keepOffServerCpus(cpus, out);
        Sweep sweep = new Sweep(options, costs, workers, modes, duration, warmup, cpus, out);
        SweepResult result = sweep.measureAll();
        Path json = write(result, options.outDir());
        out.println();
        out.print(SweepTable.of(result.cells()));
        return json;
    }

    /**
     * The worker-count ladder: powers of two below twice the server CPUs, plus the CPU count itself
     * and twice it (1 CPU: 1, 2; 2 CPUs: 1, 2, 4; 3 CPUs: 1, 2, 3, 4, 6).
     *
     * @param serverCpus CPUs in the server set
     * @return the ladder, ascending
     */
    static List<Integer> ladder(int serverCpus) {
        int top = 2 * Math.max(1, serverCpus);
        Set<Integer> s = new TreeSet<>();
        for (int n = 1; n < top; n *= 2) s.add(n);
        s.add(Math.max(1, serverCpus));
        s.add(top);
        return List.copyOf(s);
    }

    /**
     * @param costs handler costs, microseconds
     * @return the handlers of one (mode, workers) column, in row order
     */
    static List<Handler> handlers(List<Integer> costs) {
        List<Handler> h = new ArrayList<>();
        for (int us : costs) h.add(new Handler("cost " + us + " us", "/cost?us=" + us, "spun"));
        h.add(new Handler("block " + WAIT_MS + " ms", "/block?ms=" + WAIT_MS, "blocked"));
        h.add(new Handler("await " + WAIT_MS + " ms", "/await?ms=" + WAIT_MS, "awaited"));
        return h;
    }

    private SweepResult measureAll() {
        String started = Instant.now().toString();
        List<Handler> handlers = handlers(costs);
        int cellCount = modes.size() * ladder.size() * handlers.size();
        out.println("tidemill bench sweep: " + (options.quick() ? "quick" : "full") + ", costs " + costs + " us, workers "
                + ladder + ", modes " + modes + ", " + cellCount + " cells, " + warmupSeconds + " s warm-up + "
                + durationSeconds + " s window each, server CPUs " + cpus.serverList() + ", load generator CPUs "
                + cpus.clientList());
        List<Check> preflight = Preflight.run(cpus, options.connections());
        Preflight.requireLoadGenerator(preflight);
        preflight.forEach(c -> out.printf("preflight %-18s %-7s %s%n", c.name(), c.verdict(), c.reading()));
        if (options.strict() && preflight.stream().anyMatch(Check::failed)) {
            throw new IllegalStateException("--strict: a preflight check failed; not measuring");
        }
        Map<String, Object> fingerprint = Fingerprint.take(cpus);
        List<SweepCell> cells = new ArrayList<>();
        long t0 = System.nanoTime();
        double perCell = START_ESTIMATE_SECONDS + warmupSeconds + durationSeconds;
        int n = 0;
        for (String mode : modes) {
            for (int workers : ladder) {
                for (Handler h : handlers) {
                    n++;
                    double elapsed = (System.nanoTime() - t0) / 1e9;
                    out.printf("[%s elapsed, ~%s left] cell %d/%d  %-7s x%-2d %s%n", Progress.clock(elapsed),
                            Progress.clock(Math.max(0, (cellCount - n + 1) * perCell)), n, cellCount, mode, workers, h.label());
                    cells.add(cell(mode, workers, h, n));
                }
            }
        }
        return new SweepResult(options.quick() ? "sweep-quick" : "sweep", started, Instant.now().toString(), fingerprint,
                preflight, configuration(handlers), cells);
    }

    private Target target(String mode, int workers) {
        int serverCpus = cpus.server().size();
        return new Target("tidemill-" + mode, "tidemill", true, false, (port, threads, dir) -> {
            List<String> argv = new ArrayList<>();
            argv.add(java);
            argv.addAll(TargetCatalog.JVM_FLAGS);
            if (mode.equals("virtual")) argv.add("-Djdk.virtualThreadScheduler.parallelism=" + workers);
            argv.addAll(List.of("-cp", classPath, TidemillApp.class.getName()));
            Map<String, String> env = new LinkedHashMap<>();
            env.put("TIDEMILL_MODE", mode);
            env.put("TIDEMILL_PORT", Integer.toString(port));
            env.put("TIDEMILL_IO_THREADS", Integer.toString(mode.equals("io") ? workers : serverCpus));
            env.put("TIDEMILL_LOOPS", Integer.toString(mode.equals("loop") ? workers : serverCpus));
            return new Target.Command(argv, env);
        });
    }

    private SweepCell cell(String mode, int workers, Handler h, int n) {
        Target t = target(mode, workers);
        Path dir = work.resolve("cell-" + n);
        double idle = Preflight.serverBusyPercent(cpus, 300);
        double load = Host.loadPerCpu();
        // back to back on 2 CPUs the 1-minute load never falls below 1, so only the idle sample decides
        boolean contended = idle > Preflight.MAX_IDLE_BUSY_PERCENT;
        try (RunningTarget running = RunningTarget.start(t, cpus, dir)) {
            List<String> problems = new ArrayList<>(Verifier.check(running.port(), true));
            String answer = answers(running.port(), h);
            if (answer != null) problems.add(answer);
            Map<String, String> env = t.launch().at(running.port(), cpus.server().size(), dir).env();
            if (!problems.isEmpty()) {
                out.println("  REFUSED: " + String.join("; ", problems));
                return SweepCell.failed(h.label(), h.path(), mode, workers, problems);
            }
            List<String> cmd = wrkCommand(running.port(), h.path(), options.connections(), durationSeconds);
            if (warmupSeconds > 0) {
                try {
                    Wrk.run(wrkCommand(running.port(), h.path(), options.connections(), warmupSeconds), warmupSeconds);
                } catch (RuntimeException e) {
                    out.println("  warm-up failed: " + e.getMessage());
                }
            }
            CpuTimes before = CpuTimes.now();
            long ticks0 = ProcessCpu.ticks(running.pid());
            WrkResult r = Wrk.run(cmd, durationSeconds);
            long ticks1 = ProcessCpu.ticks(running.pid());
            CpuTimes after = CpuTimes.now();
            if (r.requests() == 0) {
                out.println("  FAILED: no request completed in " + durationSeconds + " s");
                return SweepCell.failed(h.label(), h.path(), mode, workers,
                        List.of("no request completed in " + durationSeconds + " s (" + r.socketErrors() + " socket errors)"));
            }
            double cpuUs = ProcessCpu.micros(ticks1 - ticks0);
            double client = after.busyPercentSince(before, Set.copyOf(cpus.client()));
            SweepCell c = new SweepCell(h.label(), h.path(), mode, workers, options.connections(), r.requests(), r.seconds(),
                    r.requestsPerSec(), r.p50Us(), r.p99Us(), r.socketErrors(), r.non2xx(),
                    r.requests() == 0 ? Double.NaN : cpuUs / r.requests(), 100 * cpuUs / (r.seconds() * 1e6), client,
                    client >= Suite.CLIENT_BOUND_PERCENT, after.stealPercentSince(before), idle, load, contended,
                    running.commandLine(), env,
                    running.startupLines(), String.join(" ", cmd), List.of());
            out.printf(Locale.ROOT, "  %10.0f req/s  p50 %s  p99 %s  cpu %.1f us/req  wrk cpu %.0f %%%s%n", c.requestsPerSec(),
                    Suite.latency(c.p50Us()), Suite.latency(c.p99Us()), c.serverCpuUsPerRequest(), c.clientCpuPercent(),
                    (c.hasErrors() ? "  ERRORS " + c.socketErrors() + " socket, " + c.non2xx() + " non-2xx" : "")
                            + (contended ? String.format(Locale.ROOT, "  CONTENDED (server CPUs %.0f %% busy before start, load %.2f/CPU)", idle, load) : ""));
            return c;
        } catch (RuntimeException | IOException e) {
            out.println("  FAILED: " + e.getMessage());
            return SweepCell.failed(h.label(), h.path(), mode, workers, List.of("failed: " + e.getMessage()));
        }
    }

    /** @return what is wrong with the handler's answer, or null when it answers 200 with the right body */
    static String answers(int port, Handler h) {
        try (HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build()) {
            HttpResponse<String> r = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + h.path()))
                    .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200 || !r.body().startsWith(h.bodyPrefix())) {
                return "GET " + h.path() + ": status " + r.statusCode() + ", body '" + r.body() + "', expected 200 '"
                        + h.bodyPrefix() + "...'";
            }
            return null;
        } catch (IOException e) {
            return "GET " + h.path() + ": " + e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "GET " + h.path() + ": interrupted";
        }
    }

    private List<String> wrkCommand(int port, String path, int connections, int seconds) {
        return Wrk.get(cpus.clientList(), options.wrkThreads(), port, path, connections, seconds);
    }

    private Map<String, Object> configuration(List<Handler> handlers) {
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("quick", options.quick());
        c.put("strict", options.strict());
        c.put("costsUs", costs);
        c.put("workers", ladder);
        c.put("workersMeaning", "loop: TIDEMILL_LOOPS; virtual: -Djdk.virtualThreadScheduler.parallelism; io: TIDEMILL_IO_THREADS");
        c.put("modes", modes);
        c.put("handlers", handlers.stream().map(h -> h.label() + ": GET " + h.path()).toList());
        c.put("durationSeconds", durationSeconds);
        c.put("warmupSeconds", warmupSeconds);
        c.put("connections", options.connections());
        c.put("wrkThreads", options.wrkThreads());
        c.put("serverCpus", cpus.serverList());
        c.put("loadGeneratorCpus", cpus.clientList());
        c.put("jvmFlags", TargetCatalog.JVM_FLAGS);
        c.put("assignment", "framework default (TIDEMILL_ASSIGNMENT unset)");
        c.put("clientBoundAtPercent", Suite.CLIENT_BOUND_PERCENT);
        return c;
    }

    /**
     * Writes {@code <UTC>-<suite>.json} and the Markdown next to it.
     *
     * @param result the sweep
     * @param dir the results directory (created if missing)
     * @return the JSON file
     */
    static Path write(SweepResult result, Path dir) {
        return ResultFile.write(dir, result.suite(), result, "# Tidemill bench, handler-cost sweep (" + result.suite() + "), "
                + result.startedUtc() + "\n\nServer CPUs " + result.configuration().get("serverCpus")
                + ", load generator CPUs " + result.configuration().get("loadGeneratorCpus") + ", "
                + result.configuration().get("connections") + " connections, "
                + result.configuration().get("durationSeconds") + " s window after "
                + result.configuration().get("warmupSeconds") + " s warm-up.\n\n" + SweepTable.of(result.cells()));
    }



    private static List<Integer> ints(String v, int min) {
        List<Integer> l = words(v).stream().map(Integer::parseInt).toList();
        if (l.isEmpty() || l.stream().anyMatch(x -> x < min)) throw new IllegalArgumentException("bad list " + v + " (each >= " + min + ")");
        return l;
    }
}
