package dev.tidemill.bench;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The goals and the page of {@code ./tidemill bench controllers} ({@link ControllersSuite}), put together from
 * each part's figures: {@link ControllersRequestsReport}, {@link ControllersStartupReport} and
 * {@link ControllersJavacReport}; and the small number helpers they share.
 */
final class ControllersReport {
    private ControllersReport() {}

    /** @return the goals in the page's order: each endpoint's, then start-up's, then javac's */
    static List<AuthReport.Goal> goals(List<ControllersRequestsReport.Comparison> comparisons, List<ControllersStartupReport.StartSummary> start,
                                       Map<String, String> startNotAvailable, ControllersJavacReport.JavacSummary javac, int startControllers,
                                       int javacControllers) {
        List<AuthReport.Goal> goals = new ArrayList<>(ControllersRequestsReport.goals(comparisons));
        goals.add(ControllersStartupReport.goal(start, startNotAvailable, startControllers));
        goals.add(ControllersJavacReport.goal(javac, javacControllers));
        goals.add(ControllersJavacReport.warmGoal(javac, javacControllers));
        return goals;
    }

    static String page(ControllersSuite.Result r) {
        Map<String, Object> c = r.configuration();
        StringBuilder b = new StringBuilder("# Controllers, ").append(r.startedUtc()).append("\n\n");
        b.append("Command: `").append(r.command()).append("`, run ").append(r.startedUtc()).append(" to ").append(r.finishedUtc())
                .append(r.quick() ? " (quick: to check the pipeline, not to compare)" : "").append(".\n\n");
        if (!r.summary().isEmpty()) b.append(ControllersRequestsReport.section(r.summary(), r.comparisons(), c));
        if (!r.start().isEmpty() || !r.startNotAvailable().isEmpty()) {
            b.append(ControllersStartupReport.section(r.start(), r.startNotAvailable(), c));
        }
        if (r.javac() != null) b.append(ControllersJavacReport.section(r.javac(), c));
        b.append("\n### Goals\n\n").append(AuthReport.goalLines(r.goals()));
        if (!r.failures().isEmpty()) {
            b.append("\n### Failures\n\n");
            r.failures().forEach(f -> b.append("- ").append(f).append('\n'));
        }
        b.append(AuthReport.hostTable(r.fingerprint()));
        return b.toString();
    }

    /** @return the lowest value that is a number, NaN when none is */
    static double min(List<Double> v) {
        return v.stream().filter(d -> !d.isNaN()).min(Comparator.naturalOrder()).orElse(Double.NaN);
    }

    /** @return the highest value that is a number, NaN when none is */
    static double max(List<Double> v) {
        return v.stream().filter(d -> !d.isNaN()).max(Comparator.naturalOrder()).orElse(Double.NaN);
    }

    /** @return {@code v} formatted, or {@code -} when it is NaN */
    static String fmt(String format, double v) {
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, format, v);
    }
}
