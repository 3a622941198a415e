package dev.tidemill.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * {@code ./tidemill bench}: runs the suite ({@code [--quick] [--strict] [--targets a,b]
 * [--scenarios x,y] [--rounds N] [--duration S] [--warmup S]}), {@code bench machine} prints the
 * fingerprint and preflight, {@code bench sweep | imbalance | overload | memory} run the suites that
 * measure what the references never did, {@code bench streams} the SSE
 * and WebSocket suite ({@link dev.tidemill.bench.streams.StreamsSuite}), {@code bench compression}
 * the CPU cost of a compressed response ({@link CompressionCost}), {@code bench html} the JMH render
 * benchmark ({@link HtmlSuite}), {@code bench pages} the page and the browser mix with and without
 * compression, {@code bench heavy} the heavy fixed-rate load ({@link HeavyLoadSuite}),
 * {@code bench live} the Datastar SSE fan-out, {@code bench ratelimit} a rate limit under many
 * client addresses ({@link RateLimitSuite}), {@code bench metrics} plaintext with metrics on and
 * off ({@link MetricsCost}), {@code bench uploads} raw and multipart upload throughput
 * ({@link UploadsSuite}), {@code bench tls} TLS and HTTP/2 against plaintext HTTP/1.1 ({@link TlsSuite}),
 * {@code bench cluster} SSE fan-out across two nodes on Redis ({@link dev.tidemill.bench.cluster.ClusterSuite}),
 * {@code bench mcp} a tool call against the same route over plain HTTP, idle sessions and aborted calls ({@link McpSuite}),
 * {@code bench controllers} a controller route against the identical DSL route, start-up with generated controllers and javac
 * with the processor ({@link ControllersSuite}),
 * {@code bench hotpath} server CPU, system calls and context switches per request ({@link HotPathSuite}),
 * {@code bench loops} the event-loop matrix: callbacks, tasks and network rows on every loop and server ({@link LoopsSuite}),
 * {@code bench report} regenerates
 * docs/performance.md from the latest full result of each.
 */
public final class BenchMain {
    private BenchMain() {}

