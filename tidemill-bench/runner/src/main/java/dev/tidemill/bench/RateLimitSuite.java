package dev.tidemill.bench;

import static dev.tidemill.bench.Args.positive;
import static dev.tidemill.bench.Args.value;

import dev.tidemill.bench.loadgen.OpenLoopGenerator;
import dev.tidemill.bench.targets.TidemillApp;
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
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code ./tidemill bench ratelimit}: what a rate limit keyed by client address costs when the
 * clients are many. The runner plays a trusted proxy on loopback ({@code TIDEMILL_TRUSTED_PROXIES=127.0.0.1})
 * in front of 100,000 client addresses: each request carries {@code X-Forwarded-For} with the next
 * address in turn, and one in ten comes from a single hot address that exceeds its limit. The same
 * handler is measured under {@value TidemillApp#LIMITED_PATH} ({@link TidemillApp#LIMIT}: 10 per
 * second per address, at most 50,000 addresses held) and {@value TidemillApp#UNLIMITED_PATH} (no
 * limit), in one server, alternating which goes first each round, at a fixed open-loop rate.
 * Both routes are first run once unrecorded (JIT warm-up). Reports the latency of admitted (2xx) answers, 429s per second, the keys the limiter held (read
 * from {@code /_diagnostics} during the window, the largest kept) and the server's RSS after each
 * window. Writes {@code <UTC>-ratelimit.json} and {@code .md}.
 */
public final class RateLimitSuite {
    /** The one address that goes over its limit. */
    static final String HOT = "198.51.100.1";

    /**
     * Options.
     *
     * @param quick 2,000 req/s, short windows, one round (to check that everything works)
     * @param rate requests per second offered
     * @param connections keep-alive connections from the "proxy"
     * @param addresses distinct client addresses cycled through
     * @param rounds rounds (each runs both routes)
     * @param rampSeconds open-loop load before recording starts, per window
     * @param durationSeconds recorded window
     * @param outDir where results go
     */
    public record Settings(boolean quick, int rate, int connections, int addresses, int rounds, int rampSeconds,
                           int durationSeconds, Path outDir) {
        /** @return the suite name in result file names */
        public String suite() {
            return quick ? "ratelimit-quick" : "ratelimit";
        }

        /** @param args the arguments after {@code ratelimit} @return the settings */
        public static Settings parse(List<String> args) {
            boolean quick = args.contains("--quick");
            int rate = quick ? 2_000 : 5_000, connections = 64, addresses = 100_000, rounds = quick ? 1 : 2;
            int ramp = quick ? 2 : 3, duration = quick ? 4 : 10;
            Path out = Path.of("bench", "results");
            for (int i = 0; i < args.size(); i++) {
                String a = args.get(i);
                switch (a) {
                    case "--quick" -> { }
                    case "--rate" -> rate = positive(value(args, ++i, a), a);
                    case "--connections" -> connections = positive(value(args, ++i, a), a);
                    case "--addresses" -> addresses = positive(value(args, ++i, a), a);
                    case "--rounds" -> rounds = positive(value(args, ++i, a), a);
                    case "--ramp" -> ramp = Integer.parseInt(value(args, ++i, a));
                    case "--duration" -> duration = positive(value(args, ++i, a), a);
                    case "--out" -> out = Path.of(value(args, ++i, a));
                    default -> throw new IllegalArgumentException("unknown option " + a + " (ratelimit takes --quick --rate N "
                            + "--connections N --addresses N --rounds N --ramp S --duration S --out DIR)");
                }
            }
            if (ramp < 0) throw new IllegalArgumentException("ramp must be >= 0");
            return new Settings(quick, rate, connections, addresses, rounds, ramp, duration, out);
        }
    }

    /**
     * One window. Latencies in milliseconds from intended send times, of 2xx answers.
     *
     * @param route {@code limited} or {@code unlimited}
     * @param round the round, from 1
     * @param rate offered requests per second
     * @param okPerSec 2xx answers per second in the window
     * @param limitedPerSec 429 answers per second (ramp and window)
     * @param p50Ms median
     * @param p99Ms 99th percentile
     * @param maxMs maximum
     * @param errors other answers, failures and unanswered requests
     * @param keysHeld most limiter keys seen held during the window
     * @param rssMiB server resident memory after the window
     * @param serverCpuPercent server CPU over ramp and window, percent of one CPU
     * @param behindSchedule whether the generator fell behind its schedule
     */
    public record Row(String route, int round, int rate, double okPerSec, double limitedPerSec, double p50Ms, double p99Ms,
                      double maxMs, long errors, long keysHeld, double rssMiB, double serverCpuPercent, boolean behindSchedule) {}

    /**
     * What the suite wrote.
     *
     * @param suite the suite name
     * @param quick whether quick
     * @param startedUtc start
     * @param finishedUtc end
     * @param command the command line
     * @param fingerprint host and software
     * @param configuration settings and method
     * @param rows the windows
     */
    public record Result(String suite, boolean quick, String startedUtc, String finishedUtc, String command,
                         Map<String, Object> fingerprint, Map<String, Object> configuration, List<Row> rows) {}

