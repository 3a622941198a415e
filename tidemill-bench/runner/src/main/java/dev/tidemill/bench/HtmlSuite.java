package dev.tidemill.bench;

import static dev.tidemill.bench.Args.value;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code ./tidemill bench html}: the JMH render benchmark of module tidemill-bench/html (the 50-row
 * page to UTF-8 bytes, per engine), run in a child JVM pinned with {@code taskset} to one CPU, its
 * JMH JSON kept whole in {@code bench/results/<UTC>-html.json} next to the rows read from it and
 * the host's fingerprint; the Markdown next to it is the "HTML rendering" section of
 * docs/performance.md. The benchmark module is a separate build (its engines are dependencies the
 * runner should not carry): the launcher builds it and this class finds its jar and class path
 * under the repository root.
 */
public final class HtmlSuite {
    /** The engines' benchmark, in tidemill-bench/html. */
    static final String BENCHMARK = "dev.tidemill.bench.html.RenderBenchmark";
    /** The hand-written renderer the other engines are compared with. */
    static final String BASELINE = "stringbuilder";

    private HtmlSuite() {}

    /**
     * Options.
     *
     * @param quick one short iteration each ({@code -wi 1 -w 1s -i 2 -r 1s}), written as {@code html-quick}
     * @param engines engines to run (empty: all of them)
     * @param forks JMH forks per engine
     * @param warmupIterations JMH warm-up iterations
     * @param warmupSeconds seconds per warm-up iteration
     * @param iterations JMH measured iterations
     * @param iterationSeconds seconds per measured iteration
     * @param cpu the CPU the JMH JVMs are pinned to; -1: the last online CPU
     * @param outDir where results go
     * @param repoRoot the repository root (where the benchmark module's jar is found)
     */
    public record Settings(boolean quick, List<String> engines, int forks, int warmupIterations, int warmupSeconds,
                           int iterations, int iterationSeconds, int cpu, Path outDir, Path repoRoot) {
        /**
         * @param args the arguments after {@code html}
         * @return the settings
         */
        public static Settings parse(List<String> args) {
            boolean quick = args.contains("--quick");
            List<String> engines = List.of();
            int forks = 1, wi = quick ? 1 : 3, w = quick ? 1 : 2, i = quick ? 2 : 5, r = quick ? 1 : 2, cpu = -1;
            Path out = Path.of("bench", "results");
            for (int k = 0; k < args.size(); k++) {
                String a = args.get(k);
                switch (a) {
                    case "--quick" -> { }
                    case "--engines" -> engines = List.of(value(args, ++k, a).split(","));
                    case "--forks" -> forks = Integer.parseInt(value(args, ++k, a));
                    case "--warmup-iterations" -> wi = Integer.parseInt(value(args, ++k, a));
                    case "--warmup" -> w = Integer.parseInt(value(args, ++k, a));
                    case "--iterations" -> i = Integer.parseInt(value(args, ++k, a));
                    case "--duration" -> r = Integer.parseInt(value(args, ++k, a));
                    case "--cpu" -> cpu = Integer.parseInt(value(args, ++k, a));
                    case "--out" -> out = Path.of(value(args, ++k, a));
                    default -> throw new IllegalArgumentException("unknown option " + a + " (html takes --quick --engines a,b "
                            + "--forks N --warmup-iterations N --warmup S --iterations N --duration S --cpu N --out DIR)");
                }
            }
            if (forks < 1 || wi < 0 || w < 1 || i < 1 || r < 1) {
                throw new IllegalArgumentException("forks, iterations and seconds must be >= 1, warm-up iterations >= 0");
            }
            return new Settings(quick, engines, forks, wi, w, i, r, cpu, out, Path.of("").toAbsolutePath());
        }

        /** @return the JMH options these settings stand for */
        List<String> jmhOptions() {
            List<String> o = new ArrayList<>(List.of("-f", Integer.toString(forks), "-wi", Integer.toString(warmupIterations),
                    "-w", warmupSeconds + "s", "-i", Integer.toString(iterations), "-r", iterationSeconds + "s", "-prof", "gc"));
            if (!engines.isEmpty()) o.addAll(List.of("-p", "engine=" + String.join(",", engines)));
            return o;
        }
    }

    /**
     * One engine's measurement.
     *
     * @param engine the engine
     * @param usPerPage JMH AverageTime score, microseconds per rendered page
     * @param usError JMH's 99.9 % confidence half-width of it (NaN with fewer than two iterations)
     * @param bytesPerPage bytes allocated per page ({@code gc.alloc.rate.norm}), or NaN without the gc profiler
     * @param vsBaseline usPerPage / the StringBuilder baseline's, or NaN when the baseline was not run
     */
    public record Row(String engine, double usPerPage, double usError, double bytesPerPage, double vsBaseline) {}

