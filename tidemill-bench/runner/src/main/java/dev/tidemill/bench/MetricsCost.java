package dev.tidemill.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code ./tidemill bench metrics}: what recording metrics costs a request. The same bench app,
 * LOOP mode, started twice per round: as it ships ({@code tidemill-loop}, metrics on) and with
 * {@code TIDEMILL_METRICS=false} ({@code tidemill-loop-nometrics}), both on {@code plaintext}, the
 * scenario where the framework's own work is the largest share of a request. The cost is the
 * median over rounds of the per-round difference in server CPU per request (the two windows of a
 * round run back to back, so drift between rounds cancels out); the goal is under
 * {@value #GOAL_PERCENT} %, and a run whose rounds scatter wider than that cannot say it is met.
 */
final class MetricsCost {
    /** The suite's name in result files. */
    static final String SUITE = "metrics";
    static final String ON = "tidemill-loop";
    static final String OFF = "tidemill-loop-nometrics";
    /** The goal: metrics add less than this share of server CPU per request. */
    static final double GOAL_PERCENT = 2.0;

    private MetricsCost() {}

    /** @return the Markdown table and verdict for a {@code metrics} result */
    static String of(Result result) {
        Map<Integer, Double> on = new TreeMap<>();
        Map<Integer, Double> off = new TreeMap<>();
        for (Sample s : result.samples()) {
            if (s.discarded() || !s.scenario().equals("plaintext")) continue;
            if (s.target().equals(ON)) on.put(s.round(), s.serverCpuUsPerRequest());
            if (s.target().equals(OFF)) off.put(s.round(), s.serverCpuUsPerRequest());
        }
        StringBuilder b = new StringBuilder("| target | metrics | median req/s | server CPU per request (us) | p99 (us) |\n|---|---|---:|---:|---:|\n");
        for (SummaryRow r : result.summary()) {
            if (!r.scenario().equals("plaintext") || !(r.target().equals(ON) || r.target().equals(OFF))) continue;
            b.append(String.format(Locale.ROOT, "| %s | %s | %,.0f | %.2f | %,.0f |%n", r.target(), r.target().equals(ON) ? "on" : "off",
                    r.medianRps(), r.cpuUsPerRequest(), r.medianP99Us()));
        }
        List<Double> deltas = new ArrayList<>();
        for (Map.Entry<Integer, Double> e : on.entrySet()) {
            Double o = off.get(e.getKey());
            if (o != null && o > 0) deltas.add(100.0 * (e.getValue() - o) / o);
        }
        if (deltas.isEmpty()) return b.append("\nNo round measured both targets.\n").toString();
        List<Double> sorted = deltas.stream().sorted().toList();
        double median = sorted.size() % 2 == 1 ? sorted.get(sorted.size() / 2)
                : (sorted.get(sorted.size() / 2 - 1) + sorted.get(sorted.size() / 2)) / 2;
        b.append(String.format(Locale.ROOT, "%nMetrics on cost %+.1f %% server CPU per request (median of %d per-round differences; "
                        + "lowest %+.1f %%, highest %+.1f %%); goal under %.0f %%: %s.%n", median, deltas.size(), sorted.getFirst(),
                sorted.getLast(), GOAL_PERCENT, verdict(median, sorted.getFirst(), sorted.getLast())));
        return b.toString();
    }

    /**
     * A median under the goal says little when the rounds scatter far wider than the goal: two
     * identical servers would pass or fail it by the draw of the rounds.
     *
     * @param median the median per-round difference (percent)
     * @param lowest the lowest (percent)
     * @param highest the highest (percent)
     * @return {@code met}, {@code not met}, or why the run cannot tell
     */
    static String verdict(double median, double lowest, double highest) {
        double spread = highest - lowest;
        if (spread > 4 * GOAL_PERCENT) {
            return String.format(Locale.ROOT, "not resolved by this run (its rounds spread over %.1f points, more than twice the goal "
                    + "either way)", spread);
        }
        return median < GOAL_PERCENT ? "met" : "not met";
    }
}
