package dev.tidemill.bench;

import static dev.tidemill.bench.ControllersReport.max;
import static dev.tidemill.bench.ControllersReport.min;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The javac part of {@code ./tidemill bench controllers} in figures ({@link ControllersJavac}): per variant the
 * median wall time and compiler's call; what the processor adds, and how much of that is compiling the
 * sources it writes; the goal that it adds under {@link #GOAL_SECONDS}; and the table and section of the page.
 */
final class ControllersJavacReport {
    /** The goal: the processor adds less than this to javac for 200 controllers of 10 methods (s). */
    static final double GOAL_SECONDS = 2;

    private ControllersJavacReport() {}

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
     * @param variants per variant, in {@link ControllersJavac#VARIANTS} order
     * @param addedWallSeconds what the processor adds: the processor's median wall less {@code -proc:none}'s
     * @param addedCompileSeconds the same for the compiler's call
     * @param generatedCodeWallSeconds of that, compiling what it wrote: {@code generated}'s median less {@code -proc:none}'s (NaN without it)
     * @param processorOnlyWallSeconds the rest: the processor's median less {@code generated}'s (NaN without it)
     * @param addedWarmSeconds what the processor adds to a warm javac: {@code warm-processor}'s median less {@code warm-none}'s,
     *     over the compilations that count ({@link ControllersJavac#WARM_COUNTED_FROM} on); NaN without them
     */
    record JavacSummary(int controllers, int methods, List<JavacVariant> variants, double addedWallSeconds, double addedCompileSeconds,
                        double generatedCodeWallSeconds, double processorOnlyWallSeconds, double addedWarmSeconds) {
        /** @return processes per cold variant (the fewest) */
        int runs() {
            return variants.stream().filter(v -> !v.variant().startsWith("warm-")).mapToInt(JavacVariant::runs).min().orElse(0);
        }

        /** @return the variant, or null */
        JavacVariant variant(String name) {
            return variants.stream().filter(v -> v.variant().equals(name)).findFirst().orElse(null);
        }
    }

    static JavacSummary summary(List<ControllersJavac.JavacRun> runs, int controllers) {
        List<JavacVariant> variants = new ArrayList<>();
        List<String> names = new ArrayList<>(ControllersJavac.VARIANTS);
        names.addAll(ControllersJavac.WARM_VARIANTS);
        for (String v : names) {
            boolean warm = v.startsWith("warm-");
            List<ControllersJavac.JavacRun> mine = runs.stream()
                    .filter(r -> r.ok() && r.variant().equals(v) && (!warm || r.run() >= ControllersJavac.WARM_COUNTED_FROM)).toList();
            if (mine.isEmpty()) continue;
            List<Double> wall = mine.stream().map(ControllersJavac.JavacRun::wallSeconds).toList();
            variants.add(new JavacVariant(v, mine.size(), AuthReport.median(wall), min(wall), max(wall),
                    AuthReport.median(mine.stream().map(ControllersJavac.JavacRun::compileSeconds).toList()), mine.getFirst().classes(),
                    mine.getFirst().generated()));
        }
        JavacVariant none = find(variants, "none"), proc = find(variants, "processor"), gen = find(variants, "generated");
        JavacVariant warmNone = find(variants, "warm-none"), warmProc = find(variants, "warm-processor");
        if (none == null || proc == null) return null;
        return new JavacSummary(controllers, ControllerSources.METHODS, variants, proc.wallSeconds() - none.wallSeconds(),
                proc.compileSeconds() - none.compileSeconds(), gen == null ? Double.NaN : gen.wallSeconds() - none.wallSeconds(),
                gen == null ? Double.NaN : proc.wallSeconds() - gen.wallSeconds(),
                warmNone == null || warmProc == null ? Double.NaN : warmProc.wallSeconds() - warmNone.wallSeconds());
    }

    private static JavacVariant find(List<JavacVariant> variants, String name) {
        return variants.stream().filter(v -> v.variant().equals(name)).findFirst().orElse(null);
    }

    /** @return the goal that the processor adds under {@link #GOAL_SECONDS} of javac for {@code javacControllers} controllers */
    static AuthReport.Goal goal(JavacSummary javac, int javacControllers) {
        String goal = String.format(Locale.ROOT, "the processor adds under %.0f s of javac for %d controllers of %d methods",
                GOAL_SECONDS, javacControllers, ControllerSources.METHODS);
        if (javac == null) return new AuthReport.Goal(goal, "not measured", null);
        String split = Double.isNaN(javac.generatedCodeWallSeconds()) ? "" : String.format(Locale.ROOT, "; of which compiling the "
                + "sources it writes %+.2f s and the rest %+.2f s", javac.generatedCodeWallSeconds(), javac.processorOnlyWallSeconds());
        return new AuthReport.Goal(goal, String.format(Locale.ROOT, "%+.2f s (median %.2f s with -processorpath against %.2f s "
                        + "with -proc:none, %d fresh processes each; the compiler's call alone %+.2f s%s)", javac.addedWallSeconds(),
                javac.variant("processor").wallSeconds(), javac.variant("none").wallSeconds(), javac.runs(), javac.addedCompileSeconds(),
                split), javac.addedWallSeconds() < GOAL_SECONDS);
    }

    /**
     * @return the same goal for a javac that stays warm (a build daemon, an IDE): the processor's median over the warm compilations
     *     that count, less {@code -proc:none}'s
     */
    static AuthReport.Goal warmGoal(JavacSummary javac, int javacControllers) {
        String goal = String.format(Locale.ROOT, "the processor adds under %.0f s of javac for %d controllers of %d methods, in a javac that "
                + "stays warm (a build daemon, an IDE)", GOAL_SECONDS, javacControllers, ControllerSources.METHODS);
        if (javac == null || Double.isNaN(javac.addedWarmSeconds())) return new AuthReport.Goal(goal, "not measured", null);
        JavacVariant none = javac.variant("warm-none"), proc = javac.variant("warm-processor");
        return new AuthReport.Goal(goal, String.format(Locale.ROOT, "%+.2f s (median %.2f s with -processorpath against %.2f s with "
                        + "-proc:none, compilations %d to %d of each in one JVM)", javac.addedWarmSeconds(), proc.wallSeconds(), none.wallSeconds(),
                ControllersJavac.WARM_COUNTED_FROM, ControllersJavac.WARM_PAIRS), javac.addedWarmSeconds() < GOAL_SECONDS);
    }

    static String table(JavacSummary j) {
        StringBuilder b = new StringBuilder("| compile | processes | wall, median (min-max) | the compiler's call, median | class files "
                + "| sources generated |\n|---|---:|---:|---:|---:|---:|\n");
        for (JavacVariant v : j.variants()) {
            if (v.variant().startsWith("warm-")) continue;
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
        b.append(".\n");
        JavacVariant warmNone = j.variant("warm-none"), warmProc = j.variant("warm-processor");
        if (warmNone != null && warmProc != null) {
            b.append(String.format(Locale.ROOT, "%n| compile, in one JVM that stays | compilations counted | median (min-max) | class files | sources "
                    + "generated |%n|---|---:|---:|---:|---:|%n"));
            for (JavacVariant v : List.of(warmNone, warmProc)) {
                b.append(String.format(Locale.ROOT, "| %s | %d | %.2f s (%.2f-%.2f) | %,d | %,d |%n", v == warmNone ? "`-proc:none`"
                        : "`-processorpath` tidemill-processor", v.runs(), v.wallSeconds(), v.minWall(), v.maxWall(), v.classes(), v.generated()));
            }
            b.append(String.format(Locale.ROOT, "%nWarm, the processor adds %+.2f s.%n", j.addedWarmSeconds()));
        }
        return b.toString();
    }

    /** @return the page's section: the method and the table */
    static String section(JavacSummary j, Map<String, Object> c) {
        StringBuilder b = new StringBuilder();
        b.append("\n### javac with and without the processor\n\n").append(j.controllers()).append(" generated controllers of ")
                .append(j.methods()).append(" routes (the same shapes as above), compiled by the JDK's javac (`javax.tools`, JDK ")
                .append(c.get("javacVersion")).append(") in a fresh JVM per compilation on CPUs ").append(c.get("javacCpus"))
                .append(", into fresh directories: `").append(c.get("javacOptions")).append("`. ").append(j.runs())
                .append(" compilations of each variant, the order rotated each run, after one unrecorded compilation with the "
                        + "processor (which wrote the third variant's extra sources and left every file in the page cache); medians. "
                        + "Wall is the process from launch to exit, the figure a build waits for; the compiler's call is the same "
                        + "without the JVM's start. With the processor, javac also compiles what it writes (a routes class per "
                        + "controller and the index); the third variant compiles those same sources without running it. "
                        + "Then one more JVM compiles with `-proc:none` and with the processor " + ControllersJavac.WARM_PAIRS
                        + " times each, alternating, as a build daemon (Gradle's) or an IDE keeps javac: the second table counts "
                        + "compilations " + ControllersJavac.WARM_COUNTED_FROM + " to " + ControllersJavac.WARM_PAIRS + " of each, once "
                        + "the JIT has compiled javac's own code. javac loads the processor afresh for every compilation, so its code "
                        + "is not warm in either case.\n\n")
                .append(table(j));
        return b.toString();
    }
}
