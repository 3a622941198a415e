package dev.tidemill.bench;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Medians, ratios, the A/A spread, the goals and the page of {@code ./tidemill bench controllers} ({@link ControllersSuite}). */
final class ControllersReport {
    /** The goal: 1,000 generated routes add less than this to an app's start (ms). */
    static final double START_GOAL_MS = 20;
    /** The goal: the processor adds less than this to javac for 200 controllers of 10 methods (s). */
    static final double JAVAC_GOAL_SECONDS = 2;

    private ControllersReport() {}

    /**
     * One case over the rounds.
     *
     * @param caseId {@code kind-form}
     * @param kind {@code json} or {@code plaintext}
     * @param form {@code dsl}, {@code controller} or {@code dsl-twin}
     * @param path the request
     * @param rounds rounds with a window without errors
     * @param medianRps median 2xx per second
     * @param medianCpuUs median server CPU microseconds per request
     * @param minCpuUs lowest round
     * @param maxCpuUs highest round
     * @param clientBoundRounds rounds whose window had the generator's CPUs busy (compare CPU/req there, not req/s)
     */
    record CaseSummary(String caseId, String kind, String form, String path, int rounds, double medianRps, double medianCpuUs,
                       double minCpuUs, double maxCpuUs, int clientBoundRounds) {}

    /**
     * The controller against the DSL route, and the DSL twin against the DSL route (A/A), for one
     * endpoint, each a ratio taken within a round.
     *
     * @param kind the endpoint
     * @param rounds rounds with all three forms
     * @param cpuRatio median over rounds of the controller's server CPU per request / the DSL route's
     * @param cpuRatioMin its lowest round
     * @param cpuRatioMax its highest round
     * @param aaCpuMin the lowest round of the twin's CPU per request / the DSL route's
     * @param aaCpuMax its highest round
     * @param aaCpuSpread the A/A spread: the largest distance of an A/A ratio from 1
     * @param rpsRatio median over rounds of the controller's req/s / the DSL route's
     * @param rpsRatioMin its lowest round
     * @param rpsRatioMax its highest round
     * @param aaRpsMin the lowest round of the twin's req/s / the DSL route's
     * @param aaRpsMax its highest round
     * @param aaRpsSpread the largest distance of an A/A req/s ratio from 1
     * @param cpuWithinSpread whether |cpuRatio - 1| <= aaCpuSpread
     * @param rpsWithinSpread whether |rpsRatio - 1| <= aaRpsSpread
     */
    record Comparison(String kind, int rounds, double cpuRatio, double cpuRatioMin, double cpuRatioMax, double aaCpuMin, double aaCpuMax,
                      double aaCpuSpread, double rpsRatio, double rpsRatioMin, double rpsRatioMax, double aaRpsMin, double aaRpsMax,
                      double aaRpsSpread, boolean cpuWithinSpread, boolean rpsWithinSpread) {}

    /**
     * The start-up JVMs of one kind.
     *
     * @param jvm {@code cold}, {@code primed}, {@code repeat} or {@code aot}
     * @param runs JVMs per variant
     * @param emptyMedianMs the empty app's {@code start()}, median
     * @param emptyMinMs its lowest
     * @param emptyMaxMs its highest
     * @param controllersMedianMs {@code app.controllers(...)} with the generated controllers and {@code start()}, median
     * @param controllersMinMs its lowest
     * @param controllersMaxMs its highest
     * @param dslMedianMs the same routes by direct calls of the generated routes classes and {@code start()}, median
     * @param dslMinMs its lowest
     * @param dslMaxMs its highest
     * @param addedMs what the controllers add: controllersMedianMs - emptyMedianMs
     * @param dslAddedMs what the same routes add registered directly: dslMedianMs - emptyMedianMs
     * @param registerMedianMs {@code app.controllers(...)} alone, median
     * @param controllersStartMedianMs {@code start()} alone of the app with the controllers, median
     * @param dslRegisterMedianMs the direct calls alone, median
     * @param routesAdded routes of the app with controllers less those of the empty app (-1 when they varied)
     * @param dslRoutesAdded the same for the direct calls
     */
    record StartSummary(String jvm, int runs, double emptyMedianMs, double emptyMinMs, double emptyMaxMs, double controllersMedianMs,
                        double controllersMinMs, double controllersMaxMs, double dslMedianMs, double dslMinMs, double dslMaxMs,
                        double addedMs, double dslAddedMs, double registerMedianMs, double controllersStartMedianMs,
                        double dslRegisterMedianMs, int routesAdded, int dslRoutesAdded) {}

