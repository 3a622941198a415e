package dev.tidemill.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

/**
 * Medians over the rounds and ratios to the baseline measured in the same round: per round,
 * target / baseline; the reported ratio is the median of those. A target with socket errors or
 * non-2xx answers gets a warning and no ratio. When a round of the target or the baseline was
 * client-bound, req/s says more about wrk than the server, so the headline ratio is the server CPU
 * per request one instead, and the row says so.
 */
public final class Summary {
    /** Basis name when the ratio is req/s. */
    public static final String BASIS_RPS = "req/s";
    /** Basis name when the ratio is server CPU per request. */
    public static final String BASIS_CPU = "server CPU/request";

    private Summary() {}

    /**
     * @param samples every sample (discarded ones are ignored)
     * @param baseline the baseline target's name
     * @return one row per target and scenario, in first-seen order
     */
    public static List<SummaryRow> of(List<Sample> samples, String baseline) {
        Map<String, List<Sample>> groups = new LinkedHashMap<>();
        for (Sample s : samples) {
            if (!s.discarded()) groups.computeIfAbsent(s.target() + "\u0000" + s.scenario(), k -> new ArrayList<>()).add(s);
        }
        List<SummaryRow> rows = new ArrayList<>();
        for (List<Sample> g : groups.values()) {
            Sample first = g.get(0);
            List<Sample> base = groups.getOrDefault(baseline + "\u0000" + first.scenario(), List.of());
            rows.add(row(first.target(), first.scenario(), g, base, first.target().equals(baseline)));
        }
        return rows;
    }

    private static SummaryRow row(String target, String scenario, List<Sample> g, List<Sample> base, boolean isBaseline) {
        List<String> warnings = new ArrayList<>();
        long errors = g.stream().mapToLong(Sample::socketErrors).sum();
        long non2xx = g.stream().mapToLong(Sample::non2xx).sum();
        if (errors > 0 || non2xx > 0) warnings.add(errors + " socket errors, " + non2xx + " non-2xx: excluded from ratios");
        boolean clientBound = g.stream().anyMatch(Sample::clientBound);
        if (clientBound) warnings.add("client-bound (load generator saturated)");
        if (g.stream().anyMatch(Sample::untrustworthy)) warnings.add("untrustworthy: load per CPU > 1.0 at start");
        double steal = g.stream().mapToDouble(Sample::stealPercent).max().orElse(0);
        if (steal > 0.05) warnings.add(String.format(java.util.Locale.ROOT, "steal up to %.2f %%", steal));
        List<Double> rps = new ArrayList<>();
        List<Double> cpu = new ArrayList<>();
        boolean baseBound = false;
        for (Sample s : g) {
            Optional<Sample> b = base.stream().filter(x -> x.round() == s.round()).findFirst();
            if (b.isEmpty() || s.hasErrors() || b.get().hasErrors()) continue;
            baseBound |= b.get().clientBound();
            rps.add(s.requestsPerSec() / b.get().requestsPerSec());
            if (s.serverCpuUsPerRequest() > 0) cpu.add(b.get().serverCpuUsPerRequest() / s.serverCpuUsPerRequest());
        }
        boolean excluded = errors > 0 || non2xx > 0 || base.isEmpty();
        Double rpsRatio = excluded || rps.isEmpty() ? null : median(rps);
        Double cpuRatio = excluded || cpu.isEmpty() ? null : median(cpu);
        String basis = clientBound || baseBound ? BASIS_CPU : BASIS_RPS;
        Double ratio = basis.equals(BASIS_CPU) ? cpuRatio : rpsRatio;
        if (isBaseline && !excluded) ratio = 1.0;
        return new SummaryRow(target, scenario, g.size(), median(g, Sample::requestsPerSec), median(g, Sample::p50Us),
                median(g, Sample::p99Us), errors, non2xx, median(g, Sample::serverCpuUsPerRequest), rpsRatio, cpuRatio,
                basis, ratio, clientBound, steal, warnings, medianOrNull(g, Sample::voluntarySwitchesPerRequest),
                medianOrNull(g, Sample::involuntarySwitchesPerRequest), medianOrNull(g, Sample::wakeupsPerRequest),
                medianOrNull(g, Sample::drainsPerRequest), medianOrNull(g, Sample::bytesPerResponse));
    }

    /** Median of the rounds that have the reading; null when none has it (older result files, other targets). */
    private static Double medianOrNull(List<Sample> g, java.util.function.Function<Sample, Double> f) {
        List<Double> v = g.stream().map(f).filter(x -> x != null && !x.isNaN()).toList();
        return v.isEmpty() ? null : median(v);
    }

    private static double median(List<Sample> g, ToDoubleFunction<Sample> f) {
        return median(g.stream().map(s -> f.applyAsDouble(s)).toList());
    }

    /**
     * @param values numbers
     * @return their median (mean of the middle two for an even count), NaN for none
     */
    public static double median(List<Double> values) {
        if (values.isEmpty()) return Double.NaN;
        List<Double> v = values.stream().sorted().toList();
        int n = v.size();
        return n % 2 == 1 ? v.get(n / 2) : (v.get(n / 2 - 1) + v.get(n / 2)) / 2;
    }
}
