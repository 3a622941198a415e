package dev.tidemill.bench;

import dev.tidemill.bench.controllers.ControllersApp;
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
import java.util.stream.Stream;

/**
 * {@code ./tidemill bench controllers}: what a controller compiled by tidemill-processor costs
 * against the same routes written with the lambda DSL. Three parts, each checked before it is
 * measured, each its own class:
 *
 * <ol>
 *   <li>Requests ({@link ControllersRequests}): {@link ControllersApp} serves each endpoint ({@code GET /items/7?verbose=true}, a
 *       small JSON record, and {@code GET /plaintext}) as DSL routes, as {@code ItemsController} and as
 *       the DSL routes again (the A/A twin), in one server process. wrk on each case, warmed up, then
 *       rounds rotating which form goes first, with the server's CPU read from {@code /proc} over each
 *       window ({@link AuthSuite#measure}).</li>
 *   <li>Start-up ({@link ControllersStartup}): {@link ControllerSources} writes 100 controllers of 10 routes, javac compiles them with
 *       the processor, and fresh JVMs ({@link ControllersStartProbe}) time {@code app.controllers(...)} and
 *       {@code start()} with them against an empty app: in a JVM whose first app it is (cold), in one where
 *       an app already started (primed), in one where the same routes were registered before (repeat),
 *       and in a JVM whose first app it is, started with a JDK AOT cache that a training run of the same
 *       app wrote (aot).</li>
 *   <li>javac ({@link ControllersJavac}): 200 generated controllers compiled by fresh javac processes ({@link JavacProbe}) with
 *       {@code -proc:none} and with the processor on {@code -processorpath}, alternating.</li>
 * </ol>
 *
 * This class checks the host, runs the parts (a part that fails is recorded and the next one still runs),
 * and puts the result together; {@link ControllersReport} turns the readings into medians, ratios and the
 * goals. Writes {@code <UTC>-controllers.json} and {@code .md}.
 */