    /**
     * The javac processes of one variant.
     *
     * @param variant {@code none}, {@code processor} or {@code generated}
     * @param runs processes
     * @param wallSeconds the process from launch to exit, median
     * @param minWall the lowest
     * @param maxWall the highest
     * @param compileSeconds the compiler's call inside it, median
     * @param classes class files written
     * @param generated sources the processor wrote
     */
    record JavacVariant(String variant, int runs, double wallSeconds, double minWall, double maxWall, double compileSeconds, long classes,
                        long generated) {}

    /**
     * The javac processes.
     *
     * @param controllers controllers compiled
     * @param methods routes per controller
     * @param variants per variant, in {@link ControllersSuite#JAVAC_VARIANTS} order
     * @param addedWallSeconds what the processor adds: the processor's median wall less {@code -proc:none}'s
     * @param addedCompileSeconds the same for the compiler's call
     * @param generatedCodeWallSeconds of that, compiling what it wrote: {@code generated}'s median less {@code -proc:none}'s (NaN without it)
     * @param processorOnlyWallSeconds the rest: the processor's median less {@code generated}'s (NaN without it)
     */
    record JavacSummary(int controllers, int methods, List<JavacVariant> variants, double addedWallSeconds, double addedCompileSeconds,
                        double generatedCodeWallSeconds, double processorOnlyWallSeconds) {
        /** @return processes per variant (the fewest) */
        int runs() {
            return variants.stream().mapToInt(JavacVariant::runs).min().orElse(0);
        }

        /** @return the variant, or null */
        JavacVariant variant(String name) {
            return variants.stream().filter(v -> v.variant().equals(name)).findFirst().orElse(null);
        }
    }

    private static List<AuthSuite.Row> valid(List<AuthSuite.Row> rows) {
        return rows.stream().filter(r -> r.requests() > 0 && r.errors() == 0).toList();
    }

    static List<CaseSummary> summarise(List<AuthSuite.Row> rows) {
        List<CaseSummary> out = new ArrayList<>();
        for (String kind : ControllersSuite.KINDS) {
            for (String form : ControllersSuite.FORMS) {
                String id = ControllersSuite.caseId(kind, form);
                List<AuthSuite.Row> mine = valid(rows).stream().filter(r -> r.caseId().equals(id)).toList();
                if (mine.isEmpty()) continue;
                List<Double> cpu = mine.stream().map(AuthSuite.Row::serverCpuUsPerRequest).toList();
                out.add(new CaseSummary(id, kind, form, ControllersSuite.path(kind, form), mine.size(),
                        AuthReport.median(mine.stream().map(AuthSuite.Row::requestsPerSec).toList()), AuthReport.median(cpu), min(cpu), max(cpu),
                        (int) mine.stream().filter(AuthSuite.Row::clientBound).count()));
            }
        }
        return out;
    }

