package dev.tidemill.bench;

import dev.tidemill.bench.controllers.ControllersApp;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * {@code ./tidemill bench controllers}: what a controller compiled by tidemill-processor costs
 * against the same routes written with the lambda DSL. Three parts, each checked before it is
 * measured:
 *
 * <ol>
 *   <li>Requests: {@link ControllersApp} serves each endpoint ({@code GET /items/7?verbose=true}, a
 *       small JSON record, and {@code GET /plaintext}) as DSL routes, as {@code ItemsController} and as
 *       the DSL routes again (the A/A twin), in one server process. wrk on each case, warmed up, then
 *       rounds rotating which form goes first, with the server's CPU read from {@code /proc} over each
 *       window ({@link AuthSuite#measure}).</li>
 *   <li>Start-up: {@link ControllerSources} writes 100 controllers of 10 routes, javac compiles them with
 *       the processor, and fresh JVMs ({@link ControllersStartProbe}) time {@code app.controllers(...)} and
 *       {@code start()} with them against an empty app: in a JVM whose first app it is (cold), in one where
 *       an app already started (primed), in one where the same routes were registered before (repeat),
 *       and in a JVM whose first app it is, started with a JDK AOT cache that a training run of the same
 *       app wrote (aot).</li>
 *   <li>javac: 200 generated controllers compiled by fresh javac processes ({@link JavacProbe}) with
 *       {@code -proc:none} and with the processor on {@code -processorpath}, alternating.</li>
 * </ol>
 *
 * {@link ControllersReport} turns the readings into medians, ratios and the goals. Writes
 * {@code <UTC>-controllers.json} and {@code .md}.
 */
public final class ControllersSuite {
    /** The endpoints. */
    static final List<String> KINDS = List.of("json", "plaintext");
    /** The forms of each endpoint, in the first round's order. */
    static final List<String> FORMS = List.of("dsl", "controller", "dsl-twin");
    /** The start-up part's apps: none of its own routes, the generated controllers, the same routes by direct DSL calls. */
    static final List<String> START_VARIANTS = List.of("empty", "controllers", "dsl");
    /**
     * The start-up part's JVMs: the app is the first, the framework is loaded, the same routes were
     * registered once before, and the app is the first of a JVM started with an AOT cache
     * ({@code -XX:AOTCache}, JEP 483/514) that a training run of the same variant wrote.
     */
    static final List<String> START_JVMS = List.of("cold", "primed", "repeat", "aot");
    /** The start-up state whose JVMs run with an AOT cache. */
    static final String AOT = "aot";
    /**
     * The javac part's compilations: the controllers alone ({@code -proc:none}), with the processor
     * ({@code -processorpath}), and the controllers with the sources the processor wrote, compiled as
     * ordinary sources ({@code -proc:none}): what the same routes cost javac written by hand.
     */
    static final List<String> JAVAC_VARIANTS = List.of("none", "processor", "generated");
    /** The item the JSON endpoint is asked for. */
    static final long ITEM = 7;
    /** What the JSON endpoint answers for it, exactly. */
    static final String ITEM_JSON = "{\"id\":7,\"name\":\"item 7\",\"stock\":7,\"verbose\":true}";
    /** Where the processor's jars are listed, under the repository root (written by the controllers module's build). */
    static final String PROCESSOR_PATH_FILE = "tidemill-bench/controllers/target/processor-classpath.txt";
    /** The class path javac compiles the generated controllers against: tidemill-core and what it needs (the launcher writes it). */
    static final String COMPILE_PATH_FILE = "tidemill-bench/controllers/target/classpath.txt";

    /**
     * One fresh JVM of the start-up part.
     *
     * @param run the run
     * @param variant {@link #START_VARIANTS}: {@code empty}, {@code controllers} ({@code app.controllers(...)}) or
     *     {@code dsl} (the generated routes classes called directly)
     * @param jvm {@link #START_JVMS}: {@code cold} (the JVM's first app), {@code primed} (an app with one route started
     *     and closed before), {@code repeat} (an app with the same routes started and closed before) or {@code aot} (the
     *     JVM's first app, the JVM started with the variant's AOT cache)
     * @param routes the app's routes after start, its operational ones included
     * @param registerMs the registration: {@code app.controllers(...)} or the direct calls (0 for the empty app)
     * @param startMs {@code start()}
     * @param wallMs the process, from launch to exit
     */
    public record StartRun(int run, String variant, String jvm, int routes, double registerMs, double startMs, double wallMs) {
        /** @return the registration and start() together: what the timed part of an app's start took */
        public double totalMs() {
            return registerMs + startMs;
        }
    }

    /**
     * One fresh javac process.
     *
     * @param run the run
     * @param variant {@link #JAVAC_VARIANTS}: {@code none} ({@code -proc:none}), {@code processor} ({@code -processorpath}) or
     *     {@code generated} ({@code -proc:none} over the controllers and the sources the processor wrote)
     * @param wallSeconds the process, from launch to exit
     * @param compileSeconds the compiler's call inside it
     * @param classes class files written
     * @param generated sources the processor wrote
     * @param ok whether it compiled
     */
    public record JavacRun(int run, String variant, double wallSeconds, double compileSeconds, long classes, long generated, boolean ok) {}

    /**
     * What the suite wrote.
     *
     * @param suite {@code controllers} or {@code controllers-quick}
     * @param quick whether it was a quick run
     * @param startedUtc start
     * @param finishedUtc end
     * @param command the command line
     * @param fingerprint host and software
     * @param preflight checks
     * @param configuration settings and method
     * @param targets the request part's server: command line, startup lines, checks
     * @param rows every request window
     * @param summary medians per case
     * @param comparisons the controller against the DSL, and the A/A twin, per endpoint
     * @param startRuns every start-up JVM
     * @param start medians per JVM kind
     * @param startNotAvailable the JVM kinds that could not be measured on this host, and why (the JVM's message)
     * @param javacRuns every javac process
     * @param javac medians
     * @param goals the goals and whether they were met
     * @param failures what fails the run
     */
    public record Result(String suite, boolean quick, String startedUtc, String finishedUtc, String command, Map<String, Object> fingerprint,
                         List<Check> preflight, Map<String, Object> configuration, List<Map<String, Object>> targets,
                         List<AuthSuite.Row> rows, List<ControllersReport.CaseSummary> summary,
                         List<ControllersReport.Comparison> comparisons, List<StartRun> startRuns, List<ControllersReport.StartSummary> start,
                         Map<String, String> startNotAvailable, List<JavacRun> javacRuns, ControllersReport.JavacSummary javac,
                         List<AuthReport.Goal> goals, List<String> failures) {}

    private static final Pattern PROBE = Pattern.compile("probe routes=(\\d+) controllersNanos=(\\d+) startNanos=(\\d+)");
    private static final Pattern JAVAC = Pattern.compile("javac ok=(true|false) nanos=(\\d+) classes=(\\d+) generated=(\\d+)");

    private final ControllersSettings settings;
    private final String command;
    private final PrintStream out;
    private final List<AuthSuite.Row> rows = new ArrayList<>();
    private final List<Map<String, Object>> records = new ArrayList<>();
    private final List<StartRun> startRuns = new ArrayList<>();
    private final List<JavacRun> javacRuns = new ArrayList<>();
    private final Map<String, String> startNotAvailable = new LinkedHashMap<>();
    private final List<String> failures = new ArrayList<>();
    private String processorPath;

    /**
     * @param settings the options
     * @param command the command line, as recorded
     * @param out progress
     */
    public ControllersSuite(ControllersSettings settings, String command, PrintStream out) {
        this.settings = settings;
        this.command = command;
        this.out = out;
    }

    /**
     * @param path the processor's class path to use instead of the one the controllers module's build listed
     * @return this
     */
    ControllersSuite processorPath(String path) {
        this.processorPath = path;
        return this;
    }

    /**
     * Runs the parts, then writes the files.
     *
     * @return the JSON file
     * @throws IllegalStateException after writing them, when a part failed; before anything, when a tool is missing
     */
    public Path run() {
        List<String> missing = Stream.of("wrk", "taskset").filter(t -> Host.executable(t).isEmpty()).toList();
        if (!missing.isEmpty()) throw new IllegalStateException("controllers: missing " + String.join(", ", missing) + " (Debian: wrk, util-linux)");
        String started = Instant.now().toString();
        CpuSets cpus = CpuSets.derive();
        List<Check> preflight = Preflight.run(cpus, settings.connections());
        preflight.stream().filter(Check::failed).forEach(c -> out.println("preflight FAIL " + c.name() + ": " + c.reading()));
        Map<String, Object> fingerprint = Fingerprint.take(cpus);
        Path work;
        try {
            work = Files.createTempDirectory("tidemill-bench-controllers-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        out.printf(Locale.ROOT, "controllers: parts %s; %d round(s), %d s warm-up per case, %d s per window; start-up %d x %d routes, %d JVMs "
                        + "per variant; javac %d x %d routes, %d runs each; server CPUs %s, generator CPUs %s%n", settings.parts(),
                settings.rounds(), settings.warmupSeconds(), settings.durationSeconds(), settings.startControllers(), ControllerSources.METHODS,
                settings.startRuns(), settings.javacControllers(), ControllerSources.METHODS, settings.javacRuns(), cpus.serverList(),
                cpus.clientList());
        if (settings.parts().contains("requests")) part("requests", () -> requests(cpus, work.resolve("requests")));
        if (settings.parts().contains("start")) part("start", () -> start(cpus, work.resolve("start")));
        if (settings.parts().contains("javac")) part("javac", () -> javac(cpus, work.resolve("javac")));
        List<ControllersReport.CaseSummary> summary = ControllersReport.summarise(rows);
        List<ControllersReport.Comparison> comparisons = ControllersReport.compare(rows);
        List<ControllersReport.StartSummary> start = ControllersReport.startSummary(startRuns);
        ControllersReport.JavacSummary javac = ControllersReport.javacSummary(javacRuns, settings.javacControllers());
        int expectedRoutes = settings.startControllers() * ControllerSources.METHODS;
        for (ControllersReport.StartSummary s : start) {
            if (s.routesAdded() != expectedRoutes || s.dslRoutesAdded() != expectedRoutes) {
                failures.add("start " + s.jvm() + ": " + s.routesAdded() + " and " + s.dslRoutesAdded() + " routes added, not " + expectedRoutes);
            }
        }
        List<AuthReport.Goal> goals = ControllersReport.goals(comparisons, start, startNotAvailable, javac, settings.startControllers(),
                settings.javacControllers());
        Result result = new Result(settings.suite(), settings.quick(), started, Instant.now().toString(), command, fingerprint, preflight,
                configuration(cpus), List.copyOf(records), List.copyOf(rows), summary, comparisons, List.copyOf(startRuns), start,
                Map.copyOf(startNotAvailable), List.copyOf(javacRuns), javac, goals, List.copyOf(failures));
        Path json = ResultFile.write(settings.outDir(), result.suite(), result, ControllersReport.page(result));
        out.println();
        if (!summary.isEmpty()) out.print(ControllersReport.caseTable(summary) + "\n" + ControllersReport.comparisonTable(comparisons));
        if (!start.isEmpty()) out.print(ControllersReport.startTable(start, startNotAvailable));
        if (javac != null) out.print(ControllersReport.javacTable(javac));
        out.print(AuthReport.goalLines(goals));
        if (!failures.isEmpty()) {
            throw new IllegalStateException("controllers: the run failed (" + String.join("; ", failures) + "); results in " + json);
        }
        return json;
    }

    /** @return the start-up JVMs so far */
    List<StartRun> startRuns() {
        return List.copyOf(startRuns);
    }

    /** @return the start-up JVM kinds that could not be measured, and why */
    Map<String, String> startNotAvailable() {
        return Map.copyOf(startNotAvailable);
    }

    /** @return the javac processes so far */
    List<JavacRun> javacRuns() {
        return List.copyOf(javacRuns);
    }

    /** Runs a part; a failure is recorded and the next part still runs. */
    private void part(String name, Runnable body) {
        try {
            body.run();
        } catch (RuntimeException e) {
            out.println("FAILED " + name + ": " + e.getMessage());
            failures.add(name + ": " + e.getMessage());
        }
    }

    // ---- requests ----

    /** @return the server, in IO mode as the other suites run Tidemill */
    static Target target() {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return new Target("tidemill", "tidemill", true, false, (port, threads, dir) -> new Target.Command(
                TlsTargets.jvm(java, System.getProperty("java.class.path"), ControllersApp.class.getName()), Map.of(
                "TIDEMILL_MODE", "io", "TIDEMILL_PORT", Integer.toString(port), "TIDEMILL_IO_THREADS", Integer.toString(threads),
                "TIDEMILL_LOOPS", Integer.toString(threads))));
    }

    /**
     * @param kind {@code json} or {@code plaintext}
     * @param form {@code dsl}, {@code controller} or {@code dsl-twin}
     * @return the request's path and query
     */
    static String path(String kind, String form) {
        String prefix = switch (form) {
            case "dsl" -> ControllersApp.DSL_PREFIX;
            case "controller" -> ControllersApp.CONTROLLER_PREFIX;
            case "dsl-twin" -> ControllersApp.DSL_TWIN_PREFIX;
            default -> throw new IllegalArgumentException(form);
        };
        return switch (kind) {
            case "json" -> prefix + ControllersApp.ITEM_PATTERN.replace("{id}", Long.toString(ITEM)) + "?verbose=true";
            case "plaintext" -> prefix + ControllersApp.PLAINTEXT_PATH;
            default -> throw new IllegalArgumentException(kind);
        };
    }

    /** @return {@code kind-form}, the case's id in rows */
    static String caseId(String kind, String form) {
        return kind + "-" + form;
    }

    /**
     * @param round 1, 2, ...
     * @return the forms in that round's order: the first round's rotated by one each round
     */
    static List<String> formOrder(int round) {
        return rotated(FORMS, round);
    }

    /** @return {@code list} rotated left by {@code round - 1} */
    static List<String> rotated(List<String> list, int round) {
        List<String> order = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) order.add(list.get((i + round - 1) % list.size()));
        return order;
    }

    /**
     * Asks every case once and compares: 200, the same Content-Type for every form, and each body
     * exactly the expected one.
     *
     * @param port the server's port
     * @return what is wrong, empty when every case answers as it should
     */
    static List<String> check(int port) {
        List<String> problems = new ArrayList<>();
        for (String kind : KINDS) {
            String expected = kind.equals("json") ? ITEM_JSON : dev.tidemill.bench.controllers.Items.HELLO;
            String firstType = null;
            for (String form : FORMS) {
                String path = path(kind, form);
                String answer;
                try {
                    answer = LoopbackGet.get(port, path, 2_000);
                } catch (IOException e) {
                    problems.add("GET " + path + ": " + e.getMessage());
                    continue;
                }
                int end = answer.indexOf("\r\n\r\n");
                String head = end < 0 ? answer : answer.substring(0, end);
                String body = end < 0 ? "" : new String(answer.substring(end + 4).getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8);
                if (!head.startsWith("HTTP/1.1 200 ")) {
                    problems.add("GET " + path + " answered " + head.lines().findFirst().orElse("nothing"));
                    continue;
                }
                Matcher type = Pattern.compile("(?im)^content-type:\\s*(.+)$").matcher(head);
                String contentType = type.find() ? type.group(1).strip() : "";
                if (firstType == null) firstType = contentType;
                else if (!firstType.equals(contentType)) problems.add("GET " + path + ": Content-Type " + contentType + ", not " + firstType);
                if (!body.equals(expected)) problems.add("GET " + path + ": body " + body + ", not " + expected);
            }
        }
        return problems;
    }

    private void requests(CpuSets cpus, Path dir) {
        Preflight.serverBusyPercent(cpus, 300);
        try (RunningTarget running = RunningTarget.start(target(), cpus, dir)) {
            List<String> problems = check(running.port());
            Map<String, Object> rec = new LinkedHashMap<>();
            rec.put("part", "requests");
            rec.put("commandLine", running.commandLine());
            rec.put("startup", running.startupLines());
            rec.put("verification", problems);
            records.add(rec);
            if (!problems.isEmpty()) throw new IllegalStateException("answered wrongly, not measured: " + String.join("; ", problems));
            out.println("requests: checks pass");
            Map<String, List<String>> wrk = new LinkedHashMap<>();
            for (String kind : KINDS) for (String form : FORMS) wrk.put(caseId(kind, form), wrk(cpus.clientList(), running.port(), kind, form));
            if (settings.warmupSeconds() > 0) {
                for (Map.Entry<String, List<String>> c : wrk.entrySet()) {
                    WrkResult w = Wrk.run(AuthSuite.with(c.getValue(), settings.warmupSeconds()), settings.warmupSeconds());
                    out.printf(Locale.ROOT, "  warm-up  %-20s %,10.0f req/s%n", c.getKey(), w.requestsPerSec());
                }
            }
            for (int round = 1; round <= settings.rounds(); round++) {
                List<String> kinds = round % 2 == 1 ? KINDS : KINDS.reversed();
                for (String kind : kinds) {
                    for (String form : formOrder(round)) {
                        String id = caseId(kind, form);
                        AuthSuite.Row r = AuthSuite.measure(wrk.get(id), settings.durationSeconds(), running.pid(), cpus, round, "tidemill", id);
                        rows.add(r);
                        out.printf(Locale.ROOT, "  round %d %-20s %,10.0f req/s  %6.2f us CPU/req  errors %d%s%n", round, id, r.requestsPerSec(),
                                r.serverCpuUsPerRequest(), r.errors(), r.clientBound() ? "  client-bound" : "");
                        if (r.errors() > 0) failures.add("requests " + id + " round " + round + ": " + r.errors() + " errors");
                    }
                }
            }
        }
    }

    /** @return the wrk command of a case, without its duration */
    List<String> wrk(String client, int port, String kind, String form) {
        return List.of("taskset", "-c", client, "wrk", "-t1", "-c" + settings.connections(), "--latency", "--timeout", "8s",
                "http://127.0.0.1:" + port + path(kind, form));
    }

    // ---- start-up ----

    void start(CpuSets cpus, Path dir) {
        int count = settings.startControllers();
        Path jar = compileForStart(dir, count);
        String cp = System.getProperty("java.class.path") + File.pathSeparator + jar;
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        int expected = count * ControllerSources.METHODS;
        Map<String, Path> caches = trainAotCaches(cpus, dir, java, cp, count);
        try {
            measureStart(cpus, dir, java, cp, count, caches);
        } finally {
            for (Path cache : caches.values()) {
                try {
                    Files.deleteIfExists(cache); // about 30 MB each, of no use after the run
                } catch (IOException e) {
                    out.println("start: could not delete " + cache + ": " + e.getMessage());
                }
            }
        }
        ControllersReport.startSummary(startRuns).forEach(s -> out.printf(Locale.ROOT, "  start %s: controllers %+.1f ms, dsl %+.1f ms, with %d "
                + "and %d routes (%d expected)%n", s.jvm(), s.addedMs(), s.dslAddedMs(), s.routesAdded(), s.dslRoutesAdded(), expected));
    }

    /** The start-up JVMs: {@link #START_JVMS} x {@link #START_VARIANTS}, {@code runs} times, the variants' order rotated each run. */
    private void measureStart(CpuSets cpus, Path dir, String java, String cp, int count, Map<String, Path> caches) {
        for (int run = 1; run <= settings.startRuns(); run++) {
            for (String jvm : START_JVMS) {
                if (jvm.equals(AOT) && startNotAvailable.containsKey(AOT)) continue;
                for (String variant : rotated(START_VARIANTS, run)) {
                    Preflight.serverBusyPercent(cpus, 200);
                    List<String> cmd = probeCommand(cpus, java, cp, variant, jvm, count,
                            jvm.equals(AOT) ? List.of("-XX:AOTCache=" + caches.get(variant)) : List.of());
                    if (run == 1 && variant.equals("controllers") && (jvm.equals("cold") || jvm.equals(AOT))) {
                        records.add(Map.of("part", jvm.equals(AOT) ? "start aot" : "start", "commandLine", cmd));
                    }
                    Exec e = exec(cmd, dir.resolve("probe-" + run + "-" + jvm + "-" + variant + ".log"), 120);
                    Matcher m = PROBE.matcher(e.output());
                    if (e.exit() != 0 || !m.find()) {
                        throw new IllegalStateException("the start-up probe (" + variant + ", " + jvm + ") exited " + e.exit() + ":\n" + tail(e.output()));
                    }
                    String refused = jvm.equals(AOT) ? aotRefusal(e.output()) : null;
                    if (refused != null) {
                        // the JVM says it did not use its cache (or not all of it): its reading is not a start with the cache
                        startNotAvailable.put(AOT, "the " + variant + " JVM did not use its AOT cache: " + refused);
                        startRuns.removeIf(r -> r.jvm().equals(AOT));
                        out.println("  start: " + startNotAvailable.get(AOT) + "; the aot JVMs are not measured");
                        break;
                    }
                    StartRun s = new StartRun(run, variant, jvm, Integer.parseInt(m.group(1)), Long.parseLong(m.group(2)) / 1e6,
                            Long.parseLong(m.group(3)) / 1e6, e.seconds() * 1e3);
                    startRuns.add(s);
                    out.printf(Locale.ROOT, "  start run %d %-6s %-11s routes %4d  registration %7.1f ms  start() %7.1f ms  process %6.0f ms%n",
                            run, jvm, variant, s.routes(), s.registerMs(), s.startMs(), s.wallMs());
                }
            }
        }
    }

    /** @return the start-up probe's command line: pinned to the server CPUs, the targets' JVM flags, then {@code extra} */
    private static List<String> probeCommand(CpuSets cpus, String java, String cp, String variant, String jvm, int count, List<String> extra) {
        List<String> cmd = new ArrayList<>(List.of("taskset", "-c", cpus.serverList(), java));
        cmd.addAll(TargetCatalog.JVM_FLAGS);
        cmd.addAll(extra);
        cmd.addAll(List.of("-cp", cp, ControllersStartProbe.class.getName(), variant, jvm, Integer.toString(count)));
        return cmd;
    }

    /**
     * The AOT caches of the {@code aot} JVMs, one per variant, each written by one training run (untimed): the
     * variant's cold probe, with the same flags, class path and CPUs as the measured JVMs, plus
     * {@code -XX:AOTCacheOutput} (JDK 25: the JVM records the run and writes the cache as it exits, in a second
     * JVM), as docs/aot.md trains an app's. When a cache is not written, the {@code aot} JVMs are not measured
     * and {@link #startNotAvailable} says why, with the JVM's message.
     *
     * @return the cache of each variant; empty when one could not be written
     */
    private Map<String, Path> trainAotCaches(CpuSets cpus, Path dir, String java, String cp, int count) {
        Map<String, Path> caches = new LinkedHashMap<>();
        for (String variant : START_VARIANTS) {
            Path cache = dir.resolve(variant + ".aot");
            List<String> cmd = probeCommand(cpus, java, cp, variant, "cold", count, List.of("-XX:AOTCacheOutput=" + cache));
            Exec e = exec(cmd, dir.resolve("aot-training-" + variant + ".log"), 600);
            boolean written = Files.isRegularFile(cache) && PROBE.matcher(e.output()).find();
            Map<String, Object> rec = new LinkedHashMap<>();
            rec.put("part", "start aot training " + variant);
            rec.put("commandLine", cmd);
            rec.put("exit", e.exit());
            rec.put("seconds", Math.round(e.seconds() * 10) / 10.0);
            if (!written) {
                String why = e.output().lines().filter(l -> l.contains("[error]")).findFirst()
                        .orElse(e.output().lines().filter(l -> !l.contains(" INFO ")).reduce((a, b) -> b).orElse("no output"));
                rec.put("failed", why);
                records.add(rec);
                startNotAvailable.put(AOT, "the " + variant + " training run (exit " + e.exit() + ") wrote no AOT cache: " + why.strip());
                out.println("start: " + startNotAvailable.get(AOT) + "; the aot JVMs are not measured");
                return Map.of();
            }
            try {
                rec.put("cacheBytes", Files.size(cache));
            } catch (IOException ex) {
                throw new UncheckedIOException(ex);
            }
            records.add(rec);
            out.printf(Locale.ROOT, "start: the %s AOT cache, %,d KiB, written by a training run of %.1f s%n", variant,
                    ((Number) rec.get("cacheBytes")).longValue() / 1024, e.seconds());
            caches.put(variant, cache);
        }
        return caches;
    }

    /** @return the first line of a JVM's output that says it did not use its AOT cache (unified logging, aot or cds), or null */
    static String aotRefusal(String output) {
        return output.lines().filter(l -> l.startsWith("[") && (l.contains("][aot") || l.contains("][cds")) && AotTraining.refused(l))
                .findFirst().orElse(null);
    }

    /**
     * Writes and compiles (with the processor) the start-up part's controllers, and puts their classes
     * in a jar, as an app ships them (an AOT cache holds classes from jars only: a non-empty directory
     * on the class path stops the JVM writing one).
     *
     * @return the jar
     */
    private Path compileForStart(Path dir, int count) {
        Path src = dir.resolve("src");
        List<Path> files = new ArrayList<>(ControllerSources.write(src, count));
        files.add(ControllerSources.writeRegistrar(src, count));
        JavacRun r = javacOnce(dir.resolve("compiled"), files, processorPath(), 0, "processor", allCpus(CpuSets.derive()));
        if (!r.ok() || r.generated() != count + 1L) {
            throw new IllegalStateException("the " + count + " controllers did not compile with the processor (" + r.generated()
                    + " sources generated; the log is in " + dir.resolve("compiled") + ")");
        }
        out.printf(Locale.ROOT, "start: %d controllers compiled with the processor in %.1f s%n", count, r.wallSeconds());
        return jar(dir.resolve("compiled").resolve("classes"), dir.resolve("controllers.jar"));
    }

    /** Writes every file under {@code classes} (class files and the processor's service file) into {@code jar}. @return the jar */
    static Path jar(Path classes, Path jar) {
        try (Stream<Path> files = Files.walk(classes);
             java.util.jar.JarOutputStream j = new java.util.jar.JarOutputStream(Files.newOutputStream(jar))) {
            for (Path f : files.filter(Files::isRegularFile).sorted().toList()) {
                j.putNextEntry(new java.util.jar.JarEntry(classes.relativize(f).toString().replace(File.separatorChar, '/')));
                Files.copy(f, j);
                j.closeEntry();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return jar;
    }

    // ---- javac ----

    void javac(CpuSets cpus, Path dir) {
        int count = settings.javacControllers();
        List<Path> files = ControllerSources.write(dir.resolve("src"), count);
        String pp = processorPath();
        String all = allCpus(cpus);
        // One compilation with the processor first, unrecorded: its output is the "generated" variant's extra sources, and every
        // recorded run then finds the jars and sources in the page cache alike
        JavacRun first = javacOnce(dir.resolve("pregenerated"), files, pp, 0, "processor", all);
        if (!first.ok() || first.generated() != count + 1L) {
            throw new IllegalStateException("the first javac run with the processor generated " + first.generated() + " sources, not " + (count + 1));
        }
        List<Path> withGenerated = new ArrayList<>(files);
        try (Stream<Path> s = Files.walk(dir.resolve("pregenerated").resolve("generated"))) {
            s.filter(p -> p.toString().endsWith(".java")).sorted().forEach(withGenerated::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        for (int run = 1; run <= settings.javacRuns(); run++) {
            for (String variant : rotated(JAVAC_VARIANTS, run)) {
                Preflight.serverBusyPercent(cpus, 200);
                Path out = dir.resolve(variant + "-" + run);
                JavacRun r = javacOnce(out, variant.equals("generated") ? withGenerated : files, variant.equals("processor") ? pp : null, run,
                        variant, all);
                javacRuns.add(r);
                this.out.printf(Locale.ROOT, "  javac run %d %-9s %6.2f s (the call %6.2f s)  %d class files, %d generated sources%n", run,
                        variant, r.wallSeconds(), r.compileSeconds(), r.classes(), r.generated());
                if (!r.ok()) throw new IllegalStateException("javac (" + variant + ") failed; its log is in " + out);
                long expectedGenerated = variant.equals("processor") ? count + 1L : 0;
                if (r.generated() != expectedGenerated) {
                    throw new IllegalStateException("javac (" + variant + ") generated " + r.generated() + " sources, not " + expectedGenerated);
                }
                if (variant.equals("generated") && r.classes() != first.classes()) {
                    throw new IllegalStateException("javac (generated) wrote " + r.classes() + " class files, the processor's run " + first.classes());
                }
            }
        }
    }

    /** @return every CPU of the machine in taskset's list syntax: a build uses them all */
    static String allCpus(CpuSets cpus) {
        List<Integer> all = new ArrayList<>(cpus.server());
        cpus.client().stream().filter(c -> !all.contains(c)).forEach(all::add);
        return String.join(",", all.stream().map(String::valueOf).toList());
    }

    /**
     * Runs {@link JavacProbe} in a fresh JVM on every CPU.
     *
     * @param dir its output directory (fresh)
     * @param sources the sources
     * @param processorPath the processor path, or null for {@code -proc:none}
     */
    private JavacRun javacOnce(Path dir, List<Path> sources, String processorPath, int run, String variant, String cpuList) {
        try {
            Files.createDirectories(dir);
            Path list = dir.resolve("sources.txt");
            Files.write(list, sources.stream().map(Path::toString).toList());
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            List<String> cmd = List.of("taskset", "-c", cpuList, java, "-cp", probeLocation(), JavacProbe.class.getName(), dir.toString(),
                    list.toString(), compilePath(), processorPath == null ? "-" : processorPath);
            if (run == 1 && records.stream().noneMatch(r -> ("javac " + variant).equals(r.get("part")))) {
                records.add(Map.of("part", "javac " + variant, "commandLine", cmd));
            }
            Exec e = exec(cmd, dir.resolve("javac.log"), 600);
            Matcher m = JAVAC.matcher(e.output());
            if (!m.find()) throw new IllegalStateException("javac probe exited " + e.exit() + " without its line:\n" + tail(e.output()));
            return new JavacRun(run, variant, e.seconds(), Long.parseLong(m.group(2)) / 1e9, Long.parseLong(m.group(3)),
                    Long.parseLong(m.group(4)), e.exit() == 0 && Boolean.parseBoolean(m.group(1)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** @return where {@link JavacProbe} is: the runner's jar, or its classes in a test */
    private static String probeLocation() {
        try {
            return Path.of(JavacProbe.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** @return the processor's class path: given, else the list the controllers module's build wrote */
    String processorPath() {
        if (processorPath != null) return processorPath;
        Path file = settings.repoRoot().resolve(PROCESSOR_PATH_FILE);
        try {
            String p = Files.isRegularFile(file) ? Files.readString(file).strip() : "";
            if (p.isEmpty()) throw new IllegalStateException("no processor class path in " + file + "; ./tidemill bench controllers builds it");
            return p;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** @return the class path javac compiles against: the controllers module's (tidemill-core and its dependencies), else the runner's */
    String compilePath() {
        Path file = settings.repoRoot().resolve(COMPILE_PATH_FILE);
        try {
            String p = Files.isRegularFile(file) ? Files.readString(file).strip() : "";
            return p.isEmpty() ? System.getProperty("java.class.path") : p;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** What a child process did. */
    private record Exec(int exit, String output, double seconds) {}

    /** Runs a command to its end, its output to {@code log} too, timed from launch to exit. */
    private static Exec exec(List<String> cmd, Path log, int timeoutSeconds) {
        try {
            ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
            pb.environment().keySet().removeIf(k -> k.startsWith("TIDEMILL_")); // Tidemill refuses unknown TIDEMILL_* variables
            long t0 = System.nanoTime();
            Process p = pb.start();
            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException("did not finish in " + timeoutSeconds + " s: " + String.join(" ", cmd));
            }
            double seconds = (System.nanoTime() - t0) / 1e9;
            return new Exec(p.exitValue(), Files.readString(log), seconds);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static String tail(String text) {
        List<String> lines = text.lines().toList();
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
    }

    private Map<String, Object> configuration(CpuSets cpus) {
        Map<String, Object> conf = new LinkedHashMap<>();
        conf.put("parts", settings.parts());
        conf.put("target", "ControllersApp, TIDEMILL_MODE=io: each endpoint as DSL routes (" + ControllersApp.DSL_PREFIX + "), as ItemsController ("
                + ControllersApp.CONTROLLER_PREFIX + ", compiled by tidemill-processor) and as DSL routes again (" + ControllersApp.DSL_TWIN_PREFIX + ")");
        conf.put("serverCpus", cpus.serverList());
        conf.put("loadGeneratorCpus", cpus.clientList());
        Map<String, String> paths = new LinkedHashMap<>();
        for (String kind : KINDS) for (String form : FORMS) paths.put(caseId(kind, form), path(kind, form));
        conf.put("cases", paths);
        conf.put("rounds", settings.rounds());
        conf.put("warmupSeconds", settings.warmupSeconds());
        conf.put("durationSeconds", settings.durationSeconds());
        conf.put("wrk", "wrk -t1 -c" + settings.connections() + " --timeout 8s, keep-alive");
        conf.put("wrkVersion", Host.command("wrk", "-v").orElse("?"));
        conf.put("startControllers", settings.startControllers());
        conf.put("methodsPerController", ControllerSources.METHODS);
        conf.put("startRuns", settings.startRuns());
        conf.put("startVariants", START_VARIANTS);
        conf.put("startJvms", START_JVMS);
        conf.put("startTimed", "the registration (app.controllers(all), or the generated routes classes called directly) then app.start() "
                + "on port 0, from after Tidemill.create to start()'s return; controllers constructed before; cold: the JVM's first app; "
                + "primed: after an app with one route started and closed; repeat: after an app with the same routes started and closed; "
                + "aot: the JVM's first app, the JVM started with -XX:AOTCache=<file>");
        conf.put("startClassPath", "the runner's class path, then the generated controllers' classes in one jar");
        conf.put("startAot", "one AOT cache per variant, written before the runs by one untimed training run: the variant's cold probe "
                + "with the same flags, class path and CPUs plus -XX:AOTCacheOutput=<file> (JEP 483/514, one step on JDK 25; the JVM "
                + "writes the cache as it exits); an aot JVM whose output says it did not use its cache ([warning] or [error] lines of "
                + "the aot or cds logs) is not counted, and the state is then n/a");
        conf.put("javacControllers", settings.javacControllers());
        conf.put("javacRuns", settings.javacRuns());
        conf.put("javacOptions", JavacProbe.OPTIONS + " -d <fresh dir> -s <fresh dir> -cp <tidemill-core and its dependencies>, then "
                + "-proc:none or -processorpath <tidemill-processor, JavaPoet>");
        conf.put("javacVariants", JAVAC_VARIANTS);
        conf.put("javacCpus", allCpus(cpus));
        conf.put("javacVersion", Runtime.version().toString());
        conf.put("jvmFlags", TargetCatalog.JVM_FLAGS);
        return conf;
    }
}