public final class ControllersSuite {
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
                         List<AuthSuite.Row> rows, List<ControllersRequestsReport.CaseSummary> summary,
                         List<ControllersRequestsReport.Comparison> comparisons, List<ControllersStartup.StartRun> startRuns,
                         List<ControllersStartupReport.StartSummary> start, Map<String, String> startNotAvailable,
                         List<ControllersJavac.JavacRun> javacRuns, ControllersJavacReport.JavacSummary javac, List<AuthReport.Goal> goals,
                         List<String> failures) {}

    private final ControllersSettings settings;
    private final String command;
    private final PrintStream out;
    private final List<String> failures = new ArrayList<>();
    private final ControllersRequests requestPart;
    private final ControllersJavac javacPart;
    private final ControllersStartup startPart;

    /**
     * @param settings the options
     * @param command the command line, as recorded
     * @param out progress
     */
    public ControllersSuite(ControllersSettings settings, String command, PrintStream out) {
        this.settings = settings;
        this.command = command;
        this.out = out;
        this.requestPart = new ControllersRequests(settings, out, failures::add);
        this.javacPart = new ControllersJavac(settings, out);
        this.startPart = new ControllersStartup(settings, out, javacPart);
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
        if (settings.parts().contains("requests")) part("requests", () -> requestPart.measure(cpus, work.resolve("requests")));
        if (settings.parts().contains("start")) part("start", () -> startPart.measure(cpus, work.resolve("start")));
        if (settings.parts().contains("javac")) part("javac", () -> javacPart.measure(cpus, work.resolve("javac")));
        List<AuthSuite.Row> rows = requestPart.rows();
        List<ControllersStartup.StartRun> startRuns = startPart.runs();
        Map<String, String> startNotAvailable = startPart.notAvailable();
        List<ControllersRequestsReport.CaseSummary> summary = ControllersRequestsReport.summarise(rows);
        List<ControllersRequestsReport.Comparison> comparisons = ControllersRequestsReport.compare(rows);
        List<ControllersStartupReport.StartSummary> start = ControllersStartupReport.summary(startRuns);
        ControllersJavacReport.JavacSummary javac = ControllersJavacReport.summary(javacPart.runs(), settings.javacControllers());
        int expectedRoutes = settings.startControllers() * ControllerSources.METHODS;
        for (ControllersStartupReport.StartSummary s : start) {
            if (s.routesAdded() != expectedRoutes || s.dslRoutesAdded() != expectedRoutes) {
                failures.add("start " + s.jvm() + ": " + s.routesAdded() + " and " + s.dslRoutesAdded() + " routes added, not " + expectedRoutes);
            }
        }
        List<AuthReport.Goal> goals = ControllersReport.goals(comparisons, start, startNotAvailable, javac, settings.startControllers(),
                settings.javacControllers());
        Result result = new Result(settings.suite(), settings.quick(), started, Instant.now().toString(), command, fingerprint, preflight,
                configuration(cpus), records(), rows, summary, comparisons, startRuns, start, startNotAvailable, javacPart.runs(), javac, goals,
                List.copyOf(failures));
        Path json = ResultFile.write(settings.outDir(), result.suite(), result, ControllersReport.page(result));
        out.println();
        if (!summary.isEmpty()) {
            out.print(ControllersRequestsReport.caseTable(summary) + "\n" + ControllersRequestsReport.comparisonTable(comparisons));
        }
        if (!start.isEmpty()) out.print(ControllersStartupReport.table(start, startNotAvailable));
        if (javac != null) out.print(ControllersJavacReport.table(javac));
        out.print(AuthReport.goalLines(goals));
        if (!failures.isEmpty()) {
            throw new IllegalStateException("controllers: the run failed (" + String.join("; ", failures) + "); results in " + json);
        }
        return json;
    }

    /** @return the parts' records in the parts' order: the request server, the start-up JVMs, the javac processes */
    private List<Map<String, Object>> records() {
        List<Map<String, Object>> records = new ArrayList<>(requestPart.records());
        records.addAll(startPart.records());
        records.addAll(javacPart.records());
        return List.copyOf(records);
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

    /** @return {@code list} rotated left by {@code round - 1}: the order of a part's cases in that round */
    static List<String> rotated(List<String> list, int round) {
        List<String> order = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) order.add(list.get((i + round - 1) % list.size()));
        return order;
    }

    private Map<String, Object> configuration(CpuSets cpus) {
        Map<String, Object> conf = new LinkedHashMap<>();
        conf.put("parts", settings.parts());
        conf.put("target", "ControllersApp, TIDEMILL_MODE=io: each endpoint as DSL routes (" + ControllersApp.DSL_PREFIX + "), as ItemsController ("
                + ControllersApp.CONTROLLER_PREFIX + ", compiled by tidemill-processor) and as DSL routes again (" + ControllersApp.DSL_TWIN_PREFIX + ")");
        conf.put("serverCpus", cpus.serverList());
        conf.put("loadGeneratorCpus", cpus.clientList());
        conf.put("cases", ControllersRequests.casePaths());
        conf.put("rounds", settings.rounds());
        conf.put("warmupSeconds", settings.warmupSeconds());
        conf.put("durationSeconds", settings.durationSeconds());
        conf.put("wrk", "wrk -t1 -c" + settings.connections() + " --timeout 8s, keep-alive");
        conf.put("wrkVersion", Host.command("wrk", "-v").orElse("?"));
        conf.put("startControllers", settings.startControllers());
        conf.put("methodsPerController", ControllerSources.METHODS);
        conf.put("startRuns", settings.startRuns());
        conf.put("startVariants", ControllersStartup.VARIANTS);
        conf.put("startJvms", ControllersStartup.JVMS);
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
        conf.put("javacVariants", ControllersJavac.VARIANTS);
        conf.put("javacCpus", ControllersJavac.allCpus(cpus));
        conf.put("javacVersion", Runtime.version().toString());
        conf.put("jvmFlags", TargetCatalog.JVM_FLAGS);
        return conf;
    }
}
