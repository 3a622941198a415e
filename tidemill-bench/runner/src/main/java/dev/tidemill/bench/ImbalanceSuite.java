package dev.tidemill.bench;

import static dev.tidemill.bench.Args.value;

import dev.tidemill.bench.loadgen.OpenLoopGenerator;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code ./tidemill bench imbalance [--quick]}: Tidemill with (at least) two worker loops in LOOP
 * least-loaded, LOOP round-robin, VIRTUAL and AUTO mode; for 0-3 "holders" (client threads calling
 * {@code /hold?ms=50} back to back, so that many handlers each hold a loop 50 ms at a time) the
 * {@link OpenLoopGenerator} sends {@code /plaintext} at a fixed moderate rate and records the
 * latency of those trivial requests from their intended send times. First the same generator measures
 * nginx ({@code return 200} on {@code /plaintext}, one worker on the server CPUs) with no holder: the
 * {@value #FLOOR} row, what this generator and host add to any server's latency, below which no
 * configuration's figure can be read. Writes {@code <UTC>-imbalance.json} and {@code .md}.
 */
public final class ImbalanceSuite {
    /** How long each holder's handler spins its loop. */
    public static final int HOLD_MILLIS = 50;
    /** Holder counts measured. */
    public static final List<Integer> HOLDERS = List.of(0, 1, 2, 3);
    /** The configuration name of the floor row: nginx, no holders (it has no {@code /hold}). */
    public static final String FLOOR = "floor: nginx, same generator";

    /**
     * One configuration of Tidemill.
     *
     * @param name its name in the table
     * @param env its TIDEMILL_MODE / TIDEMILL_ASSIGNMENT
     */
    public record Config(String name, Map<String, String> env) {}

    static final List<Config> CONFIGS = List.of(
            new Config("loop least-loaded", Map.of("TIDEMILL_MODE", "loop", "TIDEMILL_ASSIGNMENT", "least_loaded")),
            new Config("loop round-robin", Map.of("TIDEMILL_MODE", "loop", "TIDEMILL_ASSIGNMENT", "round_robin")),
            new Config("virtual", Map.of("TIDEMILL_MODE", "virtual")),
            // AUTO puts /plaintext on the I/O thread and /hold on a worker loop during the warm-up (which runs a holder)
            new Config("auto", Map.of("TIDEMILL_MODE", "auto")));

    /**
     * The options of this suite.
     *
     * @param quick shorter windows ({@code time ./tidemill bench imbalance [--quick]} says how long each takes here)
     * @param rate requests per second of the trivial load
     * @param connections its connections (64 by default: with 8, requests stuck 50 ms behind a hold starve the
     *     connections and the client, not the server, becomes the queue; {@code queuedSends} shows it)
     * @param windowSeconds measurement window per (configuration, holders)
     * @param warmupSeconds warm-up per configuration
     * @param outDir where results go
     */
    public record Settings(boolean quick, int rate, int connections, int windowSeconds, int warmupSeconds, Path outDir) {
        /**
         * @param args the arguments after {@code imbalance}
         * @return the settings
         */
        public static Settings parse(List<String> args) {
            boolean quick = args.contains("--quick");
            int rate = 2_000, conns = 64, window = quick ? 5 : 20, warmup = quick ? 4 : 20;
            Path out = Path.of("bench", "results");
            for (int i = 0; i < args.size(); i++) {
                String a = args.get(i);
                switch (a) {
                    case "--quick" -> { }
                    case "--rate" -> rate = Integer.parseInt(value(args, ++i, a));
                    case "--connections" -> conns = Integer.parseInt(value(args, ++i, a));
                    case "--duration" -> window = Integer.parseInt(value(args, ++i, a));
                    case "--warmup" -> warmup = Integer.parseInt(value(args, ++i, a));
                    case "--out" -> out = Path.of(value(args, ++i, a));
                    default -> throw new IllegalArgumentException("unknown option " + a + " (imbalance takes --quick --rate N "
                            + "--connections N --duration S --warmup S --out DIR)");
                }
            }
            if (rate < 1 || conns < 1 || window < 1 || warmup < 0) throw new IllegalArgumentException("rate, connections, duration must be >= 1");
            return new Settings(quick, rate, conns, window, warmup, out);
        }

    }

    /**
     * One measured cell. Latencies in milliseconds from intended send times.
     *
     * @param configuration the configuration
     * @param holders concurrent holders
     * @param rate requests per second asked for
     * @param connections connections
     * @param windowSeconds window
     * @param sent requests released
     * @param count 2xx answers (histogram count)
     * @param errors errors
     * @param incomplete unanswered at the end of the drain time
     * @param p50Ms median
     * @param p90Ms 90th percentile
     * @param p99Ms 99th percentile
     * @param maxMs maximum
     * @param maxScheduleLagMs the generator's worst lag behind its schedule
     * @param lateSends releases later than 1 ms
     * @param queuedSends requests that waited for a free connection
     * @param behindSchedule the generator fell behind: the latencies partly measure the client
     * @param holdsCompleted {@code /hold} calls the holders completed in the window
     * @param stealPercent hypervisor steal over the window (percent of CPU time); on a VM it is the
     *     usual reason the generator falls behind
     */
    public record Row(String configuration, int holders, int rate, int connections, int windowSeconds, long sent, long count,
                      long errors, long incomplete, double p50Ms, double p90Ms, double p99Ms, double maxMs,
                      double maxScheduleLagMs, long lateSends, long queuedSends, boolean behindSchedule, long holdsCompleted,
                      double stealPercent) {}

    /**
     * What the suite wrote.
     *
     * @param suite {@code imbalance}
     * @param quick whether it was a quick run
     * @param startedUtc start
     * @param finishedUtc end
     * @param fingerprint host and software
     * @param preflight checks
     * @param configuration settings, CPU sets, loops
     * @param targets each configuration's command line, environment and startup lines
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
    public ImbalanceSuite(Settings settings, PrintStream out) {
        this.settings = settings;
        this.out = out;
    }

    /**
     * Runs every configuration and holder count, writes the files.
     *
     * @return the JSON file
     */
    public Path run() {
        String started = Instant.now().toString();
        CpuSets cpus = CpuSets.derive();
        BenchMain.keepOffServerCpus(cpus, out);
        int loops = Math.max(2, cpus.server().size());
        out.printf("imbalance: server CPUs %s, load generator CPUs %s, %d worker loops, %d req/s over %d connections, "
                        + "%d s windows%n", cpus.serverList(), cpus.clientList(), loops, settings.rate(), settings.connections(),
                settings.windowSeconds());
        List<Check> preflight = Preflight.run(cpus, settings.connections() + HOLDERS.getLast());
        preflight.stream().filter(Check::failed).forEach(c -> out.println("preflight FAIL " + c.name() + ": " + c.reading()));
        Map<String, Object> fingerprint = Fingerprint.take(cpus);
        List<Row> rows = new ArrayList<>();
        List<Map<String, Object>> targets = new ArrayList<>();
        Path work;
        try {
            work = Files.createTempDirectory("tidemill-bench-imbalance-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        rows.add(floor(cpus, work.resolve("floor"), targets));
        for (Config c : CONFIGS) {
            Target t = target(c, loops, cpus.server().size());
            try (RunningTarget running = RunningTarget.start(t, cpus, work.resolve(c.name().replace(' ', '-')))) {
                Map<String, Object> rec = new LinkedHashMap<>();
                rec.put("configuration", c.name());
                rec.put("commandLine", running.commandLine());
                rec.put("env", t.launch().at(running.port(), cpus.server().size(), work).env());
                out.printf("%s: started (pid %d), warming up %d s%n", c.name(), running.pid(), settings.warmupSeconds());
                warmUp(running.port(), 1);
                rec.put("startup", running.startupLines());
                targets.add(rec);
                for (int holders : HOLDERS) {
                    Row r = measure(c.name(), running.port(), holders);
                    rows.add(r);
                    print(r);
                }
            }
        }
        Map<String, Object> conf = new LinkedHashMap<>();
        conf.put("serverCpus", cpus.serverList());
        conf.put("loadGeneratorCpus", cpus.clientList());
        conf.put("workerLoops", loops);
        conf.put("ioThreads", cpus.server().size());
        conf.put("path", "/plaintext");
        conf.put("rate", settings.rate());
        conf.put("connections", settings.connections());
        conf.put("windowSeconds", settings.windowSeconds());
        conf.put("warmupSeconds", settings.warmupSeconds());
        conf.put("holdMillis", HOLD_MILLIS);
        conf.put("holders", HOLDERS);
        conf.put("latency", "from each request's intended send time (coordinated-omission corrected), HdrHistogram, 3 digits");
        conf.put("behindScheduleRule", "worst release lag > " + OpenLoopGenerator.MAX_LAG_NANOS / 1_000_000
                + " ms or > 1 % of releases late by > 1 ms");
        conf.put("jvmFlags", TargetCatalog.JVM_FLAGS);
        Result result = new Result("imbalance", settings.quick(), started, Instant.now().toString(), fingerprint, preflight,
                conf, targets, rows);
        Path json = write(result, settings.outDir());
        out.println();
        out.print(markdown(rows));
        return json;
    }

    /**
     * The floor row: nginx on the server CPUs, warmed up and measured with no holder, as the configurations are.
     *
     * @param cpus the CPU sets
     * @param dir nginx's directory (fresh)
     * @param targets where its command line is recorded
     * @return the row
     * @throws IllegalStateException when nginx is not installed
     */
    Row floor(CpuSets cpus, Path dir, List<Map<String, Object>> targets) {
        Path nginx = Host.executable("nginx").orElseThrow(() -> new IllegalStateException("imbalance: missing nginx, the floor row's "
                + "server (Debian: nginx-light)"));
        try (RunningTarget running = RunningTarget.start(TargetCatalog.nginx(nginx), cpus, dir)) {
            targets.add(Map.of("configuration", FLOOR, "commandLine", running.commandLine()));
            out.printf("%s: started (pid %d), warming up %d s%n", FLOOR, running.pid(), settings.warmupSeconds());
            warmUp(running.port(), 0);
            Row r = measure(FLOOR, running.port(), 0);
            print(r);
            return r;
        }
    }

    /** Tidemill's bench app in one configuration, started like the catalogue's targets. */
    static Target target(Config c, int loops, int ioThreads) {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String cp = System.getProperty("java.class.path");
        return new Target("tidemill-" + c.name().replace(' ', '-'), "tidemill", true, false, (port, threads, dir) -> {
            List<String> argv = new ArrayList<>(List.of(java));
            argv.addAll(TargetCatalog.JVM_FLAGS);
            argv.addAll(List.of("-cp", cp, TidemillApp.class.getName()));
            Map<String, String> env = new LinkedHashMap<>(c.env());
            env.put("TIDEMILL_PORT", Integer.toString(port));
            env.put("TIDEMILL_IO_THREADS", Integer.toString(ioThreads));
            env.put("TIDEMILL_LOOPS", Integer.toString(loops));
            return new Target.Command(argv, env);
        });
    }

    private void print(Row r) {
        out.printf(Locale.ROOT, "  %-18s holders %d: p50 %7.2f  p90 %7.2f  p99 %7.2f  max %7.2f ms  (%d/%d ok, %d errors, %d holds)%s%n",
                r.configuration(), r.holders(), r.p50Ms(), r.p90Ms(), r.p99Ms(), r.maxMs(), r.count(), r.sent(), r.errors() + r.incomplete(),
                r.holdsCompleted(), r.behindSchedule() ? "  BEHIND SCHEDULE" : "");
    }

    /** The warm-up: the trivial load, with {@code holders} holders (one makes AUTO place {@code /hold} too; the floor's nginx has none). */
    private void warmUp(int port, int holders) {
        if (settings.warmupSeconds() == 0) return;
        try (Holders h = new Holders(port, holders)) {
            generator(port, settings.warmupSeconds()).run();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private OpenLoopGenerator generator(int port, int seconds) {
        return new OpenLoopGenerator("127.0.0.1", port, "/plaintext", settings.rate(), settings.connections(), seconds * 1_000L, 5_000);
    }

    private Row measure(String configuration, int port, int holders) {
        try (Holders h = new Holders(port, holders)) {
            Thread.sleep(holders == 0 ? 200 : 300); // let the holders reach their steady back-to-back state
            long before = h.completed.get();
            CpuTimes cpuBefore = CpuTimes.now();
            OpenLoopGenerator.Result r = generator(port, settings.windowSeconds()).run();
            double steal = CpuTimes.now().stealPercentSince(cpuBefore);
            long holds = h.completed.get() - before;
            if (h.failures.get() > 0) out.println("  note: " + h.failures.get() + " /hold calls failed");
            return new Row(configuration, holders, r.rate(), r.connections(), settings.windowSeconds(), r.sent(), r.count(), r.errors(),
                    r.incomplete(), ms(r.p50Micros()), ms(r.p90Micros()), ms(r.p99Micros()), ms(r.maxMicros()),
                    ms(r.maxScheduleLagMicros()), r.lateSends(), r.queuedSends(), r.behindSchedule(), holds, steal);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static double ms(long micros) {
        return Math.round(micros / 10.0) / 100.0;
    }

    /** Plain client threads calling {@code /hold?ms=50} back to back, each on its own connection. */
    private static final class Holders implements AutoCloseable {
        final AtomicBoolean stop = new AtomicBoolean();
        final AtomicLong completed = new AtomicLong();
        final AtomicLong failures = new AtomicLong();
        final List<Thread> threads = new ArrayList<>();
        final List<HttpClient> clients = new ArrayList<>();

        Holders(int port, int n) {
            HttpRequest req = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/hold?ms=" + HOLD_MILLIS))
                    .timeout(Duration.ofSeconds(10)).build();
            for (int i = 0; i < n; i++) {
                HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
                clients.add(client);
                Thread t = Thread.ofPlatform().daemon().name("holder-" + i).start(() -> {
                    while (!stop.get()) {
                        try {
                            HttpResponse<String> r = client.send(req, HttpResponse.BodyHandlers.ofString());
                            if (r.statusCode() == 200) completed.incrementAndGet(); else failures.incrementAndGet();
                        } catch (IOException e) {
                            if (!stop.get()) failures.incrementAndGet();
                        } catch (InterruptedException e) {
                            return;
                        }
                    }
                });
                threads.add(t);
            }
        }

        @Override
        public void close() {
            stop.set(true);
            for (Thread t : threads) {
                try {
                    t.join(5_000); // a call in flight ends within HOLD_MILLIS
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            clients.forEach(HttpClient::close);
        }
    }

    /**
     * @param rows the measurements
     * @return the Markdown table: configuration x holders, p50/p90/p99/max and the schedule flag
     */
    public static String markdown(List<Row> rows) {
        StringBuilder b = new StringBuilder("| configuration | holders | p50 ms | p90 ms | p99 ms | max ms | ok / sent | errors "
                + "| unfinished | waited for a connection | behind schedule | steal |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|\n");
        for (Row r : rows) {
            b.append(String.format(Locale.ROOT, "| %s | %d | %.2f | %.2f | %.2f | %.2f | %d / %d | %d | %d | %.1f %% | %s | %.1f %% |%n",
                    r.configuration(), r.holders(), r.p50Ms(), r.p90Ms(), r.p99Ms(), r.maxMs(), r.count(), r.sent(), r.errors(),
                    r.incomplete(), r.sent() == 0 ? 0.0 : 100.0 * r.queuedSends() / r.sent(),
                    r.behindSchedule() ? String.format(Locale.ROOT, "YES (worst %.1f ms, %d late)", r.maxScheduleLagMs(), r.lateSends())
                            : "no", r.stealPercent()));
        }
        return b.toString();
    }

    static Path write(Result result, Path dir) {
        return ResultFile.write(dir, result.quick() ? "imbalance-quick" : "imbalance", result, "# Tidemill bench, imbalance suite"
                + (result.quick() ? " (quick)" : "") + ", " + result.startedUtc() + "\n\n" + result.configuration().get("rate")
                + " req/s of `/plaintext` over " + result.configuration().get("connections") + " connections, "
                + result.configuration().get("windowSeconds") + " s per row, " + result.configuration().get("workerLoops")
                + " worker loops on server CPUs " + result.configuration().get("serverCpus") + "; holders call `/hold?ms=" + HOLD_MILLIS
                + "` back to back. Latency from intended send time (coordinated omission corrected). The first row, " + FLOOR
                + ", is the same generator against nginx with no holder: no row reads below it.\n\n" + markdown(result.rows()));
    }
}