    static List<Comparison> compare(List<AuthSuite.Row> rows) {
        List<Comparison> out = new ArrayList<>();
        List<AuthSuite.Row> ok = valid(rows);
        for (String kind : ControllersSuite.KINDS) {
            List<Double> cpu = new ArrayList<>(), aaCpu = new ArrayList<>(), rps = new ArrayList<>(), aaRps = new ArrayList<>();
            for (int round : ok.stream().mapToInt(AuthSuite.Row::round).distinct().sorted().toArray()) {
                AuthSuite.Row dsl = find(ok, round, ControllersSuite.caseId(kind, "dsl"));
                AuthSuite.Row controller = find(ok, round, ControllersSuite.caseId(kind, "controller"));
                AuthSuite.Row twin = find(ok, round, ControllersSuite.caseId(kind, "dsl-twin"));
                if (dsl == null || controller == null || twin == null) continue;
                cpu.add(controller.serverCpuUsPerRequest() / dsl.serverCpuUsPerRequest());
                aaCpu.add(twin.serverCpuUsPerRequest() / dsl.serverCpuUsPerRequest());
                rps.add(controller.requestsPerSec() / dsl.requestsPerSec());
                aaRps.add(twin.requestsPerSec() / dsl.requestsPerSec());
            }
            if (cpu.isEmpty()) continue;
            double cpuRatio = AuthReport.median(cpu), rpsRatio = AuthReport.median(rps);
            double cpuSpread = spread(aaCpu), rpsSpread = spread(aaRps);
            out.add(new Comparison(kind, cpu.size(), cpuRatio, min(cpu), max(cpu), min(aaCpu), max(aaCpu), cpuSpread, rpsRatio, min(rps),
                    max(rps), min(aaRps), max(aaRps), rpsSpread, Math.abs(cpuRatio - 1) <= cpuSpread, Math.abs(rpsRatio - 1) <= rpsSpread));
        }
        return out;
    }

    /** @return the largest distance of a ratio from 1: the twin over the DSL route and the DSL route over the twin are the same comparison */
    static double spread(List<Double> ratios) {
        return ratios.stream().mapToDouble(r -> Math.abs(r - 1)).max().orElse(Double.NaN);
    }

    private static AuthSuite.Row find(List<AuthSuite.Row> rows, int round, String caseId) {
        return rows.stream().filter(r -> r.round() == round && r.caseId().equals(caseId)).findFirst().orElse(null);
    }

    static List<StartSummary> startSummary(List<ControllersSuite.StartRun> runs) {
        List<StartSummary> out = new ArrayList<>();
        for (String jvm : ControllersSuite.START_JVMS) {
            List<ControllersSuite.StartRun> empty = of(runs, jvm, "empty"), with = of(runs, jvm, "controllers"), dsl = of(runs, jvm, "dsl");
            if (empty.isEmpty() || with.isEmpty() || dsl.isEmpty()) continue;
            List<Double> e = totals(empty), w = totals(with), d = totals(dsl);
            double em = AuthReport.median(e), wm = AuthReport.median(w), dm = AuthReport.median(d);
            out.add(new StartSummary(jvm, Math.min(empty.size(), Math.min(with.size(), dsl.size())), em, min(e), max(e), wm, min(w), max(w),
                    dm, min(d), max(d), wm - em, dm - em, AuthReport.median(with.stream().map(ControllersSuite.StartRun::registerMs).toList()),
                    AuthReport.median(with.stream().map(ControllersSuite.StartRun::startMs).toList()),
                    AuthReport.median(dsl.stream().map(ControllersSuite.StartRun::registerMs).toList()), routesAdded(with, empty),
                    routesAdded(dsl, empty)));
        }
        return out;
    }

    private static List<ControllersSuite.StartRun> of(List<ControllersSuite.StartRun> runs, String jvm, String variant) {
        return runs.stream().filter(r -> r.jvm().equals(jvm) && r.variant().equals(variant)).toList();
    }

    private static List<Double> totals(List<ControllersSuite.StartRun> runs) {
        return runs.stream().map(ControllersSuite.StartRun::totalMs).toList();
    }

    /** @return the routes one variant has more than the empty app, -1 when a variant's count varied between JVMs */
    private static int routesAdded(List<ControllersSuite.StartRun> with, List<ControllersSuite.StartRun> empty) {
        int w = with.getFirst().routes(), e = empty.getFirst().routes();
        boolean same = with.stream().allMatch(r -> r.routes() == w) && empty.stream().allMatch(r -> r.routes() == e);
        return same ? w - e : -1;
    }

