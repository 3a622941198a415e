package dev.tidemill.bench;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.ToDoubleFunction;

/** {@link HotPathSuite}'s medians, ratios and Markdown page. */
public final class HotPathReport {
    /** The references every target's CPU per request is divided by, round by round. */
    static final List<String> REFERENCES = List.of("vertx-core", TargetCatalog.BASELINE);
    /** A system call gets its own column when some target makes at least this many per request (median). */
    static final double COLUMN_AT = 0.005;
    /** The goal for IO mode: at most this multiple of Vert.x core's server CPU per request, on plaintext and JSON. */
    static final double IO_GOAL = 0.85;
    /** The goal for LOOP mode: at most this multiple of IO mode's server CPU per request on the same transport. */
    static final double LOOP_GOAL = 1.05;
    /** A Tidemill target's name suffix that runs it on io_uring ({@code tidemill-io-uring}: IO mode on io_uring). */
    static final String URING = "-uring";
    /** A Tidemill target's name suffix that runs it on io_uring with its buffer ring. */
    static final String URING_RINGS = "-uring-rings";
    /** The transports a Tidemill target runs on, by the suffix of its name (none: the default, epoll). */
    static final Map<String, String> TRANSPORTS = transports();

    private static Map<String, String> transports() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("", "epoll");
        m.put(URING, "io_uring");
        m.put(URING_RINGS, "io_uring with its buffer ring");
        return java.util.Collections.unmodifiableMap(m);
    }

    /**
     * Medians over rounds of one target on one scenario.
     *
     * @param target the target
     * @param scenario the scenario
     * @param rounds windows kept
     * @param requestsPerSec median throughput of the timed windows
     * @param serverCpuUsPerRequest median server CPU per request (microseconds)
     * @param costVsReference per reference, the median over rounds of this target's CPU per request / the reference's in the same
     *     round (below 1: cheaper), with the lowest and highest round
     * @param syscallsPerRequest median system calls per request, all names
     * @param byName median calls per request by name
     * @param errorsPerRequest median failed calls per request by name (strace only)
     * @param voluntaryPerRequest median voluntary context switches per request (timed window)
     * @param involuntaryPerRequest median involuntary context switches per request (timed window)
     * @param tracedSwitchesPerRequest median context switches per request counted by perf in the counting window (null for strace)
     * @param wakeupsPerRequest median worker-loop wakeups per request (Tidemill only)
     */
    public record Summary(String target, String scenario, int rounds, double requestsPerSec, double serverCpuUsPerRequest,
                          Map<String, double[]> costVsReference, double syscallsPerRequest, Map<String, Double> byName,
                          Map<String, Double> errorsPerRequest, double voluntaryPerRequest, double involuntaryPerRequest,
                          Double tracedSwitchesPerRequest, Double wakeupsPerRequest) {}

    private HotPathReport() {}

    /** @param rows every window @return one summary per target and scenario, in the order first measured */
    static List<Summary> summarise(List<HotPathSuite.Row> rows) {
        Map<String, List<HotPathSuite.Row>> groups = new LinkedHashMap<>();
        for (HotPathSuite.Row r : rows) groups.computeIfAbsent(r.target() + "\u0000" + r.scenario(), k -> new ArrayList<>()).add(r);
        List<Summary> out = new ArrayList<>();
        for (List<HotPathSuite.Row> g : groups.values()) {
            HotPathSuite.Row first = g.getFirst();
            Map<String, double[]> cost = new LinkedHashMap<>();
            for (String ref : REFERENCES) ratio(rows, g, ref).ifPresent(v -> cost.put(ref, v));
            Set<String> names = new LinkedHashSet<>();
            g.forEach(r -> names.addAll(r.counted().calls().keySet()));
            Map<String, Double> byName = new TreeMap<>();
            Map<String, Double> errors = new TreeMap<>();
            for (String name : names) {
                byName.put(name, median(g, r -> perRequest(r.counted().calls().getOrDefault(name, 0L), r)));
                double e = median(g, r -> perRequest(r.counted().errors().getOrDefault(name, 0L), r));
                if (e > 0) errors.put(name, e);
            }
            boolean perf = g.stream().allMatch(r -> r.counted().contextSwitches() >= 0);
            boolean tidemill = g.stream().allMatch(r -> r.wakeupsPerRequest() != null);
            out.add(new Summary(first.target(), first.scenario(), g.size(), median(g, HotPathSuite.Row::requestsPerSec),
                    median(g, HotPathSuite.Row::serverCpuUsPerRequest), cost,
                    median(g, r -> perRequest(r.counted().total(), r)), byName, errors,
                    median(g, HotPathSuite.Row::voluntaryPerRequest), median(g, HotPathSuite.Row::involuntaryPerRequest),
                    perf ? median(g, r -> perRequest(r.counted().contextSwitches(), r)) : null,
                    tidemill ? median(g, HotPathSuite.Row::wakeupsPerRequest) : null));
        }
        return out;
    }

    private static Optional<double[]> ratio(List<HotPathSuite.Row> all, List<HotPathSuite.Row> mine, String reference) {
        List<Double> ratios = new ArrayList<>();
        for (HotPathSuite.Row r : mine) {
            all.stream().filter(x -> x.target().equals(reference) && x.scenario().equals(r.scenario()) && x.round() == r.round())
                    .findFirst().ifPresent(ref -> ratios.add(r.serverCpuUsPerRequest() / ref.serverCpuUsPerRequest()));
        }
        if (ratios.isEmpty()) return Optional.empty();
        return Optional.of(new double[] {dev.tidemill.bench.Summary.median(ratios),
                ratios.stream().mapToDouble(Double::doubleValue).min().orElseThrow(),
                ratios.stream().mapToDouble(Double::doubleValue).max().orElseThrow()});
    }

    private static double perRequest(long count, HotPathSuite.Row r) {
        return (double) count / Math.max(1, r.counted().wrk().requests());
    }

    private static double median(List<HotPathSuite.Row> g, ToDoubleFunction<HotPathSuite.Row> f) {
        return dev.tidemill.bench.Summary.median(g.stream().map(r -> f.applyAsDouble(r)).toList());
    }

    /** @param w a counted window @param n how many @return its {@code n} most frequent calls per request, for progress lines */
    static String top(SyscallCounts.Window w, int n) {
        long requests = Math.max(1, w.wrk().requests());
        return String.join(", ", w.calls().entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed()).limit(n)
                .map(e -> String.format(Locale.ROOT, "%s %.3f", e.getKey(), (double) e.getValue() / requests)).toList());
    }

    /**
     * The goals, read per transport the run measured: IO mode at most {@value #IO_GOAL}x Vert.x core's
     * server CPU per request, and LOOP mode at most {@value #LOOP_GOAL}x IO mode's on the same transport,
     * each the median over rounds of the same-round ratio, with the lowest and highest round.
     *
     * @param rows every window
     * @return one line per goal the run can read, in Markdown; empty when it can read none
     */
    static String goals(List<HotPathSuite.Row> rows) {
        StringBuilder b = new StringBuilder();
        List<String> scenarios = rows.stream().map(HotPathSuite.Row::scenario).distinct().toList();
        for (Map.Entry<String, String> t : TRANSPORTS.entrySet()) {
            String io = "tidemill-io" + t.getKey(), loop = "tidemill-loop" + t.getKey();
            for (String scenario : scenarios) {
                pairRatio(rows, scenario, io, "vertx-core").ifPresent(r -> b.append(goal("IO on " + t.getValue() + ", " + scenario
                        + ": server CPU per request " + ratioText(r) + " Vert.x core's", r[0], IO_GOAL)));
                pairRatio(rows, scenario, loop, io).ifPresent(r -> b.append(goal("LOOP on " + t.getValue() + ", " + scenario
                        + ": server CPU per request " + ratioText(r) + " IO's on the same transport", r[0], LOOP_GOAL)));
            }
        }
        return b.toString();
    }

    private static String goal(String reading, double median, double goal) {
        return String.format(Locale.ROOT, "- %s (goal at most %.2fx): %s%n", reading, goal, median <= goal ? "met" : "NOT met");
    }

    /** @param r median, lowest and highest round @return {@code 0.95x [0.80-1.10]} */
    private static String ratioText(double[] r) {
        return String.format(Locale.ROOT, "%.2fx [%.2f-%.2f]", r[0], r[1], r[2]);
    }

    /** @return the median, lowest and highest over rounds of {@code target}'s CPU per request / {@code reference}'s in the same round */
    private static Optional<double[]> pairRatio(List<HotPathSuite.Row> rows, String scenario, String target, String reference) {
        List<HotPathSuite.Row> mine = rows.stream().filter(r -> r.target().equals(target) && r.scenario().equals(scenario)).toList();
        return mine.isEmpty() ? Optional.empty() : ratio(rows, mine, reference);
    }

    /** @param result the suite's result @return the two tables */
    static String tables(HotPathSuite.Result result) {
        List<Summary> summary = result.summary();
        StringBuilder b = new StringBuilder("### Server CPU per request, against Vert.x core and raw Netty\n\n"
                + "| scenario | target | req/s | server CPU us/req | vs vertx-core | vs baseline | ctx switches/req vol | invol | traced | "
                + "worker wakeups/req |\n|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (Summary s : sorted(summary)) {
            b.append(String.format(Locale.ROOT, "| %s | %s | %,.0f | %.2f | %s | %s | %.4f | %.4f | %s | %s |%n", s.scenario(), s.target(),
                    s.requestsPerSec(), s.serverCpuUsPerRequest(), cost(s, "vertx-core"), cost(s, TargetCatalog.BASELINE),
                    s.voluntaryPerRequest(), s.involuntaryPerRequest(), maybe(s.tracedSwitchesPerRequest()), maybe(s.wakeupsPerRequest())));
        }
        List<String> columns = columns(summary);
        b.append("\n### System calls per request, by name\n\n| scenario | target | total |");
        columns.forEach(c -> b.append(' ').append(c).append(" |"));
        b.append(" other | failed (strace) |\n|---|---|---:|").append("---:|".repeat(columns.size() + 1)).append("---|\n");
        for (Summary s : sorted(summary)) {
            b.append(String.format(Locale.ROOT, "| %s | %s | %.3f |", s.scenario(), s.target(), s.syscallsPerRequest()));
            double other = s.syscallsPerRequest();
            for (String c : columns) {
                double v = s.byName().getOrDefault(c, 0.0);
                other -= v;
                b.append(String.format(Locale.ROOT, " %.4f |", v));
            }
            b.append(String.format(Locale.ROOT, " %.4f | %s |%n", Math.max(0, other), s.errorsPerRequest().isEmpty() ? "-"
                    : String.join(", ", s.errorsPerRequest().entrySet().stream()
                    .map(e -> String.format(Locale.ROOT, "%s %.4f", e.getKey(), e.getValue())).toList())));
        }
        return b.toString();
    }

    /** @param result the suite's result @return the Markdown page */
    static String page(HotPathSuite.Result result) {
        StringBuilder b = new StringBuilder("# Hot path: server CPU, system calls and context switches per request\n\n");
        b.append("`").append(result.command()).append("`, started ").append(result.startedUtc()).append(", git ")
                .append(result.fingerprint().get("gitCommit")).append(", preflight: ")
                .append(result.preflight().stream().anyMatch(Check::failed) ? "not clean ("
                        + String.join(", ", result.preflight().stream().filter(Check::failed).map(Check::name).toList()) + ")" : "clean")
                .append(".\n\n## Method\n\n");
        @SuppressWarnings("unchecked")
        List<String> method = (List<String>) result.configuration().get("method");
        method.forEach(m -> b.append("- ").append(m).append('\n'));
        b.append("- ").append(result.configuration().get("rounds")).append(" round(s), ").append(result.configuration().get("warmupSeconds"))
                .append(" s warm-up, ").append(result.configuration().get("durationSeconds")).append(" s timed and ")
                .append(result.configuration().get("countSeconds")).append(" s counted per scenario, wrk -t1 -c")
                .append(result.configuration().get("connections")).append(", JVM flags ").append(result.configuration().get("jvmFlags"))
                .append("\n\n## Results\n\n").append(tables(result));
        String goals = goals(result.rows());
        if (!goals.isEmpty()) b.append("\n### Goals\n\n").append(goals);
        if (!result.failures().isEmpty()) {
            b.append("\n## Failures\n\n");
            result.failures().forEach(f -> b.append("- ").append(f).append('\n'));
        }
        return b.toString();
    }

    private static List<Summary> sorted(List<Summary> summary) {
        return summary.stream().sorted(Comparator.comparing(Summary::scenario).reversed()
                .thenComparing(s -> HotPathSuite.TARGETS.indexOf(s.target()) < 0 ? 99 : HotPathSuite.TARGETS.indexOf(s.target()))).toList();
    }

    private static List<String> columns(List<Summary> summary) {
        Map<String, Double> max = new TreeMap<>();
        for (Summary s : summary) s.byName().forEach((k, v) -> max.merge(k, v, Math::max));
        return max.entrySet().stream().filter(e -> e.getValue() >= COLUMN_AT)
                .sorted(Map.Entry.<String, Double>comparingByValue().reversed()).map(Map.Entry::getKey).toList();
    }

    private static String cost(Summary s, String reference) {
        double[] c = s.costVsReference().get(reference);
        if (c == null) return "-";
        return s.rounds() < 2 ? String.format(Locale.ROOT, "%.2fx", c[0]) : ratioText(c);
    }

    private static String maybe(Double v) {
        return v == null ? "-" : String.format(Locale.ROOT, "%.4f", v);
    }
}
