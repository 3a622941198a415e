package dev.tidemill.bench;

import dev.tidemill.bench.targets.TidemillAutoApp;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/** The Markdown of {@code ./tidemill bench auto} ({@link AutoSuite}), from its result alone. */
final class AutoReport {
    private AutoReport() {}

    static String markdown(AutoSuite.Result r) {
        StringBuilder b = new StringBuilder();
        Map<String, Object> c = r.configuration();
        b.append("# Tidemill bench, auto suite, ").append(r.startedUtc()).append("\n\n")
                .append("Command: `").append(r.command()).append("`. Server on CPUs ").append(c.get("serverCpus"))
                .append(" (one I/O thread per CPU, ").append(c.get("workerLoops")).append(" worker loops), wrk on CPUs ")
                .append(c.get("loadGeneratorCpus")).append(". Preflight: ")
                .append(r.preflight().stream().anyMatch(Check::failed) ? "FAILED (" + String.join(", ", r.preflight().stream()
                        .filter(Check::failed).map(x -> x.name() + " " + x.reading()).toList()) + ")" : "passed").append(".\n\n");
        mixed(b, r);
        overhead(b, r);
        return b.toString();
    }

    private static void mixed(StringBuilder b, AutoSuite.Result r) {
        Map<String, Object> c = r.configuration();
        b.append("#### Mixed load: a constant, 200 us of CPU and a 5 ms sleep in one client's rotation\n\n")
                .append("Load: ").append(c.get("mixedLoad")).append(", ").append(c.get("durationSeconds"))
                .append(" s per window after ").append(c.get("warmupSeconds")).append(" s of the same load, a fresh server per configuration "
                        + "and round, the configurations rotated each round. A route a configuration starves holds connections and "
                        + "slows the whole mix. The hand-picked assignments give the three routes (constant/CPU/sleep) their modes; "
                        + "the single modes set the whole app's. Throughput: the mix's 2xx per second; latency from wrk over the mix; "
                        + "each route's calls per second from the server's own count.\n\n")
                .append("| configuration | mix req/s, median (min-max) | p50 | p99 | constant/s | CPU/s | sleep/s | errors | server CPU us/req |\n"
                        + "|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (AutoSuite.Config cfg : AutoSuite.CONFIGS) {
            List<AutoSuite.MixedRow> rows = r.mixed().stream().filter(m -> m.configuration().equals(cfg.name())).toList();
            if (rows.isEmpty()) continue;
            b.append("| ").append(cfg.name()).append(" | ").append(range(rows, AutoSuite.MixedRow::perSecond, "%,.0f"))
                    .append(" | ").append(fmt("%.2f ms", median(rows, AutoSuite.MixedRow::p50Ms)))
                    .append(" | ").append(fmt("%.2f ms", median(rows, AutoSuite.MixedRow::p99Ms)));
            for (String path : AutoSuite.MIXED.keySet()) b.append(" | ").append(fmt("%,.0f", median(rows, m -> m.routeCalls().get(path))));
            b.append(" | ").append(rows.stream().mapToLong(AutoSuite.MixedRow::errors).sum())
                    .append(" | ").append(fmt("%.1f", median(rows, AutoSuite.MixedRow::serverCpuUsPerRequest))).append(" |\n");
        }
        b.append("\nRatios within a round: AUTO's throughput over the best hand-picked assignment of that round (a maximum of "
                + "three windows, so it gains from the run's noise), over the hand-picked assignment with the best median, and over "
                + "each single mode; the median over rounds (min-max). Goals: at least 0.95 against the best hand-picked, above 1 "
                + "against every single mode.\n\n| AUTO over | median (rounds) | goal | met |\n|---|---:|---|---|\n");
        ratio(b, r, "best hand-picked of each round", n -> n.startsWith("hand "), 0.95);
        bestMedianHand(r).ifPresent(best -> ratio(b, r, "the hand-picked assignment with the best median (" + best + ")", best::equals, 0.95));
        for (String single : List.of("io", "loop", "virtual")) ratio(b, r, single, single::equals, 1.0);
        b.append("\nWhere AUTO had put each route at the end of its windows (the last round):\n\n| route | mode | moves | why |\n|---|---|---:|---|\n");
        r.mixed().stream().filter(m -> m.configuration().equals("auto")).reduce((a, x) -> x).ifPresent(last -> last.modes().stream()
                .filter(m -> AutoSuite.MIXED.containsKey(String.valueOf(m.get("route")))).forEach(m -> b.append("| `").append(m.get("route"))
                        .append("` | ").append(m.get("current")).append(" | ").append(m.get("moves")).append(" | ").append(m.get("why"))
                        .append(" |\n")));
    }

    /**
     * @return the hand-picked configuration whose median throughput is highest: the assignment a person
     *     measuring would keep (the best of each round is a maximum of noisy windows, which favours the
     *     hand-picked side by the run's noise alone)
     */
    private static java.util.Optional<String> bestMedianHand(AutoSuite.Result r) {
        return AutoSuite.CONFIGS.stream().map(AutoSuite.Config::name).filter(n -> n.startsWith("hand "))
                .filter(n -> r.mixed().stream().anyMatch(m -> m.configuration().equals(n)))
                .max(java.util.Comparator.comparingDouble(n -> median(r.mixed().stream().filter(m -> m.configuration().equals(n)).toList(),
                        AutoSuite.MixedRow::perSecond)));
    }

