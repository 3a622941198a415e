package dev.tidemill.bench;

import dev.tidemill.bench.UploadsSettings.Endpoint;
import dev.tidemill.bench.loadgen.HttpAnswer;
import dev.tidemill.bench.loadgen.UploadBody;
import dev.tidemill.bench.loadgen.UploadLoad;
import dev.tidemill.bench.loadgen.UploadRequest;
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
import java.util.stream.Stream;

/**
 * {@code ./tidemill bench uploads}: upload throughput of 1 KiB, 1 MiB and 100 MiB bodies, raw and
 * as a multipart form with one file part, to a handler that discards them and to one that writes
 * them to a temp file ({@code dev.tidemill.bench.common.UploadContract}), on Tidemill and on the
 * peers ({@link UploadsTargets}). Per target: a start that checks every endpoint's answers (the
 * byte count, for odd sizes, Content-Length and chunked; an endpoint answering 404 is not
 * served), then per size and endpoint a case on a fresh start of the server (so its peak RSS,
 * {@code VmHWM}, is that case's): the {@link UploadLoad} generator on the client CPUs, a warm-up
 * and a measured window (small sizes) or a fixed count (large ones). Reports MB/s, server CPU per
 * MiB, MB per server CPU second, peak RSS, errors and temp files left behind, and whether Tidemill
 * met its goals ({@link UploadsReport#goals}). A target that answers a wrong count fails
 * the run, after the result files are written. Writes {@code <UTC>-uploads.json} and {@code .md}.
 */
public final class UploadsSuite {
    /** Odd sizes the checks send before timing: one byte, and a body that spans several reads and chunks. */
    static final List<Long> CHECK_SIZES = List.of(1L, 200_003L);

    /**
     * One case: a target, a size, an endpoint.
     *
     * @param target the target
     * @param endpoint the endpoint's name
     * @param sizeBytes file bytes per upload
     * @param framing {@code content-length} or {@code chunked}
     * @param connections connections
     * @param uploads uploads answered right in the measured window
     * @param fileBytes their file bytes
     * @param seconds the measured window, from its start until its last upload was answered
     * @param mbPerSec file bytes per second, in MB (10^6 B)
     * @param serverCpuSeconds the server process's CPU time over the window (utime + stime)
     * @param serverCpuMsPerMiB server CPU milliseconds per MiB of file bytes
     * @param mbPerServerCpuSecond MB of file bytes per server CPU second: the goal's measure
     * @param peakRssKb the server's {@code VmHWM} at the end of the case, KiB
     * @param errors failed uploads over warm-up and window (non-200, connection failures)
     * @param mismatches 200 answers with a wrong count over warm-up and window
     * @param tempFilesLeft files in the server's temp directory after the case
     * @param clientCpusBusyPercent the generator's CPUs' busy share over the window (every process)
     * @param clientBound whether those CPUs were at or above {@link HeavyLoadSuite#CLIENT_BOUND_PERCENT}
     * @param problems the first few errors and mismatches
     */
    public record Row(String target, String endpoint, long sizeBytes, String framing, int connections, long uploads, long fileBytes,
                      double seconds, double mbPerSec, double serverCpuSeconds, double serverCpuMsPerMiB, double mbPerServerCpuSecond,
                      long peakRssKb, long errors, long mismatches, long tempFilesLeft, double clientCpusBusyPercent, boolean clientBound,
                      List<String> problems) {
        /** @return whether the row counts for the goals: every upload answered right */
        public boolean clean() {
            return uploads > 0 && errors == 0 && mismatches == 0;
        }
    }

    /** A row as measured in round {@code round} (1 for the first). */
    public record RoundRow(int round, Row row) {}

