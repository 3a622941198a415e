package dev.tidemill.bench;

import static dev.tidemill.bench.ControllersReport.fmt;
import static dev.tidemill.bench.ControllersReport.max;
import static dev.tidemill.bench.ControllersReport.min;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The start-up part of {@code ./tidemill bench controllers} in figures ({@link ControllersStartup}): per kind of
 * JVM the medians of the empty app, the app with the controllers and the app with the same routes by direct
 * DSL calls, and what each adds; the goal that 1,000 generated routes add under {@link #GOAL_MS} to a fresh
 * JVM's first app; and the table and section of the page.
 */
final class ControllersStartupReport {
    /** The goal: 1,000 generated routes add less than this to an app's start (ms). */
    static final double GOAL_MS = 20;

    private ControllersStartupReport() {}

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

    static List<StartSummary> summary(List<ControllersStartup.StartRun> runs) {
        List<StartSummary> out = new ArrayList<>();
        for (String jvm : ControllersStartup.JVMS) {
            List<ControllersStartup.StartRun> empty = of(runs, jvm, "empty"), with = of(runs, jvm, "controllers"), dsl = of(runs, jvm, "dsl");
            if (empty.isEmpty() || with.isEmpty() || dsl.isEmpty()) continue;
            List<Double> e = totals(empty), w = totals(with), d = totals(dsl);
            double em = AuthReport.median(e), wm = AuthReport.median(w), dm = AuthReport.median(d);
            out.add(new StartSummary(jvm, Math.min(empty.size(), Math.min(with.size(), dsl.size())), em, min(e), max(e), wm, min(w), max(w),
                    dm, min(d), max(d), wm - em, dm - em, AuthReport.median(with.stream().map(ControllersStartup.StartRun::registerMs).toList()),
                    AuthReport.median(with.stream().map(ControllersStartup.StartRun::startMs).toList()),
                    AuthReport.median(dsl.stream().map(ControllersStartup.StartRun::registerMs).toList()), routesAdded(with, empty),
                    routesAdded(dsl, empty)));
        }
        return out;
    }

    private static List<ControllersStartup.StartRun> of(List<ControllersStartup.StartRun> runs, String jvm, String variant) {
        return runs.stream().filter(r -> r.jvm().equals(jvm) && r.variant().equals(variant)).toList();
    }

    private static List<Double> totals(List<ControllersStartup.StartRun> runs) {
        return runs.stream().map(ControllersStartup.StartRun::totalMs).toList();
    }

    /** @return the routes one variant has more than the empty app, -1 when a variant's count varied between JVMs */
    private static int routesAdded(List<ControllersStartup.StartRun> with, List<ControllersStartup.StartRun> empty) {
        int w = with.getFirst().routes(), e = empty.getFirst().routes();
        boolean same = with.stream().allMatch(r -> r.routes() == w) && empty.stream().allMatch(r -> r.routes() == e);
        return same ? w - e : -1;
    }

    /**
     * The start-up goal. Two kinds of JVM are a fresh JVM's first app, as the goal says: cold, and aot (the same
     * JVM started with an AOT cache); the goal is met when either meets it, and the reading says which. The
     * reading also names the registration alone ({@code app.controllers(...)}) and {@code start()} in the JVM that
     * registered the same routes before (repeat), which the goal does not cover.
     */
    static AuthReport.Goal goal(List<StartSummary> start, Map<String, String> startNotAvailable, int startControllers) {
        String goal = String.format(Locale.ROOT, "%,d generated routes (%d controllers x %d methods) add under %.0f ms to an app's start "
                + "(a fresh JVM's first app)", startControllers * ControllerSources.METHODS, startControllers, ControllerSources.METHODS, GOAL_MS);
        StartSummary cold = state(start, "cold"), primed = state(start, "primed"), repeat = state(start, "repeat");
        StartSummary aot = state(start, ControllersStartup.AOT);
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
            b.append("; with an AOT cache: n/a (").append(startNotAvailable.getOrDefault(ControllersStartup.AOT, "not measured")).append(')');
        }
        List<String> meeting = new ArrayList<>();
        if (cold != null && cold.addedMs() < GOAL_MS) meeting.add("cold");
        if (aot != null && aot.addedMs() < GOAL_MS) meeting.add("with an AOT cache");
        b.append("; met by: ").append(meeting.isEmpty() ? "neither" : String.join(" and ", meeting));
        if (primed != null) b.append(String.format(Locale.ROOT, "; with Tidemill already loaded %+.1f ms", primed.addedMs()));
        if (repeat != null) {
            b.append(String.format(Locale.ROOT, "; with the same routes registered once before in the JVM (classes loaded and linked) "
                            + "%+.1f ms: app.controllers(...) alone %.1f ms (%s %.0f ms), start() %.1f ms against the empty app's %.1f ms",
                    repeat.addedMs(), repeat.registerMedianMs(), repeat.registerMedianMs() < GOAL_MS ? "under" : "not under",
                    GOAL_MS, repeat.controllersStartMedianMs(), repeat.emptyMedianMs()));
        }
        return new AuthReport.Goal(goal, b.toString(), !meeting.isEmpty());
    }

    private static StartSummary state(List<StartSummary> start, String jvm) {
        return start.stream().filter(s -> s.jvm().equals(jvm)).findFirst().orElse(null);
    }

    static String table(List<StartSummary> start, Map<String, String> startNotAvailable) {
        StringBuilder b = new StringBuilder("| JVM | JVMs per variant | empty app: start() | controllers: controllers(...) + start() | "
                + "added | controllers(...) alone | their start() alone | direct DSL calls + start() | added | the calls alone | routes added |\n"
                + "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (String state : ControllersStartup.JVMS) {
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

    /** @return the page's section: the method and the table */
    static String section(List<StartSummary> start, Map<String, String> startNotAvailable, Map<String, Object> c) {
        StringBuilder b = new StringBuilder();
        b.append("\n### Start-up with ").append(String.format(Locale.ROOT, "%,d", toInt(c.get("startControllers")) * ControllerSources.METHODS))
                .append(" generated routes\n\n").append(c.get("startControllers")).append(" controllers of ").append(c.get("methodsPerController"))
                .append(" routes each (GET, PUT, PATCH, POST and DELETE; path and query parameters of long, int, boolean, String and "
                        + "LocalDate, with and without defaults; JSON records, text and a void answer), written by the runner and "
                        + "compiled with the processor into one jar, which leads the class path as an application's own jar does (the runner's jars follow). Each reading "
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
                .append(table(start, startNotAvailable));
        return b.toString();
    }

    private static int toInt(Object o) {
        return o instanceof Number n ? n.intValue() : Integer.parseInt(String.valueOf(o));
    }
}