    /**
     * @param args the arguments after {@code bench}
     * @throws IOException if a file cannot be written
     */
    public static void main(String[] args) throws IOException {
        List<String> list = List.of(args);
        try {
            if (!list.isEmpty() && list.get(0).equals("machine")) {
                machine(Options.parse(list.subList(1, list.size())), System.out);
            } else if (!list.isEmpty() && list.get(0).equals("sweep")) {
                System.out.println("results: " + Sweep.run(list.subList(1, list.size()), System.out) + " (+ .md)");
            } else if (!list.isEmpty() && list.get(0).equals("imbalance")) {
                System.out.println("results: " + new ImbalanceSuite(ImbalanceSuite.Settings.parse(list.subList(1, list.size())), System.out).run() + " (+ .md)");
            } else if (!list.isEmpty() && list.get(0).equals("overload")) {
                System.out.println("results: " + new OverloadSuite(OverloadSuite.Settings.parse(list.subList(1, list.size())), System.out).run() + " (+ .md)");
            } else if (!list.isEmpty() && list.get(0).equals("footprint")) {
                System.out.println("results: " + new FootprintSuite(FootprintSuite.Settings.parse(list.subList(1, list.size())), System.out).run() + " (+ .md)");
            } else if (!list.isEmpty() && list.get(0).equals("memory")) {
                System.out.println("results: " + new MemorySuite(MemorySuite.Settings.parse(list.subList(1, list.size())), System.out).run() + " (+ .md)");
            } else if (!list.isEmpty() && list.get(0).equals("streams")) {
                keepOffServerCpus(CpuSets.derive(), System.out); // the streams client runs in this JVM
                String command = String.join(" ", java.util.stream.Stream.concat(java.util.stream.Stream.of("./tidemill", "bench"),
                        list.stream()).toList());
                System.out.println("results: " + new dev.tidemill.bench.streams.StreamsSuite(dev.tidemill.bench.streams.StreamsSettings
                        .parse(list.subList(1, list.size())), command, System.out).run() + " (+ .md)");
            } else if (!list.isEmpty() && list.get(0).equals("live")) {
                keepOffServerCpus(CpuSets.derive(), System.out); // the SSE client runs in this JVM
                System.out.println("results: " + new dev.tidemill.bench.streams.StreamsSuite(dev.tidemill.bench.streams.StreamsSettings
                        .parseLive(list.subList(1, list.size())), commandLine(list), System.out).run() + " (+ .md)");
            } else if (!list.isEmpty() && list.get(0).equals("html")) {
                String command = String.join(" ", java.util.stream.Stream.concat(java.util.stream.Stream.of("./tidemill", "bench"),
                        list.stream()).toList());
                System.out.println("results: " + HtmlSuite.run(HtmlSuite.Settings.parse(list.subList(1, list.size())), command,
                        System.out) + " (+ .md)");
            } else if (!list.isEmpty() && list.get(0).equals("compression")) {
                CompressionCost.run(list.subList(1, list.size()), System.out);
            } else if (!list.isEmpty() && list.get(0).equals("heavy")) {
                keepOffServerCpus(CpuSets.derive(), System.out); // the generator runs in this JVM
                System.out.println("results: " + new HeavyLoadSuite(HeavyLoadSuite.Settings.parse(list.subList(1, list.size())),
                        commandLine(list), System.out).run() + " (+ .md)");
            } else if (!list.isEmpty() && list.get(0).equals("ratelimit")) {
                keepOffServerCpus(CpuSets.derive(), System.out); // the generator runs in this JVM
                System.out.println("results: " + new RateLimitSuite(RateLimitSuite.Settings.parse(list.subList(1, list.size())),
                        commandLine(list), System.out).run() + " (+ .md)");
            } else if (!list.isEmpty() && list.get(0).equals("uploads")) {
                keepOffServerCpus(CpuSets.derive(), System.out); // the upload generator runs in this JVM
                System.out.println("results: " + new UploadsSuite(UploadsSettings.parse(list.subList(1, list.size())),
                        commandLine(list), System.out).run() + " (+ .md)");
            } else if (!list.isEmpty() && list.get(0).equals("tls")) {
                keepOffServerCpus(CpuSets.derive(), System.out); // the checks and the clients' parent run in this JVM
                System.out.println("results: " + new TlsSuite(TlsSettings.parse(list.subList(1, list.size())),
                        commandLine(list), System.out).run() + " (+ .md)");
            } else if (!list.isEmpty() && list.get(0).equals("auth")) {
                keepOffServerCpus(CpuSets.derive(), System.out); // the checks and the key-set endpoint run in this JVM
                System.out.println("results: " + new AuthSuite(AuthSettings.parse(list.subList(1, list.size())),
                        commandLine(list), System.out).run() + " (+ .md)");
            } else if (!list.isEmpty() && list.get(0).equals("cluster")) {
                keepOffServerCpus(CpuSets.derive(), System.out); // the subscribers and the publisher run in this JVM
                System.out.println("results: " + new dev.tidemill.bench.cluster.ClusterSuite(dev.tidemill.bench.cluster.ClusterSettings
                        .parse(list.subList(1, list.size())), commandLine(list), System.out).run() + " (+ .md)");
            } else if (!list.isEmpty() && list.get(0).equals("mcp")) {
                keepOffServerCpus(CpuSets.derive(), System.out); // the checks, the sessions' and the aborted calls' clients run in this JVM
                System.out.println("results: " + new McpSuite(McpSettings.parse(list.subList(1, list.size())),
                        commandLine(list), System.out).run() + " (+ .md)");
            } else if (!list.isEmpty() && list.get(0).equals("controllers")) {
                keepOffServerCpus(CpuSets.derive(), System.out); // the checks, the generator and the start-up and javac processes' parent run in this JVM
                System.out.println("results: " + new ControllersSuite(ControllersSettings.parse(list.subList(1, list.size())),
                        commandLine(list), System.out).run() + " (+ .md)");
            } else if (!list.isEmpty() && list.get(0).equals("loops")) {
                keepOffServerCpus(CpuSets.derive(), System.out); // the network rows' client runs in this JVM
                System.out.println("results: " + new LoopsSuite(LoopsSettings.parse(list.subList(1, list.size())), commandLine(list),
                        System.out).run() + " (+ .md)");
            } else if (!list.isEmpty() && list.get(0).equals("auto")) {
                System.out.println("results: " + new AutoSuite(AutoSuite.Settings.parse(list.subList(1, list.size())), System.out)
                        .run(commandLine(list)) + " (+ .md)");
            } else if (!list.isEmpty() && list.get(0).equals("hotpath")) {
                keepOffServerCpus(CpuSets.derive(), System.out); // the tracer and wrk's parent run in this JVM's CPUs
                System.out.println("results: " + new HotPathSuite(HotPathSettings.parse(list.subList(1, list.size())),
                        commandLine(list), System.out).run() + " (+ .md)");
            } else if (!list.isEmpty() && list.get(0).equals("pages")) {
                Path json = run(Options.parsePages(list.subList(1, list.size())), System.out);
                System.out.println("results: " + json + " (+ .md, .svg)");
            } else if (!list.isEmpty() && list.get(0).equals("metrics")) {
                Path json = run(Options.parseMetrics(list.subList(1, list.size())), System.out);
                Path md = json.resolveSibling(json.getFileName().toString().replaceFirst("\\.json$", ".md"));
                String cost = MetricsCost.of(ResultFile.read(json));
                Files.writeString(md, Files.readString(md) + "\n## Metrics on against off\n\n" + cost);
                System.out.println("\n" + cost + "results: " + json + " (+ .md, .svg)");
            } else if (!list.isEmpty() && list.get(0).equals("report")) {
                report(Options.parse(list.subList(1, list.size())), System.out);
            } else if (!list.isEmpty() && (list.get(0).equals("help") || list.get(0).equals("--help"))) {
                System.out.println("usage: ./tidemill bench [--quick] [--strict] [--targets a,b] [--scenarios x,y] "
                        + "[--rounds N] [--duration S] [--warmup S] [--connections N] [--out DIR] [--resume CHECKPOINT]\n"
                        + "       ./tidemill bench machine | report | compression [--seconds S] [--file PATH]\n"
                        + "       ./tidemill bench metrics [--quick] [--rounds N] [--duration S] [--warmup S] (plaintext, metrics on and off)\n"
                        + "       ./tidemill bench imbalance [--quick] [--rate N] [--connections N] [--duration S] [--warmup S] [--out DIR]\n"
                        + "       ./tidemill bench sweep [--quick] [--costs us,..] [--workers n,..] [--modes loop,virtual,io]\n"
                        + "       ./tidemill bench overload [--quick] [--duration S] [--warmup S] [--out DIR]\n"
                        + "       ./tidemill bench footprint [--quick] [--starts N] [--out DIR]\n"
                        + "       ./tidemill bench memory [--quick] [--starts N] [--connections N] [--targets a,b,a-aot] [--out DIR]\n"
                        + "       ./tidemill bench streams [--quick] [--targets a,b] [--scenarios fanout,echo,isolation] [--subscribers n,..] "
                        + "[--deliveries N] [--rate N] [--connections n,..] [--sizes bytes,..] [--duration S] [--echo-warmup S] [--warmup S] "
                        + "[--isolation-subscribers N] [--isolation-events N] [--isolation-rate N] [--out DIR]\n"
                        + "       ./tidemill bench pages [--quick] [--targets a,b] [--rounds N] [--duration S] [--warmup S] [--out DIR]"
                        + " (page, mix, browser-mix)\n"
                        + "       ./tidemill bench heavy [--quick] [--targets a,b] [--connections N] [--interval S] [--ramp S] "
                        + "[--duration S] [--warmup S] [--out DIR]\n"
                        + "       ./tidemill bench ratelimit [--quick] [--rate N] [--connections N] [--addresses N] [--rounds N] "
                        + "[--ramp S] [--duration S] [--out DIR]\n"
                        + "       ./tidemill bench uploads " + UploadsSettings.USAGE + "\n"
                        + "       ./tidemill bench tls " + TlsSettings.USAGE + "\n"
                        + "       ./tidemill bench auth " + AuthSettings.USAGE + "\n"
                        + "       ./tidemill bench cluster " + dev.tidemill.bench.cluster.ClusterSettings.USAGE + "\n"
                        + "       ./tidemill bench mcp " + McpSettings.USAGE + "\n"
                        + "       ./tidemill bench controllers " + ControllersSettings.USAGE + "\n"
                        + "       ./tidemill bench hotpath " + HotPathSettings.USAGE + "\n"
                        + "       ./tidemill bench loops " + LoopsSettings.USAGE + "\n"
                        + "       ./tidemill bench live [--quick] [--targets a,b] [--datastar-subscribers N] [--datastar-events N] "
                        + "[--datastar-rate N] [--warmup S] [--out DIR]\n"
                        + "       ./tidemill bench html [--quick] [--engines a,b] [--forks N] [--warmup-iterations N] [--warmup S] "
                        + "[--iterations N] [--duration S] [--cpu N] [--out DIR]\nscenarios: "
                        + String.join(",", ScenarioRun.all().stream().map(ScenarioRun::id).toList()));
            } else {
                Path json = run(Options.parse(list), System.out);
                System.out.println("results: " + json + " (+ .md, .svg)");
            }
        } catch (IllegalArgumentException | IllegalStateException e) {
            System.err.println("tidemill bench: " + e.getMessage());
            System.exit(1);
        }
    }