    static JavacSummary javacSummary(List<ControllersSuite.JavacRun> runs, int controllers) {
        List<JavacVariant> variants = new ArrayList<>();
        for (String v : ControllersSuite.JAVAC_VARIANTS) {
            List<ControllersSuite.JavacRun> mine = runs.stream().filter(r -> r.ok() && r.variant().equals(v)).toList();
            if (mine.isEmpty()) continue;
            List<Double> wall = mine.stream().map(ControllersSuite.JavacRun::wallSeconds).toList();
            variants.add(new JavacVariant(v, mine.size(), AuthReport.median(wall), min(wall), max(wall),
                    AuthReport.median(mine.stream().map(ControllersSuite.JavacRun::compileSeconds).toList()), mine.getFirst().classes(),
                    mine.getFirst().generated()));
        }
        JavacVariant none = find(variants, "none"), proc = find(variants, "processor"), gen = find(variants, "generated");
        if (none == null || proc == null) return null;
        return new JavacSummary(controllers, ControllerSources.METHODS, variants, proc.wallSeconds() - none.wallSeconds(),
                proc.compileSeconds() - none.compileSeconds(), gen == null ? Double.NaN : gen.wallSeconds() - none.wallSeconds(),
                gen == null ? Double.NaN : proc.wallSeconds() - gen.wallSeconds());
    }

    private static JavacVariant find(List<JavacVariant> variants, String name) {
        return variants.stream().filter(v -> v.variant().equals(name)).findFirst().orElse(null);
    }

    static List<AuthReport.Goal> goals(List<Comparison> comparisons, List<StartSummary> start, Map<String, String> startNotAvailable,
                                       JavacSummary javac, int startControllers, int javacControllers) {
        List<AuthReport.Goal> goals = new ArrayList<>();
        for (String kind : ControllersSuite.KINDS) {
            String goal = "the " + kind + " endpoint as a controller costs the same server CPU per request as the identical DSL route, "
                    + "within the A/A spread of two identical DSL routes";
            Comparison c = comparisons.stream().filter(x -> x.kind().equals(kind)).findFirst().orElse(null);
            if (c == null) {
                goals.add(new AuthReport.Goal(goal, "not measured", null));
            } else {
                goals.add(new AuthReport.Goal(goal, String.format(Locale.ROOT, "controller/DSL %.3f (rounds %.3f-%.3f); A/A twin/DSL %.3f-%.3f, "
                                + "spread %.1f %%; req/s controller/DSL %.3f, A/A spread %.1f %% (%d rounds)", c.cpuRatio(), c.cpuRatioMin(),
                        c.cpuRatioMax(), c.aaCpuMin(), c.aaCpuMax(), 100 * c.aaCpuSpread(), c.rpsRatio(), 100 * c.aaRpsSpread(), c.rounds()),
                        c.cpuWithinSpread()));
            }
        }
        goals.add(startGoal(start, startNotAvailable, startControllers));
        String javacGoal = String.format(Locale.ROOT, "the processor adds under %.0f s of javac for %d controllers of %d methods",
                JAVAC_GOAL_SECONDS, javacControllers, ControllerSources.METHODS);
        if (javac == null) {
            goals.add(new AuthReport.Goal(javacGoal, "not measured", null));
        } else {
            String split = Double.isNaN(javac.generatedCodeWallSeconds()) ? "" : String.format(Locale.ROOT, "; of which compiling the "
                    + "sources it writes %+.2f s and the rest %+.2f s", javac.generatedCodeWallSeconds(), javac.processorOnlyWallSeconds());
            goals.add(new AuthReport.Goal(javacGoal, String.format(Locale.ROOT, "%+.2f s (median %.2f s with -processorpath against %.2f s "
                            + "with -proc:none, %d fresh processes each; the compiler's call alone %+.2f s%s)", javac.addedWallSeconds(),
                    javac.variant("processor").wallSeconds(), javac.variant("none").wallSeconds(), javac.runs(), javac.addedCompileSeconds(),
                    split), javac.addedWallSeconds() < JAVAC_GOAL_SECONDS));
        }
        return goals;
    }