    /**
     * What the suite wrote.
     *
     * @param suite {@code uploads} or {@code uploads-quick}
     * @param quick whether it was a quick run
     * @param startedUtc start
     * @param finishedUtc end
     * @param command the command line
     * @param fingerprint host and software
     * @param preflight checks
     * @param configuration settings and method
     * @param targets per target: command line, endpoints served, check problems
     * @param rounds rounds run
     * @param rows the cases: per target, size and endpoint the median over rounds
     * @param roundRows every round's rows
     * @param goals the goals judged per case
     * @param notMeasured what was not measured, and why
     * @param failures what fails the run (wrong counts, failed checks)
     */
    public record Result(String suite, boolean quick, String startedUtc, String finishedUtc, String command,
                         Map<String, Object> fingerprint, List<Check> preflight, Map<String, Object> configuration,
                         List<Map<String, Object>> targets, int rounds, List<Row> rows, List<RoundRow> roundRows,
                         List<UploadsReport.Goal> goals, List<String> notMeasured,
                         List<String> failures) {}

    private final UploadsSettings settings;
    private final String command;
    private final PrintStream out;
    private final List<RoundRow> rows = new ArrayList<>();
    private int round;
    private final List<String> notMeasured = new ArrayList<>();
    private final List<String> failures = new ArrayList<>();

    /**
     * @param settings the options
     * @param command the command line, as recorded
     * @param out progress
     */
    public UploadsSuite(UploadsSettings settings, String command, PrintStream out) {
        this.settings = settings;
        this.command = command;
        this.out = out;
    }

