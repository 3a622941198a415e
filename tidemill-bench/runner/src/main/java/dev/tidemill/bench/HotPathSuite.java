package dev.tidemill.bench;

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
import java.util.stream.Stream;

/**
 * {@code ./tidemill bench hotpath}: what one request costs the server on the hot path, and where
 * it goes. About two thirds of a plaintext request's server CPU is in the kernel, so beside CPU per
 * request this suite counts what the kernel is asked to do: system calls per request by name, and
 * context switches per request, for Tidemill in IO and LOOP mode on epoll and on io_uring, raw
 * Netty ({@code baseline}) and Vert.x core.
 *
 * <p>Per round, every target once in a rotated order: start pinned, verify, warm up alternating
 * the scenarios, then per scenario a timed window (server CPU and context switches from
 * {@code /proc}, Tidemill's worker wakeups from its diagnostics, read just outside the window) and
 * after it a separate counting window under the tracer ({@link SyscallCounts}), whose own cost
 * never enters a CPU figure. {@link HotPathReport} takes medians over rounds and the per-round
 * ratios to Vert.x core and to raw Netty. Writes {@code <UTC>-hotpath.json} and {@code .md}.
 */
public final class HotPathSuite {
    /** Targets run by default. */
    static final List<String> TARGETS = List.of("tidemill-io", "tidemill-loop", TargetCatalog.BASELINE, "vertx-core",
            "tidemill-io-uring", "tidemill-loop-uring");

    /**
     * One scenario of one target in one round.
     *
     * @param target the target
     * @param round the round (1-based)
     * @param scenario the scenario id
     * @param requests requests in the timed window
     * @param requestsPerSec throughput in the timed window
     * @param serverCpuUsPerRequest utime + stime of the server over the timed window per request (microseconds)
     * @param clientCpuPercent the load generator's CPUs' busy share over the timed window
     * @param voluntaryPerRequest voluntary context switches per request (timed window, {@code /proc/<pid>/task/*})
     * @param involuntaryPerRequest involuntary context switches per request (same)
     * @param wakeupsPerRequest Tidemill's worker-loop wakeups per request (null for other targets)
     * @param drainsPerRequest Tidemill's reply drains per request (null for other targets)
     * @param counted the counting window
     */
    public record Row(String target, int round, String scenario, long requests, double requestsPerSec, double serverCpuUsPerRequest,
                      double clientCpuPercent, double voluntaryPerRequest, double involuntaryPerRequest, Double wakeupsPerRequest,
                      Double drainsPerRequest, SyscallCounts.Window counted) {}

    /**
     * What the suite wrote.
     *
     * @param suite {@code hotpath} or {@code hotpath-quick}
     * @param startedUtc start
     * @param finishedUtc end
     * @param command the command line
     * @param fingerprint host and software
     * @param preflight checks
     * @param configuration settings and method
     * @param targets each target's command line and startup lines, per round
     * @param rows every window
     * @param summary medians per target and scenario
     * @param failures what went wrong
     */
    public record Result(String suite, String startedUtc, String finishedUtc, String command, Map<String, Object> fingerprint,
                         List<Check> preflight, Map<String, Object> configuration, List<Map<String, Object>> targets, List<Row> rows,
                         List<HotPathReport.Summary> summary, List<String> failures) {}

    private final HotPathSettings settings;
    private final String command;
    private final PrintStream out;
    private final List<Row> rows = new ArrayList<>();
    private final List<Map<String, Object>> records = new ArrayList<>();
    private final List<String> failures = new ArrayList<>();

    /**
     * @param settings the options
     * @param command the command line, as recorded
     * @param out progress
     */
    public HotPathSuite(HotPathSettings settings, String command, PrintStream out) {
        this.settings = settings;
        this.command = command;
        this.out = out;
    }