    /** @param args the arguments after {@code bench} @return the command line as recorded in result files */
    static String commandLine(List<String> args) {
        return String.join(" ", java.util.stream.Stream.concat(java.util.stream.Stream.of("./tidemill", "bench"), args.stream()).toList());
    }

    /**
     * Runs the suite and writes the result files.
     *
     * @param options the command line
     * @param out progress
     * @return the JSON result file
     */
    public static Path run(Options options, PrintStream out) {
        TargetCatalog catalog = new TargetCatalog(options.repoRoot(), System.getProperty("java.class.path"));
        out.println("targets found: " + String.join(", ", catalog.all().stream().map(Target::name).toList()));
        List<Target> targets = catalog.select(options.targets());
        CpuSets cpus = CpuSets.derive();
        keepOffServerCpus(cpus, out);
        Suite suite = new Suite(options, targets, cpus, out);
        Result result = suite.run();
        Path json = ResultFile.write(result, options.outDir());
        try {
            Files.deleteIfExists(suite.checkpoint()); // the result file has everything the checkpoint had
        } catch (IOException e) {
            out.println("note: could not delete the checkpoint " + suite.checkpoint() + ": " + e.getMessage());
        }
        out.println();
        out.print(MarkdownTable.of(result.summary()));
        return json;
    }