    /**
     * Runs every target, writes the files.
     *
     * @return the JSON file
     * @throws IllegalStateException after writing them, when a target answered a wrong count or failed its checks
     */
    public Path run() {
        String started = Instant.now().toString();
        CpuSets cpus = CpuSets.derive();
        List<Target> targets = UploadsTargets.select(UploadsTargets.all(settings.repoRoot(), notMeasured), settings.targets());
        List<Endpoint> endpoints = settings.endpoints().stream().map(UploadsSettings::endpoint).toList();
        out.printf(Locale.ROOT, "uploads: sizes %s, endpoints %s, %s; %d connections (%d at %s and above); %s; server CPUs %s, "
                        + "generator CPUs %s; targets %s%n", String.join(", ", settings.sizes().stream().map(UploadsSettings::label).toList()),
                String.join(", ", settings.endpoints()), framing(), settings.connections(), settings.largeConnections(),
                UploadsSettings.label(UploadsSettings.LARGE_BYTES), rounds(), cpus.serverList(), cpus.clientList(),
                String.join(", ", targets.stream().map(Target::name).toList()));
        List<Check> preflight = Preflight.run(cpus, Math.max(settings.connections(), settings.largeConnections()));
        preflight.stream().filter(Check::failed).forEach(c -> out.println("preflight FAIL " + c.name() + ": " + c.reading()));
        Map<String, Object> fingerprint = Fingerprint.take(cpus);
        Path work;
        try {
            work = Files.createTempDirectory("tidemill-bench-uploads-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<Map<String, Object>> records = new ArrayList<>();
        for (round = 1; round <= settings.rounds(); round++) {
            if (settings.rounds() > 1) out.printf(Locale.ROOT, "round %d of %d%n", round, settings.rounds());
            // Rotated by one per round, so that no target is always measured first or last when the host drifts.
            for (int k = 0; k < targets.size(); k++) {
                Target t = targets.get((k + round - 1) % targets.size());
                Map<String, Object> rec = new LinkedHashMap<>();
                rec.put("target", t.name());
                if (round == 1) records.add(rec);
                try {
                    measure(t, endpoints, cpus, work.resolve("round-" + round).resolve(t.name()), rec);
                } catch (RuntimeException e) {
                    out.println("FAILED " + t.name() + ": " + e.getMessage());
                    rec.put("failed", e.getMessage());
                    failures.add(t.name() + (settings.rounds() > 1 ? " (round " + round + ")" : "") + ": " + e.getMessage());
                }
            }
        }
        Map<String, Object> conf = configuration(cpus);
        List<Row> medians = UploadsReport.medians(rows);
        List<UploadsReport.Goal> goals = UploadsReport.goals(medians);
        Result result = new Result(settings.suite(), settings.quick(), started, Instant.now().toString(), command, fingerprint,
                preflight, conf, records, settings.rounds(), medians, List.copyOf(rows), goals,
                notMeasured.stream().distinct().toList(), List.copyOf(failures));
        Path json = ResultFile.write(settings.outDir(), result.suite(), result, UploadsReport.page(result));
        out.println();
        out.print(UploadsReport.markdown(result.rows()));
        out.println();
        out.print(UploadsReport.verdict(goals));
        if (!failures.isEmpty()) {
            throw new IllegalStateException("uploads: the run failed (" + String.join("; ", failures) + "); results in " + json);
        }
        return json;
    }

    private String framing() {
        return settings.framing() == UploadRequest.Framing.CHUNKED ? "chunked bodies" : "Content-Length bodies";
    }

    private String rounds() {
        return settings.warmupSeconds() + " s warm-up + " + settings.durationSeconds() + " s measured per small case, "
                + settings.largeWarmup() + " + " + settings.largeCount() + " uploads per connection per large case, "
                + (settings.restartPerCase() ? "a fresh server per case" : "one server start per target");
    }

    private void measure(Target t, List<Endpoint> endpoints, CpuSets cpus, Path dir, Map<String, Object> rec) {
        Preflight.serverBusyPercent(cpus, 300);
        // With a fresh server per case the checks get a start of their own, so that no case's peak
        // RSS holds them; with one start per target (quick) they run on it, before its cases.
        Path first = dir.resolve(settings.restartPerCase() ? "check" : "all");
        RunningTarget running = RunningTarget.start(t, cpus, first);
        try {
            rec.put("commandLine", running.commandLine());
            rec.put("startup", running.startupLines());
            List<Endpoint> served = new ArrayList<>();
            List<String> problems = new ArrayList<>();
            for (Endpoint e : endpoints) {
                List<String> p = check(running.port(), e);
                if (p.size() == 1 && p.getFirst().equals(NOT_SERVED)) {
                    notMeasured.add(t.name() + ": " + e.name() + " (" + e.method() + " " + e.path() + " answers 404: not served)");
                } else if (p.isEmpty()) {
                    served.add(e);
                } else {
                    problems.addAll(p);
                }
            }
            rec.put("endpoints", served.stream().map(Endpoint::name).toList());
            rec.put("verification", problems);
            if (!problems.isEmpty()) {
                out.println("REFUSED " + t.name() + ": " + problems);
                failures.add(t.name() + " failed its checks: " + problems);
                return;
            }
            out.println(t.name() + ": serves " + String.join(", ", served.stream().map(Endpoint::name).toList()));
            if (!settings.restartPerCase()) {
                for (long size : settings.sizes()) {
                    for (Endpoint e : served) row(t.name(), running, e, size, cpus, first.resolve(UploadsTargets.TMP));
                }
                return;
            }
            running.close();
            for (long size : settings.sizes()) {
                for (Endpoint e : served) {
                    Preflight.serverBusyPercent(cpus, 300);
                    Path caseDir = dir.resolve(e.name() + "-" + size);
                    try (RunningTarget fresh = RunningTarget.start(t, cpus, caseDir)) {
                        row(t.name(), fresh, e, size, cpus, caseDir.resolve(UploadsTargets.TMP));
                    }
                }
            }
        } finally {
            running.close();
        }
    }

    /** What {@link #check} answers for an endpoint that answered 404. */
    static final String NOT_SERVED = "not served";

    /**
     * The checks before timing: each of {@link #CHECK_SIZES}, framed by Content-Length and chunked,
     * must be answered {@code 200} with its exact byte count.
     *
     * @param port the target's port
     * @param e the endpoint
     * @return the problems; {@link #NOT_SERVED} alone when the first answer was 404
     */
    static List<String> check(int port, Endpoint e) {
        List<String> problems = new ArrayList<>();
        for (long size : CHECK_SIZES) {
            for (UploadRequest.Framing f : UploadRequest.Framing.values()) {
                UploadRequest req = new UploadRequest(e.method(), e.path(), body(e, size), f);
                try {
                    HttpAnswer a = UploadLoad.once("127.0.0.1", port, req);
                    if (a.status() == 404 && problems.isEmpty() && size == CHECK_SIZES.getFirst()) return List.of(NOT_SERVED);
                    UploadLoad.check(a, size).ifPresent(p -> problems.add(e.name() + " " + f.name().toLowerCase(Locale.ROOT) + ": " + p));
                } catch (IOException | RuntimeException ex) {
                    problems.add(e.name() + " " + size + " B " + f.name().toLowerCase(Locale.ROOT) + ": " + ex);
                }
            }
        }
        return problems;
    }

    private static UploadBody body(Endpoint e, long size) {
        return e.multipart() ? UploadBody.multipart(size) : UploadBody.raw(size);
    }

    private void row(String name, RunningTarget running, Endpoint e, long size, CpuSets cpus, Path tmp) {
        UploadRequest req = new UploadRequest(e.method(), e.path(), body(e, size), settings.framing());
        boolean large = UploadsSettings.large(size);
        int conns = large ? settings.largeConnections() : settings.connections();
        long warmNanos = large ? 0 : settings.warmupSeconds() * 1_000_000_000L;
        long windowNanos = large ? 0 : settings.durationSeconds() * 1_000_000_000L;
        try (UploadLoad load = new UploadLoad("127.0.0.1", running.port(), conns)) {
            UploadLoad.Phase warm = large ? (settings.largeWarmup() > 0 ? load.run(req, 0, settings.largeWarmup()) : null)
                    : (warmNanos > 0 ? load.run(req, warmNanos, 0) : null);
            CpuTimes before = CpuTimes.now();
            long s0 = ProcessCpu.ticks(running.pid());
            UploadLoad.Phase p = load.run(req, windowNanos, settings.largeCount());
            long s1 = ProcessCpu.ticks(running.pid());
            CpuTimes after = CpuTimes.now();
            long hwm = peakRssKb(running.pid());
            double busy = after.busyPercentSince(before, Set.copyOf(cpus.client()));
            List<String> problems = new ArrayList<>(p.problems());
            long errors = p.errors(), mismatches = p.mismatches();
            if (warm != null) {
                errors += warm.errors();
                mismatches += warm.mismatches();
                warm.problems().forEach(w -> problems.add("warm-up: " + w));
            }
            Row r = row(name, e.name(), size, settings.framing(), conns, p, ProcessCpu.micros(s1 - s0) / 1e6, hwm, errors, mismatches,
                    tempFilesLeft(tmp), busy, problems);
            rows.add(new RoundRow(round, r));
            if (mismatches > 0) failures.add(name + " " + e.name() + " " + UploadsSettings.label(size) + ": " + mismatches
                    + " answers with a wrong count, e.g. " + problems);
            out.printf(Locale.ROOT, "  %-22s %-8s %-18s %9.1f MB/s  server %7.2f ms/MiB  %8.1f MB/CPU-s  peak RSS %6.1f MiB  "
                            + "uploads %,d  errors %d  wrong counts %d%s%s%n", name, UploadsSettings.label(size), e.name(), r.mbPerSec(),
                    r.serverCpuMsPerMiB(), r.mbPerServerCpuSecond(), r.peakRssKb() / 1024.0, r.uploads(), r.errors(), r.mismatches(),
                    r.tempFilesLeft() > 0 ? "  temp files left " + r.tempFilesLeft() : "", r.clientBound() ? "  CLIENT-BOUND" : "");
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    /**
     * @return the row of a measured window, with the derived rates
     */
    static Row row(String target, String endpoint, long size, UploadRequest.Framing framing, int connections, UploadLoad.Phase p,
                   double serverCpuSeconds, long peakRssKb, long errors, long mismatches, long tempFilesLeft, double clientBusy,
                   List<String> problems) {
        double seconds = p.nanos() / 1e9;
        double mb = p.fileBytes() / 1e6, mib = p.fileBytes() / (1024.0 * 1024);
        return new Row(target, endpoint, size, framing.name().toLowerCase(Locale.ROOT).replace('_', '-'), connections, p.uploads(),
                p.fileBytes(), seconds, seconds > 0 ? mb / seconds : 0, serverCpuSeconds,
                mib > 0 ? 1000 * serverCpuSeconds / mib : Double.NaN, serverCpuSeconds > 0 ? mb / serverCpuSeconds : Double.NaN,
                peakRssKb, errors, mismatches, tempFilesLeft, clientBusy, clientBusy >= HeavyLoadSuite.CLIENT_BOUND_PERCENT,
                List.copyOf(problems.subList(0, Math.min(problems.size(), 10))));
    }

    /** @return VmHWM of the process, KiB, or -1 */
    static long peakRssKb(long pid) {
        return Host.read("/proc/" + pid + "/status").flatMap(s -> JvmReadings.field(s, "VmHWM")).orElse(-1L);
    }

    /**
     * Files left in a server's temp directory. A framework that deletes after the answer (on the
     * exchange's end) gets up to 2 s.
     */
    static long tempFilesLeft(Path tmp) {
        long deadline = System.nanoTime() + 2_000_000_000L;
        long n;
        do {
            n = countFiles(tmp);
            if (n == 0) return 0;
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return n;
            }
        } while (System.nanoTime() < deadline);
        return n;
    }

    /**
     * Regular files under {@code dir}, leaving out what a JVM puts there that is no upload: native
     * libraries unpacked from jars for the process's life ({@code *.so}: Netty's transport,
     * brotli4j's codec) and Vert.x's class-path cache ({@code vertx-cache-*}).
     */
    static long countFiles(Path dir) {
        if (!Files.isDirectory(dir)) return 0;
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(Files::isRegularFile).filter(p -> !p.getFileName().toString().endsWith(".so"))
                    .filter(p -> !dir.relativize(p).toString().startsWith("vertx-cache")).count();
        } catch (IOException | UncheckedIOException e) {
            return -1;
        }
    }

    private Map<String, Object> configuration(CpuSets cpus) {
        Map<String, Object> conf = new LinkedHashMap<>();
        conf.put("serverCpus", cpus.serverList());
        conf.put("loadGeneratorCpus", cpus.clientList());
        conf.put("serverIoThreads", cpus.server().size());
        conf.put("sizes", settings.sizes());
        conf.put("endpoints", settings.endpoints());
        conf.put("framing", settings.framing().name().toLowerCase(Locale.ROOT).replace('_', '-'));
        conf.put("connections", settings.connections());
        conf.put("largeConnections", settings.largeConnections());
        conf.put("largeBytes", UploadsSettings.LARGE_BYTES);
        conf.put("warmupSeconds", settings.warmupSeconds());
        conf.put("durationSeconds", settings.durationSeconds());
        conf.put("largeWarmupPerConnection", settings.largeWarmup());
        conf.put("largeCountPerConnection", settings.largeCount());
        conf.put("rounds", settings.rounds());
        conf.put("order", "each round runs every target once, the order rotated by one target per round; a row is the median over "
                + "rounds of each figure (errors and wrong counts summed), every round's rows are in roundRows");
        conf.put("peakRss", settings.restartPerCase() ? "VmHWM of a server started afresh for the case (its start, warm-up and window)"
                : "VmHWM of one server start per target: a case's figure is the peak over it and every case before it");
        conf.put("tmpFilesystem", filesystem());
        conf.put("generator", "UploadLoad: blocking sockets over 127.0.0.1 in the runner JVM (pinned to the generator CPUs), "
                + "one platform thread per keep-alive connection, one upload in flight per connection, no Expect: 100-continue; "
                + "bodies from a " + UploadBody.PERIOD + "-byte pattern (seed " + UploadBody.SEED + ") through a 64 KiB buffer per "
                + "connection; every answer checked against the file bytes sent");
        conf.put("tidemillModes", UploadsTargets.TIDEMILL_MODES);
        conf.put("jvmFlags", TargetCatalog.JVM_FLAGS);
        return conf;
    }

    /** @return the file system type of the temp directories' mount (a tmpfs "disk" is memory) */
    private static String filesystem() {
        return Host.output("df", "-T", System.getProperty("java.io.tmpdir"))
                .flatMap(s -> s.lines().skip(1).findFirst()).map(l -> l.trim().split("\\s+"))
                .filter(f -> f.length > 1).map(f -> f[1]).orElse("unknown");
    }
}