    /**
     * The start-up goal. Two kinds of JVM are a fresh JVM's first app, as the goal says: cold, and aot (the same
     * JVM started with an AOT cache); the goal is met when either meets it, and the reading says which. The
     * reading also names the registration alone ({@code app.controllers(...)}) and {@code start()} in the JVM that
     * registered the same routes before (repeat), which the goal does not cover.
     */
    static AuthReport.Goal startGoal(List<StartSummary> start, Map<String, String> startNotAvailable, int startControllers) {
        String goal = String.format(Locale.ROOT, "%,d generated routes (%d controllers x %d methods) add under %.0f ms to an app's start "
                + "(a fresh JVM's first app)", startControllers * ControllerSources.METHODS, startControllers, ControllerSources.METHODS, START_GOAL_MS);
        StartSummary cold = state(start, "cold"), primed = state(start, "primed"), repeat = state(start, "repeat");
        StartSummary aot = state(start, ControllersSuite.AOT);
        if (cold == null && aot == null) return new AuthReport.Goal(goal, "not measured", null);
        StringBuilder b = new StringBuilder();
        if (cold != null) {
            b.append(String.format(Locale.ROOT, "cold %+.1f ms (median %.1f ms with them against %.1f ms empty, %d JVMs each; "
                            + "app.controllers(...) itself %.1f ms; the same routes by direct DSL calls %+.1f ms)", cold.addedMs(),
                    cold.controllersMedianMs(), cold.emptyMedianMs(), cold.runs(), cold.registerMedianMs(), cold.dslAddedMs()));
        } else {
            b.append("cold not measured");
        }
        if (aot != null) {
            b.append(String.format(Locale.ROOT, "; with an AOT cache trained on the same app %+.1f ms (median %.1f ms against %.1f ms empty, "
                            + "%d JVMs each; app.controllers(...) itself %.1f ms; direct DSL calls %+.1f ms)", aot.addedMs(),
                    aot.controllersMedianMs(), aot.emptyMedianMs(), aot.runs(), aot.registerMedianMs(), aot.dslAddedMs()));
        } else {
            b.append("; with an AOT cache: n/a (").append(startNotAvailable.getOrDefault(ControllersSuite.AOT, "not measured")).append(')');
        }
        List<String> meeting = new ArrayList<>();
        if (cold != null && cold.addedMs() < START_GOAL_MS) meeting.add("cold");
        if (aot != null && aot.addedMs() < START_GOAL_MS) meeting.add("with an AOT cache");
        b.append("; met by: ").append(meeting.isEmpty() ? "neither" : String.join(" and ", meeting));
        if (primed != null) b.append(String.format(Locale.ROOT, "; with Tidemill already loaded %+.1f ms", primed.addedMs()));
        if (repeat != null) {
            b.append(String.format(Locale.ROOT, "; with the same routes registered once before in the JVM (classes loaded and linked) "
                            + "%+.1f ms: app.controllers(...) alone %.1f ms (%s %.0f ms), start() %.1f ms against the empty app's %.1f ms",
                    repeat.addedMs(), repeat.registerMedianMs(), repeat.registerMedianMs() < START_GOAL_MS ? "under" : "not under",
                    START_GOAL_MS, repeat.controllersStartMedianMs(), repeat.emptyMedianMs()));
        }
        return new AuthReport.Goal(goal, b.toString(), !meeting.isEmpty());
    }

    private static StartSummary state(List<StartSummary> start, String jvm) {
        return start.stream().filter(s -> s.jvm().equals(jvm)).findFirst().orElse(null);
    }

    static String caseTable(List<CaseSummary> summary) {
        StringBuilder b = new StringBuilder("| endpoint | form | request | req/s | server CPU us/req (min-max) | client-bound rounds |\n"
                + "|---|---|---|---:|---:|---:|\n");
        for (CaseSummary s : summary) {
            b.append("| ").append(s.kind()).append(" | ").append(s.form()).append(" | `GET ").append(s.path()).append("` | ")
                    .append(fmt("%,.0f", s.medianRps())).append(" | ").append(fmt("%.2f", s.medianCpuUs())).append(" (")
                    .append(fmt("%.2f", s.minCpuUs())).append("-").append(fmt("%.2f", s.maxCpuUs())).append(") | ")
                    .append(s.clientBoundRounds()).append(" of ").append(s.rounds()).append(" |\n");
        }
        return b.toString();
    }