    /**
     * Moves the runner's own threads (and so the JIT and GC threads it starts later) onto the load
     * generator's CPUs, so that it never competes with the server it measures.
     */
    static void keepOffServerCpus(CpuSets cpus, PrintStream out) {
        if (cpus.server().equals(cpus.client()) || Host.executable("taskset").isEmpty()) return;
        String pid = Long.toString(ProcessHandle.current().pid());
        if (Host.command("taskset", "-a", "-p", "-c", cpus.clientList(), pid).isEmpty()) {
            out.println("note: could not pin the runner to CPUs " + cpus.clientList());
        }
    }

    static void machine(Options options, PrintStream out) {
        CpuSets cpus = CpuSets.derive();
        for (Map.Entry<String, Object> e : Fingerprint.take(cpus).entrySet()) out.printf("%-20s %s%n", e.getKey(), e.getValue());
        List<Check> checks = Preflight.run(cpus, options.maxConnections());
        for (Check c : checks) out.printf("preflight %-18s %-7s %s  (%s)%n", c.name(), c.verdict(), c.reading(), c.rule());
        out.println("verdict: " + (checks.stream().anyMatch(Check::failed) ? "FAIL (--strict would refuse to measure)" : "pass"));
        TargetCatalog catalog = new TargetCatalog(options.repoRoot(), System.getProperty("java.class.path"));
        out.println("targets: " + String.join(", ", catalog.all().stream().map(Target::name).toList()));
    }

    static void report(Options options, PrintStream out) throws IOException {
        Path json = ResultFile.latest(options.outDir(), "full").orElseThrow(() -> new IllegalStateException(
                "no full result in " + options.outDir() + "; run ./tidemill bench (without --quick) first"));
        Path doc = options.repoRoot().resolve("docs/performance.md");
        Files.createDirectories(doc.getParent());
        Map<String, Path> others = new java.util.LinkedHashMap<>();
        for (String suite : PerformanceDoc.OTHER_SUITES.keySet()) {
            ResultFile.latest(options.outDir(), suite).ifPresent(p -> others.put(suite, p));
        }
        Files.writeString(doc, PerformanceDoc.of(ResultFile.read(json), json, others));
        out.println("wrote " + doc + " from " + json + (others.isEmpty() ? "" : " and " + others.values()));
    }
}
