package dev.tidemill.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * {@code ./tidemill bench footprint [--quick] [--starts N]}: what a hello-world app costs before it
 * serves anything, per framework, each built the same way (a Maven module under
 * {@code tidemill-bench/footprint/<name>} with only what that framework's own hello world needs,
 * its runtime class path from {@code maven-dependency-plugin build-classpath}): how many jars it
 * runs on and their bytes, the time from process start to the first correct {@code GET /hello}
 * (median of several starts), and its RSS once idle. Tidemill twice: on {@code tidemill-core}
 * alone (the optional integrations absent) and with every one of them on the class path. Every
 * app runs with the same JVM flags, pinned to the server CPUs. Writes {@code <UTC>-footprint.json}
 * and {@code .md}.
 */
public final class FootprintSuite {
    /** The apps, in table order: module directory name to what it is. */
    static final Map<String, String> APPS = apps();
    /** Settle time after the first answer before RSS is read, so start-up allocation and JIT threads have quietened. */
    static final long SETTLE_MILLIS = 2_000;
    /** The body every app answers {@code GET /hello} with. */
    static final String BODY = "Hello, World!";

    private static Map<String, String> apps() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("tidemill", "Tidemill on tidemill-core alone (minimal set)");
        m.put("tidemill-full", "Tidemill with every optional integration");
        m.put("javalin", "Javalin 7");
        m.put("helidon", "Helidon SE 4");
        return java.util.Collections.unmodifiableMap(m);
    }

    /**
     * Options.
     *
     * @param quick one start per app instead of five
     * @param starts starts per app
     * @param outDir where results go
     * @param repoRoot where the apps are found
     */
    public record Settings(boolean quick, int starts, Path outDir, Path repoRoot) {
        /** @param args the arguments after {@code footprint} @return the settings */
        public static Settings parse(List<String> args) {
            boolean quick = args.contains("--quick");
            int starts = quick ? 1 : 5;
            Path out = Path.of("bench", "results");
            Path root = Path.of("");
            for (int i = 0; i < args.size(); i++) {
                String a = args.get(i);
                switch (a) {
                    case "--quick" -> { }
                    case "--starts" -> starts = Integer.parseInt(Args.value(args, ++i, a));
                    case "--out" -> out = Path.of(Args.value(args, ++i, a));
                    case "--root" -> root = Path.of(Args.value(args, ++i, a));
                    default -> throw new IllegalArgumentException("unknown option " + a
                            + " (footprint takes --quick --starts N --out DIR)");
                }
            }
            if (starts < 1) throw new IllegalArgumentException("starts must be >= 1");
            return new Settings(quick, starts, out, root);
        }
    }

    /**
     * One app's figures.
     *
     * @param app the module name
     * @param what what it is
     * @param jars runtime jars on its class path
     * @param jarBytes their bytes, plus the app's own classes
     * @param firstAnswerMs each start's time from process start to the first correct answer
     * @param medianFirstAnswerMs their median
     * @param rssIdleKb each start's RSS once idle
     * @param medianRssIdleKb their median
     * @param jarList the jars, by file name, largest first
     */
    public record Row(String app, String what, int jars, long jarBytes, List<Double> firstAnswerMs, double medianFirstAnswerMs,
                      List<Long> rssIdleKb, long medianRssIdleKb, List<String> jarList) {}

    /**
     * What the suite wrote.
     *
     * @param suite {@code footprint} or {@code footprint-quick}
     * @param quick whether quick
     * @param startedUtc start
     * @param finishedUtc end
     * @param fingerprint host and software
     * @param preflight the host checks before measuring
     * @param configuration method
     * @param rows per app
     */
    public record Result(String suite, boolean quick, String startedUtc, String finishedUtc, Map<String, Object> fingerprint,
                         List<Check> preflight, Map<String, Object> configuration, List<Row> rows) {}

    private final Settings settings;
    private final PrintStream out;
    private final CpuSets cpus = CpuSets.derive();

    /**
     * @param settings the options
     * @param out progress
     */
    public FootprintSuite(Settings settings, PrintStream out) {
        this.settings = settings;
        this.out = out;
    }

    /** @return the JSON file written */
    public Path run() {
        String started = Instant.now().toString();
        BenchMain.keepOffServerCpus(cpus, out);
        List<Check> preflight = Preflight.run(cpus, 0);
        Map<String, Object> fingerprint = Fingerprint.take(cpus);
        out.printf("footprint: %d apps, %d start(s) each, server CPUs %s%n", APPS.size(), settings.starts(), cpus.serverList());
        List<Row> rows = new ArrayList<>();
        for (Map.Entry<String, String> app : APPS.entrySet()) rows.add(measure(app.getKey(), app.getValue()));
        Map<String, Object> conf = new LinkedHashMap<>();
        conf.put("starts", settings.starts());
        conf.put("jvmFlags", TargetCatalog.JVM_FLAGS);
        conf.put("serverCpus", cpus.serverList());
        conf.put("settleMillis", SETTLE_MILLIS);
        conf.put("classPath", "tidemill-bench/footprint/<app>/target/classpath.txt (runtime scope) and target/classes");
        conf.put("firstAnswer", "from just before the process is started to the first 200 with the body " + BODY
                + ", asked on a fresh connection every 5 ms");
        conf.put("rss", "VmRSS of /proc/<pid>/status, " + SETTLE_MILLIS + " ms after the first answer");
        Result result = new Result(settings.quick() ? "footprint-quick" : "footprint", settings.quick(), started,
                Instant.now().toString(), fingerprint, preflight, conf, rows);
        Path json = ResultFile.write(settings.outDir(), result.suite(), result, page(result));
        out.println();
        out.print(table(rows));
        return json;
    }

    private Row measure(String app, String what) {
        Path dir = settings.repoRoot().resolve("tidemill-bench/footprint").resolve(app);
        List<Path> jars = classPath(dir.resolve("target/classpath.txt"));
        Path classes = dir.resolve("target/classes");
        long bytes = directoryBytes(classes);
        for (Path j : jars) bytes += size(j);
        String cp = classes + java.io.File.pathSeparator + String.join(java.io.File.pathSeparator, jars.stream().map(Path::toString).toList());
        String main = "dev.tidemill.bench.footprint." + app.replace("-", "") + ".Main";
        List<Double> times = new ArrayList<>();
        List<Long> rss = new ArrayList<>();
        for (int i = 0; i < settings.starts(); i++) {
            int port = freePort();
            List<String> argv = new ArrayList<>(List.of("taskset", "-c", cpus.serverList(),
                    Path.of(System.getProperty("java.home"), "bin", "java").toString()));
            argv.addAll(TargetCatalog.JVM_FLAGS);
            argv.addAll(List.of("-cp", cp, main, Integer.toString(port)));
            Process p = null;
            try {
                long t0 = System.nanoTime();
                p = new ProcessBuilder(argv).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
                firstAnswer(port, t0 + TimeUnit.SECONDS.toNanos(60));
                times.add((System.nanoTime() - t0) / 1e6);
                MemorySuite.sleep(SETTLE_MILLIS);
                rss.add(JvmReadings.rssKb(p.pid()));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } finally {
                if (p != null) {
                    p.destroy();
                    try {
                        if (!p.waitFor(10, TimeUnit.SECONDS)) p.destroyForcibly();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        p.destroyForcibly();
                    }
                }
            }
        }
        Row r = new Row(app, what, jars.size(), bytes, times, MemorySuite.median(times), rss, medianLong(rss),
                jars.stream().sorted((a, b) -> Long.compare(size(b), size(a))).map(j -> j.getFileName().toString()).toList());
        out.printf(Locale.ROOT, "  %-14s %3d jars %,12d bytes  first answer %7.1f ms  idle RSS %,7d KiB%n", app, r.jars(),
                r.jarBytes(), r.medianFirstAnswerMs(), r.medianRssIdleKb());
        return r;
    }

    /** Asks for {@code /hello} on fresh connections until the answer is a 200 with {@link #BODY}. */
    static void firstAnswer(int port, long deadlineNanos) {
        String last = "no answer";
        while (System.nanoTime() < deadlineNanos) {
            try {
                String answer = LoopbackGet.get(port, "/hello", 1_000);
                if (answer.startsWith("HTTP/1.1 200") && answer.endsWith("\r\n\r\n" + BODY)) return;
                last = answer.lines().findFirst().orElse("empty answer");
            } catch (IOException e) {
                last = e.toString();
            }
            MemorySuite.sleep(5);
        }
        throw new IllegalStateException("no correct answer to GET /hello: " + last);
    }

    /** @return the jars of a {@code build-classpath} output file; fails if it is missing or names a file that is gone */
    static List<Path> classPath(Path file) {
        if (!Files.isRegularFile(file)) {
            throw new IllegalStateException(file + " is missing: build the apps first (./tidemill bench footprint does)");
        }
        try {
            String text = Files.readString(file).strip();
            if (text.isEmpty()) return List.of();
            List<Path> jars = new ArrayList<>();
            for (String entry : text.split(java.io.File.pathSeparator)) {
                Path p = Path.of(entry);
                if (!Files.isRegularFile(p)) throw new IllegalStateException(file + " names " + p + ", which is not a file");
                jars.add(p);
            }
            return jars;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static long directoryBytes(Path dir) {
        if (!Files.isDirectory(dir)) return 0;
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).mapToLong(FootprintSuite::size).sum();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static long size(Path p) {
        try {
            return Files.size(p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static long medianLong(List<Long> values) {
        return Math.round(MemorySuite.median(values.stream().map(Long::doubleValue).toList()));
    }

    private static int freePort() {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String page(Result r) {
        StringBuilder b = new StringBuilder("# Tidemill bench, hello-world footprint" + (r.quick() ? " (quick)" : "") + ", "
                + r.startedUtc() + "\n\n");
        b.append("Command: `./tidemill bench footprint").append(r.quick() ? " --quick" : "").append("`. ")
                .append("Each app is a Maven module under `tidemill-bench/footprint/` with only what that framework's own hello world ")
                .append("needs; jars and bytes are its runtime class path (`maven-dependency-plugin build-classpath`, runtime scope) ")
                .append("plus its own classes. First answer: from just before the process starts to the first `200 ")
                .append(BODY).append("` to `GET /hello`, median of ").append(r.configuration().get("starts"))
                .append(" starts. Idle RSS: `VmRSS` ").append(SETTLE_MILLIS).append(" ms after that answer, median of the same starts. ")
                .append("Same JVM flags for every app (`").append(String.join(" ", TargetCatalog.JVM_FLAGS))
                .append("`), pinned to CPUs ").append(r.configuration().get("serverCpus")).append(".\n\n");
        b.append(table(r.rows()));
        b.append("\nEach start: ");
        for (Row row : r.rows()) {
            b.append(String.format(Locale.ROOT, "%s %s ms; ", row.app(), row.firstAnswerMs().stream()
                    .map(v -> String.format(Locale.ROOT, "%.0f", v)).toList()));
        }
        b.setLength(b.length() - 2);
        b.append(".\n");
        return b.toString();
    }

    /** @param rows per app @return the Markdown table */
    static String table(List<Row> rows) {
        StringBuilder b = new StringBuilder("| app | runtime jars | jar bytes | start to first answer | idle RSS |\n"
                + "|---|---:|---:|---:|---:|\n");
        for (Row r : rows) {
            b.append(String.format(Locale.ROOT, "| %s | %d | %,d | %.0f ms | %.1f MiB |%n", r.what(), r.jars(), r.jarBytes(),
                    r.medianFirstAnswerMs(), r.medianRssIdleKb() / 1024.0));
        }
        return b.toString();
    }
}
