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
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * One run of the throughput suite: preflight, then rounds; in each round every target once, in a
 * rotated order: start pinned, verify, warm up at full load alternating the scenarios, measure each
 * scenario with wrk, stop.
 */
public final class Suite {
    /** Load generator CPUs at or above this busy share make a window client-bound (percent). */
    static final double CLIENT_BOUND_PERCENT = 90.0;
    /** Attempts per window when steal spoils it: the first and at most two repeats. */
    static final int MAX_ATTEMPTS = 3;
    private static final double STARTUP_ESTIMATE_SECONDS = 3;

    private final Options options;
    private final PrintStream out;
    private final CpuSets cpus;
    private final List<Target> targets;
    private final Path work;
    private final Wrk wrk;
    private final List<Sample> samples = new ArrayList<>();
    private final List<WarmupPoint> warmup = new ArrayList<>();
    private final List<TargetRecord> records = new ArrayList<>();
    private final Path checkpoint;

    /**
     * @param options the command line
     * @param targets the targets to run, the baseline among them
     * @param cpus the CPU placement
     * @param out where progress goes
     */
    public Suite(Options options, List<Target> targets, CpuSets cpus, PrintStream out) {
        this.options = options;
        this.targets = targets;
        this.cpus = cpus;
        this.out = out;
        try {
            this.work = Files.createTempDirectory("tidemill-bench-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        this.wrk = new Wrk(cpus.clientList(), options.wrkThreads(), work.resolve("wrk"));
        this.checkpoint = options.resume() != null ? options.resume() : ResultFile.checkpointPath(options.outDir(), options.suite());
    }

    /**
     * Runs preflight and every round.
     *
     * @return the result (not yet written)
     * @throws IllegalStateException under {@code --strict} when a preflight check failed
     */
    public Result run() {
        String started = Instant.now().toString();
        out.println("tidemill bench: " + options.suite() + " suite, targets "
                + String.join(",", targets.stream().map(Target::name).toList()) + ", scenarios "
                + String.join(",", options.scenarios().stream().map(ScenarioRun::id).toList())
                + ", server CPUs " + cpus.serverList() + ", load generator CPUs " + cpus.clientList());
        List<Check> preflight = Preflight.run(cpus, options.maxConnections());
        Preflight.requireLoadGenerator(preflight);
        preflight.forEach(c -> out.printf("preflight %-18s %-7s %s%n", c.name(), c.verdict(), c.reading()));
        if (options.strict() && preflight.stream().anyMatch(Check::failed)) {
            throw new IllegalStateException("--strict: a preflight check failed; not measuring");
        }
        Map<String, Object> fingerprint = Fingerprint.take(cpus);
        List<Result.Segment> segments = new ArrayList<>();
        Set<Integer> done = new TreeSet<>();
        if (options.resume() != null) resume(segments, done);
        List<Integer> mine = new ArrayList<>();
        Progress progress = new Progress(out, plannedSeconds() * (options.rounds() - done.size()) / options.rounds());
        for (int round = 1; round <= options.rounds(); round++) {
            if (done.contains(round)) continue;
            for (int i = 0; i < targets.size(); i++) {
                Target t = targets.get((i + round - 1) % targets.size()); // rotate the order each round
                runTarget(t, round, progress);
            }
            mine.add(round);
            // a whole round at a time, so a resumed run never pairs a target with another invocation's baseline
            ResultFile.writeCheckpoint(result(started, fingerprint, preflight, segments, mine), checkpoint);
            out.println("checkpoint: " + checkpoint + " (rounds " + done + " + " + mine + "; --resume it to go on)");
        }
        return result(started, fingerprint, preflight, segments, mine);
    }

    /** @return where the checkpoint of this run is written after each complete round */
    public Path checkpoint() {
        return checkpoint;
    }

    private Result result(String started, Map<String, Object> fingerprint, List<Check> preflight,
                          List<Result.Segment> earlier, List<Integer> mine) {
        List<Result.Segment> segments = new ArrayList<>(earlier);
        if (!mine.isEmpty() || segments.isEmpty()) {
            segments.add(new Result.Segment(started, Instant.now().toString(), List.copyOf(mine), fingerprint, preflight));
        }
        List<SummaryRow> summary = Summary.of(samples, TargetCatalog.BASELINE);
        String first = segments.getFirst().startedUtc();
        return new Result(options.suite(), first, Instant.now().toString(), fingerprint, preflight, configuration(),
                List.copyOf(records), List.copyOf(warmup), List.copyOf(samples), summary, notMeasured(), segments);
    }

    /** Keeps the complete rounds of the checkpoint named by {@code --resume}, refusing one taken with other settings. */
    private void resume(List<Result.Segment> segments, Set<Integer> done) {
        Result prior = ResultFile.read(options.resume());
        Map<String, Object> now = configuration();
        for (String key : RESUME_MUST_MATCH) {
            String was = String.valueOf(prior.configuration().get(key));
            if (!was.equals(String.valueOf(now.get(key)))) {
                throw new IllegalArgumentException("cannot resume " + options.resume() + ": " + key + " was " + was
                        + ", now " + now.get(key) + " (use the same options)");
            }
        }
        if (prior.segments() != null) {
            for (Result.Segment s : prior.segments()) {
                segments.add(s);
                done.addAll(s.rounds());
            }
        }
        prior.samples().stream().filter(x -> done.contains(x.round())).forEach(samples::add);
        prior.warmup().stream().filter(x -> done.contains(x.round())).forEach(warmup::add);
        prior.targets().stream().filter(x -> done.contains(x.round())).forEach(records::add);
        out.println("resuming " + options.resume() + ": rounds " + done + " kept, measuring the rest");
    }

    /** Settings a resumed run must share with its checkpoint, or its rounds would not be comparable. */
    private static final List<String> RESUME_MUST_MATCH = List.of("quick", "rounds", "durationSeconds", "warmupSeconds",
            "connections", "wrkThreads", "serverCpus", "loadGeneratorCpus", "jvmFlags", "targets", "scenarios");

    private double plannedSeconds() {
        double total = 0;
        for (Target t : targets) total += perTargetSeconds(t);
        return total * options.rounds();
    }

    private double perTargetSeconds(Target t) {
        long scenarios = options.scenarios().stream().filter(t::runs).count();
        return STARTUP_ESTIMATE_SECONDS + warmupSeconds(t) + scenarios * (options.durationSeconds() + 0.5);
    }

    private int warmupSeconds(Target t) {
        // nginx has no JIT to warm: a short warm-up fills its caches, no more
        return t.jvm() ? options.warmupSeconds() : Math.min(options.warmupSeconds(), 5);
    }

    private void runTarget(Target t, int round, Progress progress) {
        List<ScenarioRun> scenarios = options.scenarios().stream().filter(t::runs).toList();
        if (scenarios.isEmpty()) return;
        progress.say(round, options.rounds(), t.name(), "idle check, starting");
        double idle = Preflight.serverBusyPercent(cpus, 500);
        double loadAtStart = Preflight.settledLoadPerCpu(options.settleSeconds());
        boolean untrustworthy = loadAtStart > Preflight.MAX_LOAD_PER_CPU;
        Path dir = work.resolve(t.name() + "-r" + round);
        try (RunningTarget running = RunningTarget.start(t, cpus, dir)) {
            List<String> problems = Verifier.check(running.port(), t.plaintextOnly());
            Target.Command launched = t.launch().at(running.port(), cpus.server().size(), dir);
            List<String> encodings = scenarios.contains(ScenarioRun.BROWSER_MIX) ? Verifier.encodings(running.port()) : List.of();
            encodings.forEach(e -> out.println("  " + t.name() + ", browser Accept-Encoding: " + e));
            records.add(new TargetRecord(t.name(), round, running.commandLine(), launched.env(), running.startupLines(),
                    idle, loadAtStart, problems, encodings));
            if (!problems.isEmpty()) {
                out.println("REFUSED " + t.name() + ": answers wrong, not timing it:");
                problems.forEach(p -> out.println("  " + p));
                progress.done(perTargetSeconds(t));
                return;
            }
            warmUp(running, scenarios, round, progress);
            for (ScenarioRun s : scenarios) {
                progress.say(round, options.rounds(), t.name(), "measuring " + s.id() + " (" + options.durationSeconds() + " s)");
                measure(running, s, round, untrustworthy);
                progress.done(options.durationSeconds() + 0.5);
            }
        } catch (RuntimeException e) {
            out.println("FAILED " + t.name() + " in round " + round + ": " + e.getMessage());
            records.add(new TargetRecord(t.name(), round, List.of(), Map.of(), List.of(), idle, loadAtStart,
                    List.of("failed: " + e.getMessage()), List.of()));
        }
        progress.done(STARTUP_ESTIMATE_SECONDS);
    }

    private void warmUp(RunningTarget running, List<ScenarioRun> scenarios, int round, Progress progress) {
        int total = warmupSeconds(running.target());
        int slice = options.quick() ? 2 : 5; // a point every few seconds keeps the curve readable
        double at = 0;
        int i = 0;
        while (at < total) {
            ScenarioRun s = scenarios.get(i++ % scenarios.size());
            int secs = (int) Math.min(slice, total - at);
            if (secs <= 0) break;
            progress.say(round, options.rounds(), running.target().name(),
                    "warm-up " + (int) at + "/" + total + " s (" + s.id() + ")");
            try {
                WrkResult r = Wrk.run(wrk.command(running.port(), s, s.connections(options.connections()), secs), secs);
                at += secs;
                warmup.add(new WarmupPoint(running.target().name(), round, s.id(), at, r.requestsPerSec()));
            } catch (RuntimeException e) {
                at += secs;
                out.println("  warm-up slice failed: " + e.getMessage());
            }
            progress.done(secs);
        }
    }

    private void measure(RunningTarget running, ScenarioRun s, int round, boolean untrustworthy) {
        int connections = s.connections(options.connections());
        List<String> cmd = wrk.command(running.port(), s, connections, options.durationSeconds());
        for (int attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
            Sample sample;
            try {
                sample = window(running, s, round, attempt, connections, cmd, untrustworthy);
            } catch (RuntimeException | IOException e) {
                out.println("  " + s.id() + " failed: " + e.getMessage());
                return;
            }
            out.printf("  %-14s %10.0f req/s  p50 %s  p99 %s  cpu %.1f us/req  cs/req %s vol %s invol%s  wrk cpu %.0f %%  steal %.2f %%%s%n",
                    s.id(), sample.requestsPerSec(), latency(sample.p50Us()), latency(sample.p99Us()),
                    sample.serverCpuUsPerRequest(), perRequest(sample.voluntarySwitchesPerRequest()),
                    perRequest(sample.involuntarySwitchesPerRequest()),
                    sample.wakeupsPerRequest() == null && sample.drainsPerRequest() == null ? ""
                            : "  wakeups/req " + perRequest(sample.wakeupsPerRequest()) + " drains/req "
                            + perRequest(sample.drainsPerRequest()),
                    sample.clientCpuPercent(), sample.stealPercent(),
                    sample.hasErrors() ? "  ERRORS " + sample.socketErrors() + " socket, " + sample.non2xx() + " non-2xx" : "");
            if (sample.stealPercent() > Preflight.MAX_STEAL_PERCENT && attempt < MAX_ATTEMPTS) {
                samples.add(sample.discard(String.format(java.util.Locale.ROOT, "steal %.2f %% > %.1f %%: repeated",
                        sample.stealPercent(), Preflight.MAX_STEAL_PERCENT)));
                continue;
            }
            samples.add(sample);
            return;
        }
    }

    private Sample window(RunningTarget running, ScenarioRun s, int round, int attempt, int connections, List<String> cmd,
                          boolean untrustworthy) throws IOException {
        // Tidemill's counters are read over HTTP, so outside the readings below: the two requests
        // that read them cost the server CPU and switches that must not count.
        boolean tidemill = running.target().kind().equals("tidemill");
        Optional<Map<String, Long>> diag0 = tidemill ? ServerDiagnostics.read(running.port()) : Optional.empty();
        double loadBefore = Host.loadPerCpu();
        CpuTimes before = CpuTimes.now();
        ContextSwitches switches0 = ContextSwitches.of(running.pid());
        long ticks0 = ProcessCpu.ticks(running.pid());
        WrkResult r = Wrk.run(cmd, options.durationSeconds());
        long ticks1 = ProcessCpu.ticks(running.pid());
        ContextSwitches switches = ContextSwitches.of(running.pid()).since(switches0);
        CpuTimes after = CpuTimes.now();
        double loadAfter = Host.loadPerCpu();
        Optional<Map<String, Long>> diag1 = tidemill ? ServerDiagnostics.read(running.port()) : Optional.empty();
        double cpuUs = ProcessCpu.micros(ticks1 - ticks0);
        double client = after.busyPercentSince(before, Set.copyOf(cpus.client()));
        long n = r.requests();
        return new Sample(running.target().name(), round, s.id(), attempt, false, "", connections, r.requests(), r.seconds(),
                r.requestsPerSec(), r.p50Us(), r.p99Us(), r.socketErrors(), r.non2xx(),
                r.requests() == 0 ? Double.NaN : cpuUs / r.requests(), 100 * cpuUs / (r.seconds() * 1e6), client,
                client >= CLIENT_BOUND_PERCENT, after.stealPercentSince(before), loadBefore, loadAfter, untrustworthy,
                String.join(" ", cmd), n == 0 ? null : (double) switches.voluntary() / n,
                n == 0 ? null : (double) switches.involuntary() / n,
                ServerDiagnostics.perRequest(diag0, diag1, ServerDiagnostics.WAKEUPS, n),
                ServerDiagnostics.perRequest(diag0, diag1, ServerDiagnostics.DRAINS, n),
                Double.isNaN(r.bytesPerResponse()) ? null : r.bytesPerResponse());
    }

    /** @param v a count per request, or null @return it with three decimals, or "-" */
    static String perRequest(Double v) {
        return v == null || v.isNaN() ? "-" : String.format(java.util.Locale.ROOT, "%.3f", v);
    }

    static String latency(double us) {
        if (Double.isNaN(us)) return "-";
        return us >= 1000 ? String.format(java.util.Locale.ROOT, "%.2f ms", us / 1000) : String.format(java.util.Locale.ROOT, "%.0f us", us);
    }

    private Map<String, Object> configuration() {
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("quick", options.quick());
        c.put("strict", options.strict());
        c.put("rounds", options.rounds());
        c.put("durationSeconds", options.durationSeconds());
        c.put("warmupSeconds", options.warmupSeconds());
        c.put("connections", options.connections());
        c.put("wrkThreads", options.wrkThreads());
        c.put("pipelineDepth", ScenarioRun.PIPELINE_DEPTH);
        c.put("serverCpus", cpus.serverList());
        c.put("loadGeneratorCpus", cpus.clientList());
        c.put("jvmFlags", TargetCatalog.JVM_FLAGS);
        c.put("targets", targets.stream().map(Target::name).toList());
        Map<String, String> sc = new LinkedHashMap<>();
        options.scenarios().forEach(s -> sc.put(s.id(), s.number() + ": " + s.description()));
        c.put("scenarios", sc);
        c.put("clientBoundAtPercent", CLIENT_BOUND_PERCENT);
        c.put("maxStealPercent", Preflight.MAX_STEAL_PERCENT);
        return c;
    }

    /** @return what this suite does not measure (other suites have their own result files) */
    static List<String> notMeasured() {
        return List.of("handler-cost sweep, imbalance, overload, memory and start: separate suites "
                        + "(./tidemill bench sweep | imbalance | overload | memory), each with its own result file",
                "TLS and HTTP/2 (not built yet); SSE and WebSocket: ./tidemill bench streams and bench live; compression: "
                        + "the browser-mix scenario (./tidemill bench pages) and ./tidemill bench compression",
                "machines other than the one in the fingerprint");
    }
}