    static String comparisonTable(List<Comparison> comparisons) {
        StringBuilder b = new StringBuilder("| endpoint | CPU/req controller/DSL, median (rounds) | CPU/req A/A twin/DSL (rounds) | A/A spread "
                + "| within | req/s controller/DSL, median (rounds) | req/s A/A twin/DSL (rounds) | A/A spread | within |\n"
                + "|---|---:|---:|---:|---|---:|---:|---:|---|\n");
        for (Comparison c : comparisons) {
            b.append("| ").append(c.kind()).append(" | ").append(fmt("%.3f", c.cpuRatio())).append(" (").append(fmt("%.3f", c.cpuRatioMin()))
                    .append("-").append(fmt("%.3f", c.cpuRatioMax())).append(") | ").append(fmt("%.3f", c.aaCpuMin())).append("-")
                    .append(fmt("%.3f", c.aaCpuMax())).append(" | ").append(fmt("%.1f", 100 * c.aaCpuSpread())).append(" % | ")
                    .append(c.cpuWithinSpread() ? "yes" : "NO").append(" | ").append(fmt("%.3f", c.rpsRatio())).append(" (")
                    .append(fmt("%.3f", c.rpsRatioMin())).append("-").append(fmt("%.3f", c.rpsRatioMax())).append(") | ")
                    .append(fmt("%.3f", c.aaRpsMin())).append("-").append(fmt("%.3f", c.aaRpsMax())).append(" | ")
                    .append(fmt("%.1f", 100 * c.aaRpsSpread())).append(" % | ").append(c.rpsWithinSpread() ? "yes" : "NO").append(" |\n");
        }
        return b.toString();
    }

    static String startTable(List<StartSummary> start, Map<String, String> startNotAvailable) {
        StringBuilder b = new StringBuilder("| JVM | JVMs per variant | empty app: start() | controllers: controllers(...) + start() | "
                + "added | controllers(...) alone | their start() alone | direct DSL calls + start() | added | the calls alone | routes added |\n"
                + "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (String state : ControllersSuite.START_JVMS) {
            StartSummary s = state(start, state);
            if (s == null) {
                if (startNotAvailable.containsKey(state)) b.append("| ").append(jvmLabel(state)).append(" | n/a (below) |").append(" - |".repeat(9)).append('\n');
                continue;
            }
            b.append("| ").append(jvmLabel(s.jvm())).append(" | ").append(s.runs()).append(" | ").append(range(s.emptyMedianMs(), s.emptyMinMs(), s.emptyMaxMs()))
                    .append(" | ").append(range(s.controllersMedianMs(), s.controllersMinMs(), s.controllersMaxMs())).append(" | ")
                    .append(fmt("%+.1f", s.addedMs())).append(" ms | ").append(fmt("%.1f", s.registerMedianMs())).append(" ms | ")
                    .append(fmt("%.1f", s.controllersStartMedianMs())).append(" ms | ")
                    .append(range(s.dslMedianMs(), s.dslMinMs(), s.dslMaxMs())).append(" | ").append(fmt("%+.1f", s.dslAddedMs())).append(" ms | ")
                    .append(fmt("%.1f", s.dslRegisterMedianMs())).append(" ms | ")
                    .append(s.routesAdded() == s.dslRoutesAdded() ? String.format(Locale.ROOT, "%,d", s.routesAdded())
                            : String.format(Locale.ROOT, "%,d / %,d", s.routesAdded(), s.dslRoutesAdded())).append(" |\n");
        }
        startNotAvailable.forEach((state, why) -> b.append("\nNot measured on this host, ").append(state).append(": ").append(why).append('\n'));
        return b.toString();
    }

    private static String jvmLabel(String jvm) {
        return switch (jvm) {
            case "cold" -> "cold (the JVM's first app)";
            case "primed" -> "primed (an app with one route started before)";
            case "repeat" -> "repeat (an app with the same routes started before)";
            default -> "aot (the JVM's first app, with an AOT cache trained on it)";
        };
    }

    /** @return {@code median ms (min-max)} */
    private static String range(double median, double min, double max) {
        return fmt("%.1f", median) + " ms (" + fmt("%.1f", min) + "-" + fmt("%.1f", max) + ")";
    }

