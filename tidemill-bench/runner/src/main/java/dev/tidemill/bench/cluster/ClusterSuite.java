package dev.tidemill.bench.cluster;

import dev.tidemill.bench.Check;
import dev.tidemill.bench.CpuSets;
import dev.tidemill.bench.Fingerprint;
import dev.tidemill.bench.Preflight;
import dev.tidemill.bench.ResultFile;
import dev.tidemill.bench.RunningTarget;
import dev.tidemill.bench.TargetCatalog;
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

/**
 * {@code ./tidemill bench cluster}: SSE fan-out across two Tidemill nodes that share a topic on Redis,
 * against the same load on one node with the topic in process and on two plain Redis pub/sub relays
 * (the floor), then Redis killed under load ({@link ClusterMeasure}). One redis-server for the run,
 * started by the suite in a directory of its own and stopped at the end. Writes
 * {@code <UTC>-cluster.json} and {@code .md}; {@code bench report} puts the page into
 * docs/performance.md.
 */
public final class ClusterSuite {
    /**
     * What the suite wrote.
     *
     * @param suite {@code cluster} or {@code cluster-quick}
     * @param quick whether it was a quick run
     * @param startedUtc start
     * @param finishedUtc end
     * @param command the command line
     * @param fingerprint host and software
     * @param preflight checks
     * @param configuration settings, placement, systems, Redis
     * @param targets per system: each node's command line and first lines of output
     * @param rows the fan-out rows
     * @param fault the fault row, or null
     * @param comparisons Tidemill on Redis against the relay, per load
     * @param goals the goals and whether they were met
     * @param notMeasured what was not measured, and why
     * @param failures what failed
     */
    public record Result(String suite, boolean quick, String startedUtc, String finishedUtc, String command, Map<String, Object> fingerprint,
                         List<Check> preflight, Map<String, Object> configuration, List<Map<String, Object>> targets,
                         List<ClusterRows.Row> rows, ClusterRows.Fault fault, List<ClusterReport.Comparison> comparisons,
                         List<ClusterReport.Goal> goals, List<String> notMeasured, List<String> failures) {}

    private final ClusterSettings settings;
    private final String command;
    private final PrintStream out;
    private final List<ClusterRows.Row> rows = new ArrayList<>();
    private final List<Map<String, Object>> targets = new ArrayList<>();
    private final List<String> notMeasured = new ArrayList<>();
    private final List<String> failures = new ArrayList<>();
    private ClusterRows.Fault fault;

    /**
     * @param settings the options
     * @param command the command line, as recorded
     * @param out progress
     */
    public ClusterSuite(ClusterSettings settings, String command, PrintStream out) {
        this.settings = settings;
        this.command = command;
        this.out = out;
    }

