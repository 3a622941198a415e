package dev.tidemill.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The comparison the performance page leads with: on each headline scenario, Tidemill's best mode
 * (highest ratio to the baseline) against the baseline and the peers a user would weigh it
 * against. Each figure is the median over rounds of best / reference measured in the same round;
 * when either window of a round was client-bound, every round is compared on server CPU per
 * request instead of req/s, and the cell says so. With two rounds or more, the cell also gives the
 * lowest and highest per-round ratio in brackets.
 */
public final class HeadToHead {
    /** Scenarios compared. */
    static final List<String> SCENARIOS = List.of("plaintext", "json", "page", "mix");
    /** References, in column order. */
    static final List<String> REFERENCES = List.of(TargetCatalog.BASELINE, "vertx-web", "helidon", "spring-webflux");

    private HeadToHead() {}

    /**
     * @param result a throughput result
     * @return the Markdown table (empty when no Tidemill target was measured)
     */
    public static String of(Result result) {
        StringBuilder b = new StringBuilder("| scenario | Tidemill best mode |");
        REFERENCES.forEach(r -> b.append(" vs ").append(r).append(" |"));
        b.append("\n|---|---|").append("---:|".repeat(REFERENCES.size())).append('\n');
        boolean any = false;
        for (String scenario : SCENARIOS) {
            Optional<SummaryRow> best = result.summary().stream()
                    .filter(r -> r.scenario().equals(scenario) && r.target().startsWith("tidemill-") && r.ratio() != null)
                    .max((x, y) -> Double.compare(x.ratio(), y.ratio()));
            if (best.isEmpty()) continue;
            any = true;
            b.append("| ").append(scenario).append(" | ").append(best.get().target()).append(" |");
            for (String ref : REFERENCES) b.append(' ').append(cell(result.samples(), best.get().target(), ref, scenario)).append(" |");
            b.append('\n');
        }
        return any ? b.toString() : "";
    }

    static String cell(List<Sample> samples, String target, String reference, String scenario) {
        List<Sample> mine = kept(samples, target, scenario);
        List<Sample> theirs = kept(samples, reference, scenario);
        if (mine.isEmpty() || theirs.isEmpty()) return "-";
        List<double[]> pairs = new ArrayList<>();
        boolean bound = false;
        for (Sample s : mine) {
            Optional<Sample> r = theirs.stream().filter(x -> x.round() == s.round()).findFirst();
            if (r.isEmpty() || s.hasErrors() || r.get().hasErrors()) continue;
            bound |= s.clientBound() || r.get().clientBound();
            pairs.add(new double[] {s.requestsPerSec() / r.get().requestsPerSec(),
                    r.get().serverCpuUsPerRequest() / s.serverCpuUsPerRequest()});
        }
        if (pairs.isEmpty()) return "-";
        int basis = bound ? 1 : 0;
        List<Double> ratios = pairs.stream().map(p -> p[basis]).toList();
        double median = Summary.median(ratios);
        // The spread over rounds, so a reader sees how much of a difference the machine's noise covers.
        String range = ratios.size() < 2 ? "" : String.format(Locale.ROOT, " [%.2f-%.2f]",
                ratios.stream().mapToDouble(Double::doubleValue).min().orElseThrow(),
                ratios.stream().mapToDouble(Double::doubleValue).max().orElseThrow());
        return String.format(Locale.ROOT, "%.2fx%s%s", median, range, bound ? " (CPU/req)" : "");
    }

    private static List<Sample> kept(List<Sample> samples, String target, String scenario) {
        return samples.stream().filter(s -> !s.discarded() && s.target().equals(target) && s.scenario().equals(scenario)).toList();
    }
}
