package dev.tidemill.bench;

import static dev.tidemill.bench.Args.value;

import dev.tidemill.bench.common.Scenario;
import dev.tidemill.bench.loadgen.IdleConnections;
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
import java.util.concurrent.TimeUnit;

/**
 * {@code ./tidemill bench memory [--quick]}: for every JVM target, the time from process start to
 * the first correct {@code /plaintext} answer (median of several starts), RSS, live heap and native
 * memory (NMT) when idle, and again with 10,000 idle keep-alive connections (so RSS and live heap per
 * connection) (opened by the runner in batches of
 * 500, each answered once); for Tidemill in LOOP mode, RSS and live heap at 1, 2, 4 and 8 worker
 * loops, and their slope per extra loop. A target named {@code <target>-aot} (by default
 * {@code tidemill-loop-aot}) is the same target started with a JDK AOT cache written by a training
 * run just before, so start-up with and without the cache is measured in the same run. Every target
 * runs with the same JVM flags as in the throughput suite plus {@value #NMT_FLAG} (here only: it costs a little memory and start-up, and
 * every JVM target pays it alike). Writes {@code <UTC>-memory.json} and {@code .md}.
 *
 * <p>RSS is {@code VmRSS} from {@code /proc/<pid>/status}. Live heap is the young + old "used"
 * figures of {@code jcmd <pid> GC.heap_info} right after {@code jcmd <pid> GC.run} (a full GC), so
 * garbage does not count; every target runs ParallelGC, whose output this parses. Native memory is
 * {@code jcmd <pid> VM.native_memory summary}: total committed and committed per category. With
 * {@code -Xms1g} the Java heap is committed (not resident) in full, so the table also gives the
 * committed memory outside it.
 */
public final class MemorySuite {
    /** Idle connections opened against each target. */
    static final int CONNECTIONS = 10_000;
    /** Connections per batch. */
    static final int BATCH = 500;
    /** Worker-loop counts of the per-loop measurement. */
    static final List<Integer> LOOPS = List.of(1, 2, 4, 8);
    /** Settle time before a reading, so start-up allocation and JIT threads have quietened. */
    static final long SETTLE_MILLIS = 2_000;
    /** Native Memory Tracking, added to every JVM target of this suite (and no other). */
    static final String NMT_FLAG = "-XX:NativeMemoryTracking=summary";
    /** NMT categories shown per target in the Markdown (all are in the JSON). */
    static final int TOP_CATEGORIES = 6;
    /**
     * Suffix of a target started with a JDK AOT cache ({@code -XX:AOTCache}, JEP 483/514) written
     * by a training run of the same target just before: {@code tidemill-io-aot}. Any JVM target
     * can be named so; without {@code --targets}, {@value #AOT_BY_DEFAULT} is followed by its own.
     */
    static final String AOT = "-aot";
    /** The target measured with an AOT cache too when no {@code --targets} are given: the default mode. */
    static final String AOT_BY_DEFAULT = "tidemill-loop";

    /**
     * Options.
     *
     * @param quick one start per target and 2,000 connections instead of three starts and 10,000
     * @param starts starts per target for the start-up time
     * @param connections idle connections per target
     * @param targets target names (empty: every JVM target found)
     * @param outDir where results go
     * @param repoRoot where peers are found
     */
    public record Settings(boolean quick, int starts, int connections, List<String> targets, Path outDir, Path repoRoot) {
        /**
         * @param args the arguments after {@code memory}
         * @return the settings
         */
        public static Settings parse(List<String> args) {
            boolean quick = args.contains("--quick");
            int starts = quick ? 1 : 3, connections = quick ? 2_000 : CONNECTIONS;
            List<String> targets = List.of();
            Path out = Path.of("bench", "results");
            Path root = Path.of("");
            for (int i = 0; i < args.size(); i++) {
                String a = args.get(i);
                switch (a) {
                    case "--quick" -> { }
                    case "--starts" -> starts = Integer.parseInt(value(args, ++i, a));
                    case "--connections" -> connections = Integer.parseInt(value(args, ++i, a));
                    case "--targets" -> targets = List.of(value(args, ++i, a).split(","));
                    case "--out" -> out = Path.of(value(args, ++i, a));
                    case "--root" -> root = Path.of(value(args, ++i, a));
                    default -> throw new IllegalArgumentException("unknown option " + a
                            + " (memory takes --quick --starts N --connections N --targets a,b[-aot] --out DIR)");
                }
            }
            if (starts < 1 || connections < 0) throw new IllegalArgumentException("starts must be >= 1, connections >= 0");
            return new Settings(quick, starts, connections, targets, out, root);
        }
    }