    /**
     * What the suite wrote.
     *
     * @param suite {@code html} or {@code html-quick}
     * @param quick whether it was a quick run
     * @param startedUtc start
     * @param finishedUtc end
     * @param command the command as typed
     * @param jmhCommand the child JVM's command line
     * @param pinnedCpu the CPU it ran on
     * @param fingerprint host and software
     * @param rows the measurements, fastest first
     * @param jmh JMH's own result (its {@code -rf json}), unchanged
     */
    public record Result(String suite, boolean quick, String startedUtc, String finishedUtc, String command,
                         List<String> jmhCommand, int pinnedCpu, Map<String, Object> fingerprint, List<Row> rows, JsonNode jmh) {}

    /**
     * Runs the benchmark and writes the files.
     *
     * @param settings the options
     * @param command the command as typed, for the record
     * @param out progress (JMH's own output goes to this process's standard output)
     * @return the JSON file
     */
    public static Path run(Settings settings, String command, PrintStream out) {
        String started = Instant.now().toString();
        CpuSets cpus = CpuSets.derive();
        List<Integer> online = Host.onlineCpus();
        // The last CPU rather than CPU 0, which takes most device interrupts on a default Linux guest.
        int cpu = settings.cpu() >= 0 ? settings.cpu() : online.isEmpty() ? 0 : online.getLast();
        List<String> cmd = new ArrayList<>();
        if (Host.executable("taskset").isPresent()) {
            cmd.addAll(List.of("taskset", "-c", Integer.toString(cpu)));
        } else {
            out.println("note: no taskset; the benchmark runs unpinned");
            cpu = -1;
        }
        Path raw;
        try {
            Files.createDirectories(settings.outDir());
            raw = Files.createTempFile(settings.outDir(), "html-jmh-", ".json.tmp");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        cmd.addAll(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                classPath(settings.repoRoot()), "org.openjdk.jmh.Main", BENCHMARK));
        cmd.addAll(settings.jmhOptions());
        // Forked JVMs get the flags every benchmark target gets (fixed 1 GB heap, ParallelGC, Netty's JDK 25 flags).
        cmd.addAll(List.of("-jvmArgs", String.join(" ", TargetCatalog.JVM_FLAGS), "-rf", "json", "-rff", raw.toString()));
        out.println("html: " + String.join(" ", cmd));
        Map<String, Object> fingerprint = Fingerprint.take(cpus);
        try {
            int exit = new ProcessBuilder(cmd).inheritIO().start().waitFor();
            if (exit != 0) throw new IllegalStateException("JMH exited with " + exit + " (an engine that renders the wrong page fails its @Setup)");
            JsonNode jmh = JsonMapper.builder().build().readTree(Files.readString(raw));
            List<Row> rows = rows(jmh);
            if (rows.isEmpty()) throw new IllegalStateException("JMH wrote no result to " + raw);
            Result result = new Result(settings.quick() ? "html-quick" : "html", settings.quick(), started, Instant.now().toString(),
                    command, cmd, cpu, fingerprint, rows, jmh);
            Path json = ResultFile.write(settings.outDir(), result.suite(), result,
                    "# HTML rendering, " + started + "\n\n" + markdown(result));
            Files.deleteIfExists(raw);
            out.println();
            out.print(table(rows));
            return json;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while JMH ran", e);
        }
    }

    /** @return the benchmark module's jar and its runtime class path (built by the launcher) */
    static String classPath(Path repoRoot) {
        return classPath(repoRoot, "html");
    }

