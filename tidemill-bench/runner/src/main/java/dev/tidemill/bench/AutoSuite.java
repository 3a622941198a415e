package dev.tidemill.bench;

import static dev.tidemill.bench.Args.value;

import dev.tidemill.bench.targets.TidemillAutoApp;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code ./tidemill bench auto [--quick] [--rounds N] [--duration S] [--warmup S]}: what
 * {@code ExecutionMode.AUTO} is worth, side by side in one run.
 *
 * <ul>
 *   <li>Mixed: {@link TidemillAutoApp}'s three routes (a constant, 200 us of CPU, a 5 ms sleep), which
 *       one wrk sends in a fixed rotation (8, 1 and 1 in 10), so that a route a mode starves holds
 *       the connections and slows the whole mix, as it would a real client's; the server on the
 *       server CPUs with one I/O thread and two worker
 *       loops, in each configuration of {@link #CONFIGS}: every single mode for the whole app,
 *       hand-picked assignments, and AUTO. A fresh server per configuration and round, warmed up
 *       with the same load, then one window; the configurations rotate each round. Throughput is
 *       the mix's 2xx answers per second; ratios are taken within a round.</li>
 *   <li>Overhead: one server in IO mode; plaintext in IO, its twin in IO (the A/A pair) and the same
 *       handler in AUTO, warmed until AUTO has put it on IO; then rounds of one window each, the order
 *       rotated; server CPU per request of AUTO over IO, against the twin's.</li>
 * </ul>
 */
public final class AutoSuite {
    /**
     * A configuration of the mixed app.
     *
     * @param name its name in the tables
     * @param appMode TIDEMILL_MODE
     * @param routeModes the mixed routes' modes (trivial, cpu, block), or empty for the app's
     */
    record Config(String name, String appMode, String routeModes) {}

    /** Every single mode for the whole app, three hand-picked assignments, AUTO. */
    static final List<Config> CONFIGS = List.of(
            new Config("io", "io", ""), new Config("loop", "loop", ""), new Config("virtual", "virtual", ""),
            new Config("hand io/loop/virtual", "loop", "io,loop,virtual"),
            new Config("hand io/virtual/virtual", "loop", "io,virtual,virtual"),
            new Config("hand loop/loop/virtual", "loop", "loop,loop,virtual"),
            new Config("auto", "auto", ""));
    /** The mixed load: each route and its share of the requests, which one wrk sends in this rotation. */
    static final Map<String, Integer> MIXED = orderedLoad();
    /** The mixed load's connections (one wrk thread). */
    static final int MIXED_CONNECTIONS = 64;
    /** Worker loops in every configuration. */
    static final int WORKER_LOOPS = 2;
    /** The overhead part's cases, in the first round's order. */
    static final List<String> OVERHEAD = List.of(TidemillAutoApp.PLAINTEXT, TidemillAutoApp.AUTO_PLAINTEXT, TidemillAutoApp.TWIN);

    private static Map<String, Integer> orderedLoad() {
        Map<String, Integer> m = new LinkedHashMap<>();
        m.put(TidemillAutoApp.TRIVIAL, 8);
        m.put(TidemillAutoApp.CPU, 1);
        m.put(TidemillAutoApp.BLOCK, 1);
        return java.util.Collections.unmodifiableMap(m);
    }

    /** @return a wrk script that sends the mixed routes in a fixed rotation, each as often as its share */
    static String mixScript() {
        StringBuilder paths = new StringBuilder();
        MIXED.forEach((path, share) -> {
            for (int i = 0; i < share; i++) paths.append(paths.isEmpty() ? "" : ", ").append('"').append(path).append('"');
        });
        return "-- the mixed load of ./tidemill bench auto: one rotation over the routes, each as often as its share\n"
                + "local paths = {" + paths + "}\nlocal i = 0\n"
                + "request = function()\n  i = i % #paths + 1\n  return wrk.format(\"GET\", paths[i])\nend\n";
    }

    /**
     * The options.
     *
     * @param quick one round, short windows
     * @param rounds rounds of each part
     * @param durationSeconds each window
     * @param warmupSeconds warm-up per server (mixed) or per case (overhead)
     * @param outDir where results go
     */
    record Settings(boolean quick, int rounds, int durationSeconds, int warmupSeconds, Path outDir) {
        static Settings parse(List<String> args) {
            boolean quick = args.contains("--quick");
            // AUTO settles in 10 to 15 s here (the JIT, then 10,000 calls before IO): every configuration gets the same warm-up
            int rounds = quick ? 1 : 3, duration = quick ? 5 : 10, warmup = quick ? 12 : 20;
            Path out = Path.of("bench", "results");
            for (int i = 0; i < args.size(); i++) {
                String a = args.get(i);
                switch (a) {
                    case "--quick" -> { }
                    case "--rounds" -> rounds = Integer.parseInt(value(args, ++i, a));
                    case "--duration" -> duration = Integer.parseInt(value(args, ++i, a));
                    case "--warmup" -> warmup = Integer.parseInt(value(args, ++i, a));
                    case "--out" -> out = Path.of(value(args, ++i, a));
                    default -> throw new IllegalArgumentException("unknown option " + a + " (auto takes --quick --rounds N --duration S "
                            + "--warmup S --out DIR)");
                }
            }
            if (rounds < 1 || duration < 1 || warmup < 0) throw new IllegalArgumentException("rounds and duration must be >= 1");
            return new Settings(quick, rounds, duration, warmup, out);
        }
    }

    /**
     * One mixed window.
     *
     * @param round the round
     * @param configuration the configuration
     * @param perSecond 2xx answers of the mix per second (wrk)
     * @param p50Ms the mix's median latency (wrk)
     * @param p99Ms its 99th percentile
     * @param errors socket errors and non-2xx answers
     * @param routeCalls each mixed route's calls in the window, per second (the server's count)
     * @param serverCpuUsPerRequest server CPU over the window per 2xx answer
     * @param modes where each route ran at the window's end, and why (AUTO's routes move)
     */
    record MixedRow(int round, String configuration, double perSecond, double p50Ms, double p99Ms, long errors,
                    Map<String, Double> routeCalls, double serverCpuUsPerRequest, List<Map<String, Object>> modes) {}

    /**
     * The result file.
     *
     * @param suite {@code auto} or {@code auto-quick}
     * @param quick whether short
     * @param startedUtc start
     * @param finishedUtc end
     * @param command the command
     * @param fingerprint the host
     * @param preflight its checks
     * @param configuration what ran
     * @param mixed every mixed window
     * @param overhead every overhead window
     * @param overheadModes the overhead server's routes after its warm-up
     */
    record Result(String suite, boolean quick, String startedUtc, String finishedUtc, String command, Map<String, Object> fingerprint,
                  List<Check> preflight, Map<String, Object> configuration, List<MixedRow> mixed, List<AuthSuite.Row> overhead,
                  List<Map<String, Object>> overheadModes) {}

    private final Settings settings;
    private final PrintStream out;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    AutoSuite(Settings settings, PrintStream out) {
        this.settings = settings;
        this.out = out;
    }

    /** @return the result file */
    Path run(String command) {
        CpuSets cpus = CpuSets.derive();
        String started = Instant.now().toString();
        List<Check> preflight = Preflight.run(cpus, 128);
        Preflight.requireLoadGenerator(preflight);
        preflight.stream().filter(Check::failed).forEach(c -> out.println("preflight FAIL " + c.name() + ": " + c.reading()));
        Map<String, Object> fingerprint = Fingerprint.take(cpus);
        Path work;
        try {
            work = Files.createTempDirectory("tidemill-bench-auto-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        out.printf(Locale.ROOT, "auto: %d configurations x %d round(s) of %d s (+%d s warm-up), then the overhead check%n",
                CONFIGS.size(), settings.rounds(), settings.durationSeconds(), settings.warmupSeconds());
        List<MixedRow> mixed = new ArrayList<>();
        for (int round = 1; round <= settings.rounds(); round++) {
            for (Config c : rotated(CONFIGS, round)) {
                MixedRow r = mixed(c, round, cpus, work);
                mixed.add(r);
                out.printf(Locale.ROOT, "  round %d %-24s %,9.0f req/s  p99 %8.2f ms  %s%n", round, c.name(), r.perSecond(), r.p99Ms(),
                        r.routeCalls());
            }
        }
        List<Map<String, Object>> overheadModes = new ArrayList<>();
        List<AuthSuite.Row> overhead = overhead(cpus, work, overheadModes);
        Result result = new Result(settings.quick() ? "auto-quick" : "auto", settings.quick(), started, Instant.now().toString(), command,
                fingerprint, preflight, configuration(cpus), mixed, overhead, overheadModes);
        String markdown = AutoReport.markdown(result);
        Path json = ResultFile.write(settings.outDir(), result.suite(), result, markdown);
        out.println();
        out.print(markdown);
        return json;
    }

    private MixedRow mixed(Config c, int round, CpuSets cpus, Path work) {
        Target t = target(c.appMode(), c.routeModes());
        Path dir = work.resolve(c.name().replaceAll("[^a-z]+", "-") + "-" + round);
        try (RunningTarget running = RunningTarget.start(t, cpus, dir)) {
            Path script = dir.resolve("mixed.lua");
            Files.writeString(script, mixScript());
            if (settings.warmupSeconds() > 0) load(running.port(), cpus, script, settings.warmupSeconds());
            List<Map<String, Object>> before = modes(running.port());
            long t0 = TlsSuite.treeTicks(running.pid());
            WrkResult w = load(running.port(), cpus, script, settings.durationSeconds());
            long t1 = TlsSuite.treeTicks(running.pid());
            List<Map<String, Object>> after = modes(running.port());
            Map<String, Double> calls = new LinkedHashMap<>();
            for (String path : MIXED.keySet()) calls.put(path, (count(after, path) - count(before, path)) / w.seconds());
            long ok = w.requests() - w.non2xx();
            return new MixedRow(round, c.name(), ok / w.seconds(), w.p50Us() / 1e3, w.p99Us() / 1e3, w.socketErrors() + w.non2xx(), calls,
                    ok > 0 ? ProcessCpu.micros(t1 - t0) / ok : Double.NaN, after);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static long count(List<Map<String, Object>> modes, String path) {
        return modes.stream().filter(m -> path.equals(m.get("route"))).map(m -> ((Number) m.get("calls")).longValue()).findFirst().orElse(0L);
    }

    /** Runs the mixed load for {@code seconds}. @return wrk's result */
    private static WrkResult load(int port, CpuSets cpus, Path script, int seconds) {
        return Wrk.run(List.of("taskset", "-c", cpus.clientList(), "wrk", "-t1", "-c" + MIXED_CONNECTIONS, "-d" + seconds + "s", "--latency",
                "--timeout", "8s", "-s", script.toString(), "http://127.0.0.1:" + port), seconds);
    }

    private List<AuthSuite.Row> overhead(CpuSets cpus, Path work, List<Map<String, Object>> modes) {
        List<AuthSuite.Row> rows = new ArrayList<>();
        try (RunningTarget running = RunningTarget.start(target("io", ""), cpus, work.resolve("overhead"))) {
            for (int i = 0; i < 6 && !onIo(modes(running.port())); i++) { // AUTO promotes after 10,000 calls: a warm-up has many more
                for (String path : OVERHEAD) AuthSuite.measure(wrk(cpus, running.port(), path), Math.max(1, settings.warmupSeconds() / 3),
                        running.pid(), cpus, 0, "warmup", path);
            }
            modes.addAll(modes(running.port()));
            if (!onIo(modes)) out.println("  overhead: " + TidemillAutoApp.AUTO_PLAINTEXT + " is not on IO after the warm-up: " + modes);
            int rounds = settings.quick() ? 1 : 5;
            for (int round = 1; round <= rounds; round++) {
                for (String path : rotated(OVERHEAD, round)) {
                    AuthSuite.Row r = AuthSuite.measure(wrk(cpus, running.port(), path), settings.durationSeconds(), running.pid(), cpus,
                            round, "tidemill-io", path);
                    rows.add(r);
                    out.printf(Locale.ROOT, "  overhead round %d %-22s %,9.0f req/s %6.2f us/req%s%n", round, path, r.requestsPerSec(),
                            r.serverCpuUsPerRequest(), r.clientBound() ? " (client-bound)" : "");
                }
            }
        }
        return rows;
    }

    private static boolean onIo(List<Map<String, Object>> modes) {
        return modes.stream().anyMatch(m -> TidemillAutoApp.AUTO_PLAINTEXT.equals(m.get("route")) && "IO".equals(m.get("current")));
    }

    private static List<String> wrk(CpuSets cpus, int port, String path) {
        return new ArrayList<>(List.of("taskset", "-c", cpus.clientList(), "wrk", "-t1", "-c64", "--latency", "--timeout", "8s",
                "http://127.0.0.1:" + port + path));
    }

    /** @return every route's mode, from the server */
    @SuppressWarnings("unchecked")
    private List<Map<String, Object>> modes(int port) {
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + TidemillAutoApp.MODES))
                    .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
            return tools.jackson.databind.json.JsonMapper.builder().build().readValue(r.body(), List.class);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** @return the server: the app's mode, the mixed routes' modes if given; one I/O thread per server CPU, two worker loops */
    static Target target(String appMode, String routeModes) {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return new Target("tidemill-" + appMode, "tidemill", true, false, (port, threads, dir) -> {
            List<String> argv = new ArrayList<>(TlsTargets.jvm(java, System.getProperty("java.class.path"), TidemillAutoApp.class.getName()));
            if (!routeModes.isEmpty()) argv.add(TidemillAutoApp.MODES_ARG + routeModes);
            return new Target.Command(argv, Map.of("TIDEMILL_MODE", appMode, "TIDEMILL_PORT", Integer.toString(port),
                    "TIDEMILL_IO_THREADS", Integer.toString(threads), "TIDEMILL_LOOPS", Integer.toString(WORKER_LOOPS)));
        });
    }

    static <T> List<T> rotated(List<T> list, int round) {
        List<T> order = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) order.add(list.get((i + round - 1) % list.size()));
        return order;
    }

    private Map<String, Object> configuration(CpuSets cpus) {
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("serverCpus", cpus.serverList());
        c.put("loadGeneratorCpus", cpus.clientList());
        c.put("workerLoops", WORKER_LOOPS);
        c.put("ioThreads", "one per server CPU");
        c.put("configurations", CONFIGS);
        c.put("mixedLoad", "wrk -t1 -c" + MIXED_CONNECTIONS + " --timeout 8s, one script that sends the routes in a fixed rotation: "
                + MIXED.entrySet().stream().map(e -> e.getValue() + " x " + e.getKey()).toList());
        c.put("mixedRoutes", Map.of(TidemillAutoApp.TRIVIAL, "a constant", TidemillAutoApp.CPU, TidemillAutoApp.CPU_MICROS + " us of CPU",
                TidemillAutoApp.BLOCK, "Thread.sleep(" + TidemillAutoApp.BLOCK_MILLIS + ")"));
        c.put("rounds", settings.rounds());
        c.put("durationSeconds", settings.durationSeconds());
        c.put("warmupSeconds", settings.warmupSeconds());
        c.put("overhead", "one server, TIDEMILL_MODE=io: " + OVERHEAD + " with wrk -t1 -c64, " + (settings.quick() ? 1 : 5)
                + " rounds, the order rotated; " + TidemillAutoApp.AUTO_PLAINTEXT + " is in AUTO");
        c.put("jvmFlags", TargetCatalog.JVM_FLAGS);
        return c;
    }
}