    private final Settings settings;
    private final String command;
    private final PrintStream out;

    /**
     * @param settings the options
     * @param command the command line, as recorded
     * @param out progress
     */
    public RateLimitSuite(Settings settings, String command, PrintStream out) {
        this.settings = settings;
        this.command = command;
        this.out = out;
    }

    /** @return the {@code X-Forwarded-For} of the i-th request: one in ten the hot address, else the next address */
    static String address(long i, int addresses) {
        if (i % 10 == 9) return HOT;
        int n = (int) ((i - (i + 1) / 10) % addresses); // counts only the non-hot requests, so every address comes up
        return "100." + (64 + (n >> 16)) + "." + ((n >> 8) & 255) + "." + (n & 255);
    }

    /** @return the JSON file written */
    public Path run() {
        String started = Instant.now().toString();
        CpuSets cpus = CpuSets.derive();
        Target target = TargetCatalog.tidemill("tidemill", Map.of("TIDEMILL_TRUSTED_PROXIES", "127.0.0.1"), cpus.server().size());
        out.printf(Locale.ROOT, "ratelimit: %,d req/s over %d connections, %,d client addresses (1 in 10 from %s), %d s ramp + %d s "
                        + "recorded per window, %d rounds; server CPUs %s, generator CPUs %s%n", settings.rate(), settings.connections(),
                settings.addresses(), HOT, settings.rampSeconds(), settings.durationSeconds(), settings.rounds(), cpus.serverList(),
                cpus.clientList());
        Map<String, Object> fingerprint = Fingerprint.take(cpus);
        List<Row> rows = new ArrayList<>();
        Path work;
        try {
            work = Files.createTempDirectory("tidemill-bench-ratelimit-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try (RunningTarget running = RunningTarget.start(target, cpus, work.resolve("tidemill"))) {
            List<String> problems = Verifier.check(running.port(), false);
            if (!problems.isEmpty()) throw new IllegalStateException("the target answers wrong: " + problems);
            // Warm-up, not recorded: both routes at the rate, so the JIT has compiled both paths before any window counts
            // (without it the first window, whichever route it was, paid for the compilation).
            for (String route : List.of("limited", "unlimited")) {
                Row w = window(running, route, 0);
                out.printf(Locale.ROOT, "  warm-up   %-9s p99 %6.2f ms  server %.0f %%%n", route, w.p99Ms(), w.serverCpuPercent());
            }
            for (int round = 1; round <= settings.rounds(); round++) {
                List<String> order = round % 2 == 1 ? List.of("limited", "unlimited") : List.of("unlimited", "limited");
                for (String route : order) {
                    Row r = window(running, route, round);
                    rows.add(r);
                    out.printf(Locale.ROOT, "  round %d %-9s %,7.0f ok/s  %,6.0f 429/s  p50 %6.2f  p99 %6.2f  max %7.2f ms  errors %d  "
                                    + "keys %,d  RSS %.0f MiB  server %.0f %%%s%n", round, route, r.okPerSec(), r.limitedPerSec(),
                            r.p50Ms(), r.p99Ms(), r.maxMs(), r.errors(), r.keysHeld(), r.rssMiB(), r.serverCpuPercent(),
                            r.behindSchedule() ? "  (generator behind schedule)" : "");
                }
            }
        }
        Map<String, Object> conf = new LinkedHashMap<>();
        conf.put("serverCpus", cpus.serverList());
        conf.put("loadGeneratorCpus", cpus.clientList());
        conf.put("rate", settings.rate());
        conf.put("connections", settings.connections());
        conf.put("addresses", settings.addresses());
        conf.put("hotAddress", HOT + " (1 request in 10)");
        conf.put("limit", TidemillApp.LIMIT.toString() + ", maxKeys " + TidemillApp.LIMIT.maxKeys());
        conf.put("rounds", settings.rounds());
        conf.put("rampSeconds", settings.rampSeconds());
        conf.put("durationSeconds", settings.durationSeconds());
        conf.put("generator", "OpenLoopGenerator (one Netty event loop in the runner JVM, one request in flight per connection, "
                + "latency from each request's intended send time), X-Forwarded-For per request");
        conf.put("jvmFlags", TargetCatalog.JVM_FLAGS);
        Result result = new Result(settings.suite(), settings.quick(), started, Instant.now().toString(), command, fingerprint, conf, rows);
        Path json = ResultFile.write(settings.outDir(), result.suite(), result, page(result));
        out.println();
        out.print(markdown(rows));
        return json;
    }

    private Row window(RunningTarget running, String route, int round) {
        String path = route.equals("limited") ? TidemillApp.LIMITED_PATH : TidemillApp.UNLIMITED_PATH;
        AtomicLong keys = new AtomicLong();
        Thread sampler = Thread.ofPlatform().daemon().name("keys-sampler").start(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                Optional<Map<String, Long>> d = ServerDiagnostics.read(running.port());
                d.map(m -> m.get("ratelimit.bench.keys")).ifPresent(k -> keys.accumulateAndGet(k, Math::max));
                try {
                    Thread.sleep(250);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        try {
            OpenLoopGenerator g = new OpenLoopGenerator("127.0.0.1", running.port(), path, settings.rate(), settings.connections(),
                    settings.rampSeconds() * 1_000L, settings.durationSeconds() * 1_000L, 10_000)
                    .forwardedFor(i -> address(i, settings.addresses()));
            long server0 = ProcessCpu.ticks(running.pid()), t0 = System.nanoTime();
            OpenLoopGenerator.Result r = g.run();
            long server1 = ProcessCpu.ticks(running.pid()), t1 = System.nanoTime();
            sampler.interrupt();
            sampler.join(2_000);
            ServerDiagnostics.read(running.port()).map(m -> m.get("ratelimit.bench.keys"))
                    .ifPresent(k -> keys.accumulateAndGet(k, Math::max));
            double cpu = 100 * ProcessCpu.micros(server1 - server0) / ((t1 - t0) / 1_000.0);
            int seconds = settings.rampSeconds() + settings.durationSeconds();
            return new Row(route, round, settings.rate(), (double) r.count() / settings.durationSeconds(),
                    (double) r.limited() / seconds, r.p50Micros() / 1_000.0, r.p99Micros() / 1_000.0, r.maxMicros() / 1_000.0,
                    r.errors() + r.incomplete() + r.shed(), keys.get(), JvmReadings.rssKb(running.pid()) / 1024.0, cpu,
                    r.behindSchedule());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } finally {
            sampler.interrupt();
        }
    }

    /** @return the median p99 of a route's windows, ms */
    static double medianP99(List<Row> rows, String route) {
        double[] v = rows.stream().filter(r -> r.route().equals(route)).mapToDouble(Row::p99Ms).sorted().toArray();
        if (v.length == 0) return Double.NaN;
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    static String page(Result r) {
        Map<String, Object> c = r.configuration();
        double limited = medianP99(r.rows(), "limited"), unlimited = medianP99(r.rows(), "unlimited");
        long keys = r.rows().stream().filter(w -> w.route().equals("limited")).mapToLong(Row::keysHeld).max().orElse(0);
        return "# Tidemill bench, rate limits under many client addresses" + (r.quick() ? " (quick)" : "") + ", " + r.startedUtc() + "\n\n"
                + String.format(Locale.ROOT, "The runner plays a trusted proxy on loopback in front of %,d client addresses "
                        + "(`X-Forwarded-For`, the next address per request; 1 request in 10 from %s, which exceeds its limit), "
                        + "%,d req/s open loop over %s connections, %s s ramp then %s s recorded per window, %s rounds alternating "
                        + "which route goes first. `limited`: %s; `unlimited`: the same handler without a limit, same server. "
                        + "Latencies are of admitted (2xx) answers, from each request's intended send time. Keys: the most the "
                        + "limiter held during the window (swept as budgets refill; `maxKeys` bounds them). Server on CPUs %s, "
                        + "generator on CPUs %s. Command: `%s`.%n%n",
                (Integer) c.get("addresses"), HOT, (Integer) c.get("rate"), c.get("connections"), c.get("rampSeconds"),
                c.get("durationSeconds"), c.get("rounds"), c.get("limit"), c.get("serverCpus"), c.get("loadGeneratorCpus"), r.command())
                + markdown(r.rows())
                + String.format(Locale.ROOT, "%nMedian p99 of admitted answers: limited %.2f ms, unlimited %.2f ms (ratio %.2f); "
                        + "at most %,d keys held.%n", limited, unlimited, limited / unlimited, keys);
    }

    /** @param rows the windows @return the Markdown table */
    static String markdown(List<Row> rows) {
        StringBuilder b = new StringBuilder("| round | route | offered req/s | admitted 2xx/s | 429/s | p50 ms | p99 ms | max ms | errors "
                + "| keys held | server RSS | server CPU |\n|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (Row r : rows) {
            b.append(String.format(Locale.ROOT, "| %d | %s | %,d | %,.0f | %,.0f | %.2f | %.2f | %.2f | %,d | %s | %.0f MiB | %.0f %%%s |%n",
                    r.round(), r.route(), r.rate(), r.okPerSec(), r.limitedPerSec(), r.p50Ms(), r.p99Ms(), r.maxMs(), r.errors(),
                    r.route().equals("limited") ? String.format(Locale.ROOT, "%,d", r.keysHeld()) : "-", r.rssMiB(),
                    r.serverCpuPercent(), r.behindSchedule() ? " (generator behind)" : ""));
        }
        return b.toString();
    }
}