    private static void ratio(StringBuilder b, AutoSuite.Result r, String label, java.util.function.Predicate<String> over, double goal) {
        List<Double> ratios = new ArrayList<>();
        for (int round = 1; round <= r.mixed().stream().mapToInt(AutoSuite.MixedRow::round).max().orElse(0); round++) {
            int n = round;
            double auto = r.mixed().stream().filter(m -> m.round() == n && m.configuration().equals("auto"))
                    .mapToDouble(AutoSuite.MixedRow::perSecond).findFirst().orElse(Double.NaN);
            double best = r.mixed().stream().filter(m -> m.round() == n && over.test(m.configuration()))
                    .mapToDouble(AutoSuite.MixedRow::perSecond).max().orElse(Double.NaN);
            if (best > 0 && auto >= 0) ratios.add(auto / best);
        }
        if (ratios.isEmpty()) return;
        double med = median(ratios);
        boolean met = goal >= 1.0 ? med > goal : med >= goal;
        b.append("| ").append(label).append(" | ").append(fmt("%.3f", med)).append(" (").append(fmt("%.3f", Collections.min(ratios)))
                .append('-').append(fmt("%.3f", Collections.max(ratios))).append(") | ").append(goal >= 1.0 ? "> 1" : ">= " + goal)
                .append(" | ").append(met ? "yes" : "NO").append(" |\n");
    }

    private static void overhead(StringBuilder b, AutoSuite.Result r) {
        List<AuthSuite.Row> rows = r.overhead().stream().filter(x -> x.round() > 0).toList();
        if (rows.isEmpty()) return;
        b.append("\n#### What AUTO costs a plaintext route it has put on IO\n\nOne server in IO mode: `")
                .append(TidemillAutoApp.PLAINTEXT).append("` (IO), `").append(TidemillAutoApp.TWIN).append("` (IO, the A/A twin) and `")
                .append(TidemillAutoApp.AUTO_PLAINTEXT).append("` (AUTO, on IO after the warm-up: ")
                .append(r.overheadModes().stream().filter(m -> TidemillAutoApp.AUTO_PLAINTEXT.equals(m.get("route")))
                        .map(m -> m.get("current") + ", " + m.get("why")).findFirst().orElse("not read"))
                .append("), wrk -t1 -c64, one window each per round, the order rotated. AUTO reads the wall clock twice per call and "
                        + "times one call in 256.\n\n| route | req/s | server CPU us/req, median (min-max) |\n|---|---:|---:|\n");
        for (String path : AutoSuite.OVERHEAD) {
            List<Double> rps = rows.stream().filter(x -> x.caseId().equals(path)).map(AuthSuite.Row::requestsPerSec).toList();
            List<Double> cpu = rows.stream().filter(x -> x.caseId().equals(path)).map(AuthSuite.Row::serverCpuUsPerRequest).toList();
            b.append("| `").append(path).append("` | ").append(fmt("%,.0f", median(rps))).append(" | ").append(fmt("%.2f", median(cpu)))
                    .append(" (").append(fmt("%.2f", Collections.min(cpu))).append('-').append(fmt("%.2f", Collections.max(cpu))).append(") |\n");
        }
        List<Double> auto = new ArrayList<>(), twin = new ArrayList<>();
        for (int round : rows.stream().map(AuthSuite.Row::round).distinct().toList()) {
            double io = cpu(rows, round, TidemillAutoApp.PLAINTEXT);
            auto.add(cpu(rows, round, TidemillAutoApp.AUTO_PLAINTEXT) / io);
            twin.add(cpu(rows, round, TidemillAutoApp.TWIN) / io);
        }
        double spread = twin.stream().mapToDouble(x -> Math.abs(x - 1)).max().orElse(Double.NaN);
        double med = median(auto);
        b.append("\nCPU per request over the IO route's in the same round: AUTO ").append(fmt("%.3f", med)).append(" (")
                .append(fmt("%.3f", Collections.min(auto))).append('-').append(fmt("%.3f", Collections.max(auto))).append("), the twin ")
                .append(fmt("%.3f", Collections.min(twin))).append('-').append(fmt("%.3f", Collections.max(twin)))
                .append(" (A/A spread ").append(fmt("%.1f %%", spread * 100)).append("). Goal: AUTO's cost under 1 %: ")
                .append(spread > 0.01 ? "not resolved by this run: the median is " + fmt("%+.1f %%", (med - 1) * 100) + ", but two identical "
                        + "routes differ by up to " + fmt("%.1f %%", spread * 100) + " here, so this run cannot tell 1 % apart"
                        : med <= 1.01 ? "met (median " + fmt("%+.1f %%", (med - 1) * 100) + ")" : "NOT met (median " + fmt("%+.1f %%", (med - 1) * 100) + ")")
                .append(".\n");
    }

    private static double cpu(List<AuthSuite.Row> rows, int round, String path) {
        return rows.stream().filter(x -> x.round() == round && x.caseId().equals(path)).mapToDouble(AuthSuite.Row::serverCpuUsPerRequest)
                .findFirst().orElse(Double.NaN);
    }

    private static String range(List<AutoSuite.MixedRow> rows, ToDoubleFunction<AutoSuite.MixedRow> f, String format) {
        List<Double> v = rows.stream().map(f::applyAsDouble).toList();
        return fmt(format, median(v)) + " (" + fmt(format, Collections.min(v)) + "-" + fmt(format, Collections.max(v)) + ")";
    }

    private static double median(List<AutoSuite.MixedRow> rows, ToDoubleFunction<AutoSuite.MixedRow> f) {
        return median(rows.stream().map(f::applyAsDouble).toList());
    }

    static double median(List<Double> values) {
        List<Double> s = new ArrayList<>(values);
        Collections.sort(s);
        int n = s.size();
        return n == 0 ? Double.NaN : n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
    }

    private static String fmt(String f, double v) {
        return String.format(Locale.ROOT, f, v);
    }
}