    /**
     * Runs every round, then writes the files.
     *
     * @return the JSON file
     * @throws IllegalStateException before anything when a tool is missing
     */
    public Path run() {
        String tracer = settings.tracer() == SyscallCounts.Tracer.PERF ? "perf" : "strace";
        List<String> missing = Stream.of("wrk", "taskset", tracer).filter(t -> Host.executable(t).isEmpty()).toList();
        if (!missing.isEmpty()) throw new IllegalStateException("hotpath: missing " + String.join(", ", missing)
                + " (Debian: wrk, util-linux, linux-perf or strace)");
        String started = Instant.now().toString();
        CpuSets cpus = CpuSets.derive();
        List<Check> preflight = Preflight.run(cpus, settings.connections());
        Preflight.requireLoadGenerator(preflight);
        preflight.stream().filter(Check::failed).forEach(c -> out.println("preflight FAIL " + c.name() + ": " + c.reading()));
        Map<String, Object> fingerprint = Fingerprint.take(cpus);
        List<Target> targets = targets(cpus);
        Path work;
        try {
            work = Files.createTempDirectory("tidemill-bench-hotpath-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Wrk wrk = new Wrk(cpus.clientList(), 1, work.resolve("wrk"));
        out.printf(Locale.ROOT, "hotpath: %s; %s; %d round(s), %d s warm-up, %d s timed + %d s counted (%s) per scenario; server CPUs %s, "
                        + "generator CPUs %s%n", String.join(",", settings.targets()), String.join(",", settings.scenarios()),
                settings.rounds(), settings.warmupSeconds(), settings.durationSeconds(), settings.countSeconds(), tracer,
                cpus.serverList(), cpus.clientList());
        for (int round = 1; round <= settings.rounds(); round++) {
            for (int i = 0; i < targets.size(); i++) {
                Target t = targets.get((i + round - 1) % targets.size()); // rotate the order each round
                runTarget(t, round, cpus, wrk, work.resolve(t.name() + "-r" + round));
            }
        }
        List<HotPathReport.Summary> summary = HotPathReport.summarise(rows);
        Result result = new Result(settings.suite(), started, Instant.now().toString(), command, fingerprint, preflight,
                configuration(cpus), records, rows, summary, failures);
        Path json = ResultFile.write(settings.outDir(), settings.suite(), result, HotPathReport.page(result));
        out.println();
        out.print(HotPathReport.tables(result));
        return json;
    }

    /**
     * The default targets and any others the catalogue knows; {@code -uring} targets run Tidemill on
     * io_uring, {@code -uring-rings} on io_uring with its buffer ring (not run unless named).
     */
    private List<Target> targets(CpuSets cpus) {
        TargetCatalog catalog = new TargetCatalog(Path.of(""), System.getProperty("java.class.path"));
        List<Target> out = new ArrayList<>();
        for (String name : settings.targets()) {
            if (name.startsWith("tidemill-") && name.endsWith(HotPathReport.URING_RINGS)) {
                String mode = name.substring("tidemill-".length(), name.length() - HotPathReport.URING_RINGS.length());
                out.add(TargetCatalog.tidemill(name, Map.of("TIDEMILL_MODE", mode, "TIDEMILL_TRANSPORT", "io_uring_buffer_ring"),
                        cpus.server().size()));
            } else if (name.startsWith("tidemill-") && name.endsWith(HotPathReport.URING)) {
                String mode = name.substring("tidemill-".length(), name.length() - HotPathReport.URING.length());
                out.add(TargetCatalog.tidemill(name, Map.of("TIDEMILL_MODE", mode, "TIDEMILL_TRANSPORT", "io_uring"), cpus.server().size()));
            } else {
                out.add(catalog.all().stream().filter(t -> t.name().equals(name)).findFirst().orElseThrow(() ->
                        new IllegalArgumentException("unknown target " + name + " (a peer must be built: ./tidemill bench builds them)")));
            }
        }
        return out;
    }

    private void runTarget(Target t, int round, CpuSets cpus, Wrk wrk, Path dir) {
        out.printf(Locale.ROOT, "round %d/%d  %s%n", round, settings.rounds(), t.name());
        try (RunningTarget running = RunningTarget.start(t, cpus, dir)) {
            Map<String, Object> record = new LinkedHashMap<>();
            record.put("target", t.name());
            record.put("round", round);
            record.put("commandLine", running.commandLine());
            record.put("env", t.launch().at(running.port(), cpus.server().size(), dir).env());
            record.put("startupLines", running.startupLines());
            List<String> problems = Verifier.check(running.port(), false);
            record.put("problems", problems);
            records.add(record);
            if (!problems.isEmpty()) {
                failures.add(t.name() + " round " + round + ": answers wrong: " + problems);
                return;
            }
            List<ScenarioRun> scenarios = settings.scenarios().stream().map(ScenarioRun::byId).toList();
            for (int at = 0, i = 0; at < settings.warmupSeconds(); i++) {
                int secs = Math.min(5, settings.warmupSeconds() - at);
                ScenarioRun s = scenarios.get(i % scenarios.size());
                Wrk.run(wrk.command(running.port(), s, settings.connections(), secs), secs);
                at += secs;
            }
            for (ScenarioRun s : scenarios) rows.add(measure(running, s, round, cpus, wrk, dir));
        } catch (RuntimeException | IOException e) {
            out.println("FAILED " + t.name() + " in round " + round + ": " + e.getMessage());
            failures.add(t.name() + " round " + round + ": " + e.getMessage());
        }
    }

    private Row measure(RunningTarget running, ScenarioRun s, int round, CpuSets cpus, Wrk wrk, Path dir) throws IOException {
        boolean tidemill = running.target().kind().equals("tidemill");
        Optional<Map<String, Long>> diag0 = tidemill ? ServerDiagnostics.read(running.port()) : Optional.empty();
        CpuTimes before = CpuTimes.now();
        ContextSwitches switches0 = ContextSwitches.of(running.pid());
        long ticks0 = ProcessCpu.ticks(running.pid());
        WrkResult r = Wrk.run(wrk.command(running.port(), s, settings.connections(), settings.durationSeconds()), settings.durationSeconds());
        long ticks1 = ProcessCpu.ticks(running.pid());
        ContextSwitches switches = ContextSwitches.of(running.pid()).since(switches0);
        double client = CpuTimes.now().busyPercentSince(before, java.util.Set.copyOf(cpus.client()));
        Optional<Map<String, Long>> diag1 = tidemill ? ServerDiagnostics.read(running.port()) : Optional.empty();
        long n = Math.max(1, r.requests());
        SyscallCounts.Window counted = SyscallCounts.count(settings.tracer(), running.pid(),
                wrk.command(running.port(), s, settings.connections(), settings.countSeconds()), settings.countSeconds(), dir);
        Row row = new Row(running.target().name(), round, s.id(), r.requests(), r.requestsPerSec(), ProcessCpu.micros(ticks1 - ticks0) / n,
                client, (double) switches.voluntary() / n, (double) switches.involuntary() / n,
                ServerDiagnostics.perRequest(diag0, diag1, ServerDiagnostics.WAKEUPS, n),
                ServerDiagnostics.perRequest(diag0, diag1, ServerDiagnostics.DRAINS, n), counted);
        out.printf(Locale.ROOT, "  %-10s %9.0f req/s  cpu %.2f us/req  cs/req %.4f vol %.4f invol  syscalls/req %.3f (%s)%n", s.id(),
                row.requestsPerSec(), row.serverCpuUsPerRequest(), row.voluntaryPerRequest(), row.involuntaryPerRequest(),
                (double) counted.total() / Math.max(1, counted.wrk().requests()), HotPathReport.top(counted, 4));
        return row;
    }

    private Map<String, Object> configuration(CpuSets cpus) {
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("quick", settings.quick());
        c.put("rounds", settings.rounds());
        c.put("warmupSeconds", settings.warmupSeconds());
        c.put("durationSeconds", settings.durationSeconds());
        c.put("countSeconds", settings.countSeconds());
        c.put("connections", settings.connections());
        c.put("wrkThreads", 1);
        c.put("tracer", settings.tracer());
        c.put("serverCpus", cpus.serverList());
        c.put("loadGeneratorCpus", cpus.clientList());
        c.put("jvmFlags", TargetCatalog.JVM_FLAGS);
        c.put("targets", settings.targets());
        c.put("scenarios", settings.scenarios());
        c.put("method", List.of(
                "every target its own process with the same JVM flags, pinned to the server CPUs; wrk -t1 on the others",
                "per round every target once, in a rotated order; warm-up alternating the scenarios in 5 s slices",
                "timed window: utime + stime of /proc/<pid>/stat and voluntary/nonvoluntary_ctxt_switches of /proc/<pid>/task/*/status "
                        + "over the window, per request; Tidemill's worker wakeups and reply drains from GET /_diagnostics just outside it",
                "counting window, right after the timed one and never used for CPU: perf stat -e 'syscalls:sys_enter_*,"
                        + "context-switches,cpu-migrations' -p <pid> -- wrk (or strace -c -f -p <pid> around wrk), divided by wrk's requests",
                "ratios: median over rounds of the per-round ratio of server CPU per request (target / reference)"));
        return c;
    }
}