    /**
     * Runs every system, then writes the files.
     *
     * @return the JSON file
     * @throws IllegalStateException before anything when redis-server or the cluster class path is missing; after writing
     *     the files, when a system or row failed
     */
    public Path run() {
        Path program = RedisProcess.program().orElseThrow(() -> new IllegalStateException(
                "cluster: redis-server is not on the PATH (Debian: apt-get install -y --no-install-recommends redis-server)"));
        String started = Instant.now().toString();
        CpuSets cpus = CpuSets.derive();
        ClusterTargets.clusterClassPath(settings.repoRoot()); // refused here, before the preflight's wait, when it is missing
        out.println("cluster: server CPUs " + cpus.serverList() + " (every node and redis-server), client CPUs " + cpus.clientList()
                + "; systems " + String.join(", ", settings.targets()) + "; loads " + settings.loads());
        // The shared preflight checks for wrk, which this suite does not use; it needs redis-server instead.
        List<Check> preflight = new ArrayList<>(Preflight.run(cpus, settings.maxConnections()));
        preflight.replaceAll(c -> c.name().equals("wrk") ? new Check("redis-server", "pass", program.toString(), "installed") : c);
        preflight.stream().filter(Check::failed).forEach(c -> out.println("preflight FAIL " + c.name() + ": " + c.reading()));
        Map<String, Object> fingerprint = Fingerprint.take(cpus);
        Path work;
        try {
            work = Files.createTempDirectory("tidemill-bench-cluster-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String redisVersion, transport;
        List<String> redisCommand;
        try (RedisProcess redis = RedisProcess.start(program, work.resolve("redis"), cpus);
             ClientLoop subscriberLoop = new ClientLoop("bench-subscribers");
             ClientLoop publisherLoop = new ClientLoop("bench-publisher")) {
            redisVersion = redis.version();
            redisCommand = redis.commandLine();
            transport = subscriberLoop.transport();
            out.println("cluster: " + redisVersion + " on " + redis.url());
            ClusterMeasure m = new ClusterMeasure(subscriberLoop, publisherLoop, cpus);
            for (String name : settings.targets()) {
                try {
                    system(ClusterTargets.spec(name), m, redis, cpus, work.resolve(name));
                } catch (RuntimeException e) {
                    out.println("FAILED " + name + ": " + e.getMessage());
                    failures.add(name + ": " + e.getMessage());
                }
            }
        }
        if (settings.fault() && !settings.targets().contains(ClusterTargets.TIDEMILL_REDIS)) {
            notMeasured.add("the fault row: it runs on " + ClusterTargets.TIDEMILL_REDIS + ", which was not asked for");
        }
        List<ClusterReport.Comparison> comparisons = ClusterReport.comparisons(rows);
        Result result = new Result(settings.suite(), settings.quick(), started, Instant.now().toString(), command, fingerprint, preflight,
                configuration(cpus, transport, redisVersion, redisCommand), List.copyOf(targets), List.copyOf(rows), fault, comparisons,
                ClusterReport.goals(rows, fault), List.copyOf(notMeasured), List.copyOf(failures));
        Path json = ResultFile.write(settings.outDir(), result.suite(), result, ClusterReport.page(result));
        out.println();
        out.print(ClusterReport.console(result));
        if (!failures.isEmpty()) throw new IllegalStateException("cluster: the run failed (" + String.join("; ", failures) + "); results in " + json);
        return json;
    }

    /** One system: its nodes started, the JIT warm-up, each load, the fault row (on Redis), its nodes stopped. */
    private void system(ClusterTargets.Spec spec, ClusterMeasure m, RedisProcess redis, CpuSets cpus, Path dir) {
        Preflight.serverBusyPercent(cpus, 300);
        int conns = settings.maxConnections();
        RunningTarget a = RunningTarget.start(ClusterTargets.node(spec, "a", redis.url(), conns, settings.repoRoot()), cpus, dir.resolve("a"));
        RunningTarget b = null;
        try {
            b = spec.nodes() == 1 ? a : RunningTarget.start(ClusterTargets.node(spec, "b", redis.url(), conns, settings.repoRoot()), cpus,
                    dir.resolve("b"));
            ClusterMeasure.Nodes nodes = new ClusterMeasure.Nodes(a, b, spec.redis() ? redis : null);
            out.println(spec.name() + ": " + (b == a ? "node on port " + a.port() : "node A on port " + a.port() + ", node B on port " + b.port()));
            if (settings.jitSeconds() > 0) { // compiled code for the rows; not recorded
                m.fanout(spec.name(), nodes, ClusterSettings.JIT_LOAD.subscribers(), ClusterSettings.JIT_LOAD.rate(), 0, settings.jitSeconds());
            }
            for (ClusterSettings.Load load : settings.loads()) {
                try {
                    ClusterRows.Row r = m.fanout(spec.name(), nodes, load.subscribers(), load.rate(), settings.warmupSeconds(),
                            settings.durationSeconds());
                    rows.add(r);
                    out.println(ClusterReport.line(r));
                } catch (RuntimeException e) {
                    out.println("  " + load + " FAILED: " + e.getMessage());
                    failures.add(spec.name() + " " + load + ": " + e.getMessage());
                }
            }
            if (settings.fault() && spec.name().equals(ClusterTargets.TIDEMILL_REDIS)) {
                out.println(spec.name() + ": killing Redis under load (" + settings.faultSubscribers() + " subscribers, " + settings.faultRate() + "/s)");
                fault = m.fault(nodes, settings.faultSubscribers(), settings.faultRate(), settings.faultBeforeSeconds(),
                        settings.faultDownMillis(), settings.faultAfterSeconds());
            }
        } finally {
            // what each node said when it started, read once it has surely said it
            Map<String, Object> rec = new LinkedHashMap<>();
            rec.put("target", spec.name());
            rec.put("what", spec.what());
            rec.put("nodeA", Map.of("commandLine", a.commandLine(), "startup", a.startupLines()));
            if (b != null && b != a) rec.put("nodeB", Map.of("commandLine", b.commandLine(), "startup", b.startupLines()));
            targets.add(rec);
            if (b != null && b != a) b.close();
            a.close();
        }
    }

    private Map<String, Object> configuration(CpuSets cpus, String transport, String redisVersion, List<String> redisCommand) {
        Map<String, Object> conf = new LinkedHashMap<>();
        conf.put("serverCpus", cpus.serverList());
        conf.put("clientCpus", cpus.clientList());
        conf.put("serverIoThreads", cpus.server().size());
        conf.put("warmupSeconds", settings.warmupSeconds());
        conf.put("durationSeconds", settings.durationSeconds());
        conf.put("jitSeconds", settings.jitSeconds());
        conf.put("jitLoad", ClusterSettings.JIT_LOAD.toString());
        Map<String, String> systems = new LinkedHashMap<>();
        settings.targets().forEach(t -> systems.put(t, ClusterTargets.spec(t).what()));
        conf.put("systems", systems);
        conf.put("client", "two Netty event loops (" + transport + ") in the runner JVM, one for every subscriber (raw bytes after the "
                + "response head, chunked framing and lines read in place) and one for the publisher (keep-alive HTTP/1.1, one POST in "
                + "flight per connection, at most " + Publisher.MAX_CONNECTIONS + " connections, the schedule checked every millisecond); "
                + "HdrHistogram, 3 digits");
        conf.put("redis", redisVersion.replaceFirst(" sha=.*", "") + ", started by the suite: `redis-server " + String.join(" ",
                RedisProcess.SETTINGS.stream().map(s -> s.isEmpty() ? "\"\"" : s).toList()) + "` on 127.0.0.1, a free port and a "
                + "directory of its own, pinned to CPUs " + cpus.serverList());
        conf.put("redisCommandLine", redisCommand);
        conf.put("faultRow", settings.fault() ? Map.of("subscribers", settings.faultSubscribers(), "rate", settings.faultRate(),
                "beforeSeconds", settings.faultBeforeSeconds(), "downMillis", settings.faultDownMillis(), "afterSeconds",
                settings.faultAfterSeconds()) : "not run");
        conf.put("settings", settings);
        conf.put("jvmFlags", TargetCatalog.JVM_FLAGS);
        return conf;
    }
}