    /**
     * @param repoRoot the repository
     * @param module a JMH module under tidemill-bench ({@code html}, {@code auth})
     * @return its jar and its runtime class path (built by the launcher)
     */
    static String classPath(Path repoRoot, String module) {
        Path target = repoRoot.resolve("tidemill-bench/" + module + "/target");
        Path cpFile = target.resolve("classpath.txt");
        Path jar;
        try (Stream<Path> s = Files.isDirectory(target) ? Files.list(target) : Stream.empty()) {
            jar = s.filter(p -> p.getFileName().toString().matches("tidemill-bench-" + module + "-.*\\.jar")
                    && !p.getFileName().toString().matches(".*-(sources|javadoc|tests)\\.jar")).findFirst().orElse(null);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (jar == null || !Files.isRegularFile(cpFile)) {
            throw new IllegalStateException("the benchmark module is not built (no jar or classpath.txt in " + target
                    + "); run ./tidemill bench " + module + ", which builds it");
        }
        try {
            return jar + java.io.File.pathSeparator + Files.readString(cpFile).strip();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * @param jmh JMH's JSON result
     * @return one row per engine, fastest first
     */
    static List<Row> rows(JsonNode jmh) {
        List<Row> rows = new ArrayList<>();
        for (JsonNode b : jmh) {
            String engine = b.path("params").path("engine").asString("?");
            JsonNode primary = b.path("primaryMetric");
            if (!primary.path("scoreUnit").asString("").equals("us/op")) {
                throw new IllegalStateException(engine + ": expected us/op, JMH reported " + primary.path("scoreUnit"));
            }
            JsonNode alloc = b.path("secondaryMetrics").path("gc.alloc.rate.norm");
            rows.add(new Row(engine, number(primary.path("score")), number(primary.path("scoreError")),
                    alloc.isMissingNode() ? Double.NaN : number(alloc.path("score")), Double.NaN));
        }
        double base = rows.stream().filter(r -> r.engine().equals(BASELINE)).mapToDouble(Row::usPerPage).findFirst().orElse(Double.NaN);
        return rows.stream().map(r -> new Row(r.engine(), r.usPerPage(), r.usError(), r.bytesPerPage(), r.usPerPage() / base))
                .sorted(Comparator.comparingDouble(Row::usPerPage)).toList();
    }

    /** JMH writes a score it could not compute as the string "NaN". */
    static double number(JsonNode n) {
        if (n.isNumber()) return n.asDouble();
        try {
            return Double.parseDouble(n.asString("NaN"));
        } catch (NumberFormatException e) {
            return Double.NaN;
        }
    }

    /** The fingerprint entries the section shows (all of them are in the JSON). */
    private static final List<String> SHOWN = List.of("cpuModel", "cores", "threads", "memory", "hypervisorFlag", "systemdDetectVirt",
            "kernel", "cgroupCpuMax", "jdkVendor", "jdkVersion", "gitCommit");

    /**
     * @param r a result
     * @return the section: method, command, table, host
     */
    static String markdown(Result r) {
        StringBuilder b = new StringBuilder();
        b.append("Each engine renders the benchmark page (`PageData`: a 16 KB admin page with a 50-row table, one row in seven ")
                .append("holding `< > & \"`) from the rows, per call, to UTF-8 bytes. Before anything is timed, its bytes are checked ")
                .append("equal to `PageData.reference()` (in the benchmark's `@Setup`, and in `EnginesRenderTheReferenceTest` in CI). ")
                .append("JMH, AverageTime, one JVM per engine (")
                .append(r.pinnedCpu() >= 0 ? "pinned with `taskset` to CPU " + r.pinnedCpu() : "unpinned")
                .append(", flags `").append(String.join(" ", TargetCatalog.JVM_FLAGS)).append("`); bytes/page is `-prof gc`'s ")
                .append("`gc.alloc.rate.norm`. The error is JMH's 99.9 % confidence half-width.\n\n")
                .append("Command: `").append(r.command()).append("`, run ").append(r.startedUtc()).append(" to ").append(r.finishedUtc())
                .append(". JMH: `").append(jmhShown(r.jmhCommand())).append("`.\n\n");
        b.append(table(r.rows()));
        b.append("\n| host | |\n|---|---|\n");
        for (String k : SHOWN) {
            Object v = r.fingerprint() == null ? null : r.fingerprint().get(k);
            if (v != null) b.append("| ").append(k).append(" | ").append(String.valueOf(v).replace("|", "\\|")).append(" |\n");
        }
        b.append("\nEscaping: the reference writes `& < > \"` as entities in text and attributes alike. Tidemill escapes the same four in both, so its pages need no adapter; ")
                .append("JTE writes `\"` as `&#34;` and leaves `>` in attributes, so it renders through an ")
                .append("`HtmlTemplateOutput` with the reference's rule. j2html (`'` as `&#x27;`), Mustache.java (also `'`, ")
                .append("`` ` ``, `=`), Pebble, FreeMarker, Thymeleaf and Rocker (`'` as `&#39;`) use their own escapers: the data holds none of ")
                .append("those characters, so their bytes are the reference's. HtmlFlow escapes text but writes attribute values ")
                .append("as given (a `\"` would end the attribute), so its two data attributes are escaped with `PageData.escape` ")
                .append("before they go in, as a careful HtmlFlow user must; and it writes `<!DOCTYPE html><html>` with no way to put ")
                .append("the reference's newline between them, so its `Appendable` adds that one byte as the first write passes.\n");
        return b.toString();
    }

    /** The JMH command without the class path (long, and machine-specific). */
    private static String jmhShown(List<String> cmd) {
        List<String> shown = new ArrayList<>(cmd);
        int cp = shown.indexOf("-cp");
        if (cp >= 0 && cp + 1 < shown.size()) shown.set(cp + 1, "<tidemill-bench/html:class-path>");
        int rff = shown.indexOf("-rff");
        if (rff >= 0 && rff + 1 < shown.size()) shown.set(rff + 1, "<file>");
        int java = shown.indexOf("-cp") - 1;
        if (java >= 0) shown.set(java, "java");
        return String.join(" ", shown.stream().map(s -> s.contains(" ") ? "\"" + s + "\"" : s).toList());
    }

    /** @return the Markdown table of the rows */
    static String table(List<Row> rows) {
        StringBuilder b = new StringBuilder("| engine | us/page | ± | bytes/page | x StringBuilder |\n|---|---:|---:|---:|---:|\n");
        for (Row r : rows) {
            b.append("| ").append(r.engine()).append(" | ").append(fmt("%.2f", r.usPerPage())).append(" | ")
                    .append(fmt("%.2f", r.usError())).append(" | ").append(fmt("%,.0f", r.bytesPerPage())).append(" | ")
                    .append(fmt("%.2f", r.vsBaseline())).append(" |\n");
        }
        return b.toString();
    }

    private static String fmt(String format, double v) {
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, format, v);
    }

}