    /**
     * One target's figures. Sizes in KiB, times in milliseconds.
     *
     * @param target the target
     * @param firstResponseMs each start's time from process start to the first correct answer
     * @param medianFirstResponseMs their median
     * @param rssIdleKb RSS idle, after the first answer and a settle
     * @param heapIdleKb live heap idle
     * @param connectionsAsked idle connections asked for
     * @param connectionsAnswered connections that got their answer and stayed open
     * @param connectionsFailed connections that failed to connect or be answered
     * @param closedByServer answered connections the server closed before the reading
     * @param rssConnectionsKb RSS with the connections open
     * @param heapConnectionsKb live heap with the connections open
     * @param rssPerConnectionKb (RSS with - RSS idle) / connections answered
     * @param heapPerConnectionKb (live heap with - live heap idle) / connections answered
     * @param nmtIdle native memory idle (null when jcmd could not tell)
     * @param nmtConnections native memory with the connections open (null likewise)
     * @param notes what went wrong, if anything
     */
    public record TargetRow(String target, List<Double> firstResponseMs, double medianFirstResponseMs, long rssIdleKb,
                            long heapIdleKb, int connectionsAsked, int connectionsAnswered, int connectionsFailed,
                            int closedByServer, long rssConnectionsKb, long heapConnectionsKb, double rssPerConnectionKb,
                            double heapPerConnectionKb, Nmt nmtIdle, Nmt nmtConnections, List<String> notes) {}

    /**
     * One {@code jcmd <pid> VM.native_memory summary}, in KiB.
     *
     * @param committedKb total committed
     * @param categoriesCommittedKb committed per category, largest first
     */
    public record Nmt(long committedKb, Map<String, Long> categoriesCommittedKb) {
        /** @return committed outside the Java heap category */
        public long outsideHeapKb() {
            return committedKb - categoriesCommittedKb.getOrDefault("Java Heap", 0L);
        }
    }

    /**
     * Tidemill LOOP at one worker-loop count.
     *
     * @param loops worker loops
     * @param rssKb RSS idle
     * @param heapKb live heap idle
     * @param threads the process's thread count
     */
    public record LoopRow(int loops, long rssKb, long heapKb, int threads) {}

    /**
     * What the suite wrote.
     *
     * @param suite {@code memory} or {@code memory-quick}
     * @param quick whether it was quick
     * @param startedUtc start
     * @param finishedUtc end
     * @param fingerprint host and software
     * @param preflight checks
     * @param configuration settings
     * @param targets command lines per target
     * @param rows per target
     * @param loops Tidemill LOOP per worker-loop count
     * @param rssPerLoopKb least-squares slope of RSS over loops
     * @param heapPerLoopKb least-squares slope of live heap over loops
     */
    public record Result(String suite, boolean quick, String startedUtc, String finishedUtc, Map<String, Object> fingerprint,
                         List<Check> preflight, Map<String, Object> configuration, List<Map<String, Object>> targets,
                         List<TargetRow> rows, List<LoopRow> loops, double rssPerLoopKb, double heapPerLoopKb) {}

    private final Settings settings;
    private final AotTraining aot;
    private final PrintStream out;
    private final CpuSets cpus = CpuSets.derive();
    private final Path work;