    static String javacTable(JavacSummary j) {
        StringBuilder b = new StringBuilder("| compile | processes | wall, median (min-max) | the compiler's call, median | class files "
                + "| sources generated |\n|---|---:|---:|---:|---:|---:|\n");
        for (JavacVariant v : j.variants()) {
            String name = switch (v.variant()) {
                case "none" -> "`-proc:none`: the controllers";
                case "processor" -> "`-processorpath` tidemill-processor: the controllers";
                default -> "`-proc:none`: the controllers and the sources the processor wrote";
            };
            b.append(String.format(Locale.ROOT, "| %s | %d | %.2f s (%.2f-%.2f) | %.2f s | %,d | %,d |%n", name, v.runs(), v.wallSeconds(),
                    v.minWall(), v.maxWall(), v.compileSeconds(), v.classes(), v.generated()));
        }
        b.append(String.format(Locale.ROOT, "%nThe processor adds %+.2f s of wall time (%+.2f s of the compiler's call)", j.addedWallSeconds(),
                j.addedCompileSeconds()));
        if (!Double.isNaN(j.generatedCodeWallSeconds())) {
            b.append(String.format(Locale.ROOT, ": compiling the sources it writes accounts for %+.2f s (what the same routes would cost "
                    + "written by hand), running it for the rest, %+.2f s", j.generatedCodeWallSeconds(), j.processorOnlyWallSeconds()));
        }
        return b.append(".\n").toString();
    }