    /**
     * @param settings the options
     * @param out progress
     */
    public MemorySuite(Settings settings, PrintStream out) {
        this.settings = settings;
        this.out = out;
        try {
            this.work = Files.createTempDirectory("tidemill-bench-memory-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        this.aot = new AotTraining(work, cpus, out);
    }

    /**
     * Measures every JVM target and the loop ladder, writes the files.
     *
     * @return the JSON file
     */
    public Path run() {
        String started = Instant.now().toString();
        BenchMain.keepOffServerCpus(cpus, out);
        TargetCatalog catalog = new TargetCatalog(settings.repoRoot(), System.getProperty("java.class.path"));
        List<Target> targets = choose(catalog, settings.targets());
        out.printf("memory: %d JVM targets, %d start(s) each, %d idle connections in batches of %d, server CPUs %s%n",
                targets.size(), settings.starts(), settings.connections(), BATCH, cpus.serverList());
        List<Check> preflight = Preflight.run(cpus, settings.connections());
        preflight.stream().filter(Check::failed).forEach(c -> out.println("preflight FAIL " + c.name() + ": " + c.reading()));
        Map<String, Object> fingerprint = Fingerprint.take(cpus);
        List<TargetRow> rows = new ArrayList<>();
        List<Map<String, Object>> records = new ArrayList<>();
        for (Target t : targets) {
            out.println(t.name() + ":");
            rows.add(measure(t, records));
        }
        List<LoopRow> loops = LoopLadder.measure(cpus, work, out);
        Map<String, Object> conf = new LinkedHashMap<>();
        conf.put("serverCpus", cpus.serverList());
        conf.put("starts", settings.starts());
        conf.put("connections", settings.connections());
        conf.put("batch", BATCH);
        conf.put("settleMillis", SETTLE_MILLIS);
        conf.put("loops", LOOPS);
        conf.put("jvmFlags", TargetCatalog.JVM_FLAGS);
        conf.put("memorySuiteFlags", List.of(NMT_FLAG));
        conf.put("nmt", "jcmd <pid> VM.native_memory summary: total committed and committed per category");
        conf.put("rss", "VmRSS of /proc/<pid>/status");
        conf.put("heap", "young + old used of jcmd GC.heap_info right after jcmd GC.run");
        conf.put("aot", "targets named *" + AOT + ": the same target with -XX:AOTCache=<file>, the file written by a "
                + "training run just before (-XX:AOTCacheOutput=<file>, " + AotTraining.ROUNDS + " rounds of every endpoint, "
                + "then SIGTERM; the JVM writes the cache as it exits); not counted in the first-answer time");
        conf.put("firstResponse", "from just before the process is spawned (taskset, then the JVM) to the first 200 '"
                + Scenario.PLAINTEXT_BODY + "' on a fresh connection");
        Result result = new Result(settings.quick() ? "memory-quick" : "memory", settings.quick(), started,
                Instant.now().toString(), fingerprint, preflight, conf, records, rows, loops,
                LoopLadder.slope(loops, LoopRow::rssKb), LoopLadder.slope(loops, LoopRow::heapKb));
        Path json = ResultFile.write(settings.outDir(), result.suite(), result, MemoryReport.page(result));
        out.println();
        out.print(MemoryReport.markdown(result));
        return json;
    }

    /**
     * @param catalog the targets found
     * @param names the names asked for; empty for every JVM target, {@value #AOT_BY_DEFAULT}
     *     followed by its {@link #AOT} variant
     * @return the JVM targets to measure, the baseline included
     */
    List<Target> choose(TargetCatalog catalog, List<String> names) {
        List<Target> chosen = new ArrayList<>();
        if (names.isEmpty()) {
            for (Target t : catalog.all()) {
                if (!t.jvm()) continue;
                chosen.add(t);
                if (t.name().equals(AOT_BY_DEFAULT)) chosen.add(aot.cached(t, AOT));
            }
            return chosen;
        }
        for (String n : names) {
            boolean cached = n.endsWith(AOT);
            Target t = catalog.select(List.of(cached ? n.substring(0, n.length() - AOT.length()) : n)).get(0);
            if (t.jvm()) chosen.add(cached ? aot.cached(t, AOT) : t);
        }
        if (chosen.stream().noneMatch(t -> t.name().equals(TargetCatalog.BASELINE))) {
            chosen.add(catalog.select(List.of(TargetCatalog.BASELINE)).get(0));
        }
        return chosen;
    }

    private TargetRow measure(Target t, List<Map<String, Object>> records) {
        List<Double> firsts = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        long rssIdle = -1, heapIdle = -1, rssConns = -1, heapConns = -1;
        Nmt nmtIdle = null, nmtConns = null;
        int answered = 0, failed = 0, closed = 0;
        boolean cached = aot.isCached(t);
        Optional<String> untrained = cached ? aot.train(t) : Optional.empty();
        if (untrained.isPresent()) {
            out.println("  " + untrained.get());
            return new TargetRow(t.name(), firsts, Double.NaN, -1, -1, settings.connections(), 0, 0, 0, -1, -1, Double.NaN,
                    Double.NaN, null, null, List.of(untrained.get()));
        }
        for (int i = 1; i <= settings.starts(); i++) {
            Preflight.serverBusyPercent(cpus, 300);
            long t0 = System.nanoTime();
            try (RunningTarget running = RunningTarget.start(withNmt(t), cpus, work.resolve(t.name() + "-" + i))) {
                firstAnswer(running.port(), t0 + TimeUnit.SECONDS.toNanos(60));
                double ms = (System.nanoTime() - t0) / 1e6;
                firsts.add(Math.round(ms * 10) / 10.0);
                out.printf(Locale.ROOT, "  start %d: first answer after %.0f ms%n", i, ms);
                if (i > 1) continue;
                Map<String, Object> rec = new LinkedHashMap<>();
                rec.put("target", t.name());
                rec.put("commandLine", running.commandLine());
                rec.put("env", withNmt(t).launch().at(running.port(), cpus.server().size(), work).env());
                records.add(rec);
                sleep(SETTLE_MILLIS);
                heapIdle = JvmReadings.liveHeapKb(running.pid());
                rssIdle = JvmReadings.rssKb(running.pid());
                nmtIdle = JvmReadings.nativeMemory(running.pid()).orElse(null);
                if (settings.connections() > 0) {
                    try (IdleConnections conns = IdleConnections.open("127.0.0.1", running.port(), Scenario.PLAINTEXT_PATH,
                            settings.connections(), BATCH, 10_000)) {
                        sleep(SETTLE_MILLIS);
                        heapConns = JvmReadings.liveHeapKb(running.pid());
                        rssConns = JvmReadings.rssKb(running.pid());
                        nmtConns = JvmReadings.nativeMemory(running.pid()).orElse(null);
                        answered = conns.answered();
                        failed = conns.failed();
                        closed = conns.closedEarly();
                    }
                }
                rec.put("startup", running.startupLines());
                if (cached) {
                    running.startupLines().stream().filter(AotTraining::refused).findFirst()
                            .ifPresent(line -> notes.add("AOT cache not used: " + line));
                }
                out.printf(Locale.ROOT, "  idle: RSS %,d KiB, live heap %,d KiB, NMT committed %s KiB (%s outside the heap); "
                        + "%,d connections answered (%d failed, %d closed by the server): RSS %,d KiB, live heap %,d KiB, "
                        + "NMT committed %s KiB%n", rssIdle, heapIdle, nmtIdle == null ? "-" : nmtIdle.committedKb(),
                        nmtIdle == null ? "-" : nmtIdle.outsideHeapKb(), answered, failed, closed, rssConns, heapConns,
                        nmtConns == null ? "-" : nmtConns.committedKb());
            } catch (RuntimeException | InterruptedException e) {
                if (e instanceof InterruptedException) Thread.currentThread().interrupt();
                notes.add("start " + i + " failed: " + e.getMessage());
                out.println("  start " + i + " FAILED: " + e.getMessage());
            }
        }
        if (failed > 0) notes.add(failed + " connections failed");
        if (closed > 0) notes.add(closed + " connections closed by the server before the reading");
        int open = answered - closed;
        double perConn = open > 0 && rssConns >= 0 && rssIdle >= 0 ? (double) (rssConns - rssIdle) / open : Double.NaN;
        double heapPerConn = open > 0 && heapConns >= 0 && heapIdle >= 0 ? (double) (heapConns - heapIdle) / open : Double.NaN;
        return new TargetRow(t.name(), firsts, median(firsts), rssIdle, heapIdle, settings.connections(), open,
                failed, closed, rssConns, heapConns, perConn, heapPerConn, nmtIdle, nmtConns, notes);
    }

    /**
     * Asks for {@code /plaintext} on fresh connections until the answer is a 200 with the right body.
     *
     * @throws IllegalStateException if no correct answer came by the deadline
     */
    static void firstAnswer(int port, long deadlineNanos) {
        String last = "no answer";
        while (System.nanoTime() < deadlineNanos) {
            try {
                String answer = LoopbackGet.get(port, Scenario.PLAINTEXT_PATH, 1_000);
                if (answer.startsWith("HTTP/1.1 200") && answer.endsWith("\r\n\r\n" + Scenario.PLAINTEXT_BODY)) return;
                last = answer.lines().findFirst().orElse("empty answer");
            } catch (IOException e) {
                last = e.toString();
            }
            sleep(5);
        }
        throw new IllegalStateException("no correct answer to GET " + Scenario.PLAINTEXT_PATH + ": " + last);
    }

    /** @return the target started with {@link #NMT_FLAG} right after the {@code java} executable */
    static Target withNmt(Target t) {
        return withFlag(t, NMT_FLAG);
    }

    /** @return a JVM target started with {@code flag} right after the {@code java} executable; others unchanged */
    static Target withFlag(Target t, String flag) {
        if (!t.jvm()) return t;
        return new Target(t.name(), t.kind(), true, t.plaintextOnly(), (port, threads, dir) -> {
            Target.Command c = t.launch().at(port, threads, dir);
            List<String> argv = new ArrayList<>(c.argv());
            argv.add(1, flag);
            return new Target.Command(List.copyOf(argv), c.env());
        });
    }

    static double median(List<Double> values) {
        if (values.isEmpty()) return Double.NaN;
        List<Double> s = values.stream().sorted().toList();
        int n = s.size();
        return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
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