    static String page(ControllersSuite.Result r) {
        Map<String, Object> c = r.configuration();
        StringBuilder b = new StringBuilder("# Controllers, ").append(r.startedUtc()).append("\n\n");
        b.append("Command: `").append(r.command()).append("`, run ").append(r.startedUtc()).append(" to ").append(r.finishedUtc())
                .append(r.quick() ? " (quick: to check the pipeline, not to compare)" : "").append(".\n\n");
        if (!r.summary().isEmpty()) {
            b.append("### A controller route against the identical DSL route\n\nOne server process (").append(c.get("target"))
                    .append("; pinned to CPUs ").append(c.get("serverCpus")).append(") serves each endpoint three times: as lambda DSL routes, "
                            + "as a `@Controller` compiled by tidemill-processor, and as the same DSL routes again under another prefix, "
                            + "the A/A twin. The DSL routes are what the processor writes for the controller (the same `Param` declarations, "
                            + "handler and `returns`), and both call the same method for the answer. Every case was checked first (200, the "
                            + "same Content-Type for all three forms, the exact body). wrk (`").append(c.get("wrk")).append("`, pinned to CPUs ")
                    .append(c.get("loadGeneratorCpus")).append(") warms each case up for ").append(c.get("warmupSeconds"))
                    .append(" s unrecorded, then ").append(c.get("rounds")).append(" round(s) of ").append(c.get("durationSeconds"))
                    .append(" s per case; each round runs both endpoints (alternating which first), each endpoint's three forms one after "
                            + "another, the order rotated by one each round. Server CPU per request is utime + stime of the server over the "
                            + "window divided by its 2xx answers. Where the generator's CPUs were busy (client-bound), req/s measures wrk, "
                            + "not the server: compare CPU per request.\n\n");
            b.append(caseTable(r.summary()));
            b.append("\nRatios are taken within a round (the controller's window over the DSL route's in the same round, and the twin's "
                    + "over the DSL route's), then the median over rounds. The A/A spread is the largest distance from 1 of a twin/DSL "
                    + "ratio in any round: how far two identical routes differ on this host. \"within\": the controller's median ratio is "
                    + "no further from 1 than that.\n\n").append(comparisonTable(r.comparisons()));
        }
        if (!r.start().isEmpty() || !r.startNotAvailable().isEmpty()) {
            b.append("\n### Start-up with ").append(String.format(Locale.ROOT, "%,d", toInt(c.get("startControllers")) * ControllerSources.METHODS))
                    .append(" generated routes\n\n").append(c.get("startControllers")).append(" controllers of ").append(c.get("methodsPerController"))
                    .append(" routes each (GET, PUT, PATCH, POST and DELETE; path and query parameters of long, int, boolean, String and "
                            + "LocalDate, with and without defaults; JSON records, text and a void answer), written by the runner and "
                            + "compiled with the processor into one jar, which follows the runner's jars on the class path. Each reading "
                            + "is a fresh JVM (the targets' flags, pinned to CPUs ")
                    .append(c.get("serverCpus")).append(") that constructs the controllers and creates the app (both untimed), then times "
                            + "the registration and `app.start()` on port 0 (binding, the route table, the checks at start) until "
                            + "`start()` returns. Three apps: empty (no routes of its own), the controllers given to `app.controllers(...)`, "
                            + "and the same routes registered by calling each controller's generated routes class directly, which is the "
                            + "DSL a person would write for them, without the index. \"Added\" is an app's median less the empty app's "
                            + "median in the same kind of JVM; the registration alone and the same app's `start()` alone are medians "
                            + "too, so they need not sum to the total. Four kinds of JVM: cold, where the app is the JVM's first, as in a "
                            + "real start, so its time includes loading and linking the generated classes (a routes class per "
                            + "controller, which is also that controller's one handler) and the framework code they are the first to use; "
                            + "primed, where an app with one route was started and closed first, so Tidemill and Netty are loaded; "
                            + "repeat, where an app with the same routes was started and closed first, so what is left is registering "
                            + "them and building the table; aot, where the app is the JVM's first but the JVM starts with a JDK AOT cache "
                            + "(`-XX:AOTCache`, JEP 483/514, as docs/aot.md sets one up), which holds the classes loaded and linked, and "
                            + "the method profiles, of a training run. Each app has its own cache, written before the runs by one "
                            + "untimed training run: the same app's cold start with the same flags, class path and CPUs plus "
                            + "`-XX:AOTCacheOutput` (the JVM writes the cache as it exits). Trained on exactly the start it then "
                            + "makes, the cache shows the most it can save. An aot JVM whose output says it did not use its cache is "
                            + "not counted; the kind is then n/a with the JVM's message. The apps rotate, ").append(c.get("startRuns"))
                    .append(" JVMs of each app and kind.\n\n")
                    .append(startTable(r.start(), r.startNotAvailable()));
        }
        if (r.javac() != null) {
            JavacSummary j = r.javac();
            b.append("\n### javac with and without the processor\n\n").append(j.controllers()).append(" generated controllers of ")
                    .append(j.methods()).append(" routes (the same shapes as above), compiled by the JDK's javac (`javax.tools`, JDK ")
                    .append(c.get("javacVersion")).append(") in a fresh JVM per compilation on CPUs ").append(c.get("javacCpus"))
                    .append(", into fresh directories: `").append(c.get("javacOptions")).append("`. ").append(j.runs())
                    .append(" compilations of each variant, the order rotated each run, after one unrecorded compilation with the "
                            + "processor (which wrote the third variant's extra sources and left every file in the page cache); medians. "
                            + "Wall is the process from launch to exit, the figure a build waits for; the compiler's call is the same "
                            + "without the JVM's start. With the processor, javac also compiles what it writes (a routes class per "
                            + "controller and the index); the third variant compiles those same sources without running it.\n\n")
                    .append(javacTable(j));
        }
        b.append("\n### Goals\n\n").append(AuthReport.goalLines(r.goals()));
        if (!r.failures().isEmpty()) {
            b.append("\n### Failures\n\n");
            r.failures().forEach(f -> b.append("- ").append(f).append('\n'));
        }
        b.append(AuthReport.hostTable(r.fingerprint()));
        return b.toString();
    }

    private static int toInt(Object o) {
        return o instanceof Number n ? n.intValue() : Integer.parseInt(String.valueOf(o));
    }

    private static double min(List<Double> v) {
        return v.stream().filter(d -> !d.isNaN()).min(Comparator.naturalOrder()).orElse(Double.NaN);
    }

    private static double max(List<Double> v) {
        return v.stream().filter(d -> !d.isNaN()).max(Comparator.naturalOrder()).orElse(Double.NaN);
    }

    private static String fmt(String format, double v) {
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, format, v);
    }
}
