package dev.tidemill.bench;

import static dev.tidemill.bench.ControllersReport.fmt;
import static dev.tidemill.bench.ControllersReport.max;
import static dev.tidemill.bench.ControllersReport.min;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The request part of {@code ./tidemill bench controllers} in figures ({@link ControllersRequests}): per case the
 * median req/s and server CPU per request over the rounds; per endpoint the controller against the DSL route
 * and the A/A twin against the DSL route, as ratios taken within a round, with the A/A spread; the goal that a
 * controller route costs no more server CPU per request than that spread; and their tables and section of the page.
 */
final class ControllersRequestsReport {
    private ControllersRequestsReport() {}

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

    private static List<AuthSuite.Row> valid(List<AuthSuite.Row> rows) {
        return rows.stream().filter(r -> r.requests() > 0 && r.errors() == 0).toList();
    }

    static List<CaseSummary> summarise(List<AuthSuite.Row> rows) {
        List<CaseSummary> out = new ArrayList<>();
        for (String kind : ControllersRequests.KINDS) {
            for (String form : ControllersRequests.FORMS) {
                String id = ControllersRequests.caseId(kind, form);
                List<AuthSuite.Row> mine = valid(rows).stream().filter(r -> r.caseId().equals(id)).toList();
                if (mine.isEmpty()) continue;
                List<Double> cpu = mine.stream().map(AuthSuite.Row::serverCpuUsPerRequest).toList();
                out.add(new CaseSummary(id, kind, form, ControllersRequests.path(kind, form), mine.size(),
                        AuthReport.median(mine.stream().map(AuthSuite.Row::requestsPerSec).toList()), AuthReport.median(cpu), min(cpu), max(cpu),
                        (int) mine.stream().filter(AuthSuite.Row::clientBound).count()));
            }
        }
        return out;
    }

    static List<Comparison> compare(List<AuthSuite.Row> rows) {
        List<Comparison> out = new ArrayList<>();
        List<AuthSuite.Row> ok = valid(rows);
        for (String kind : ControllersRequests.KINDS) {
            List<Double> cpu = new ArrayList<>(), aaCpu = new ArrayList<>(), rps = new ArrayList<>(), aaRps = new ArrayList<>();
            for (int round : ok.stream().mapToInt(AuthSuite.Row::round).distinct().sorted().toArray()) {
                AuthSuite.Row dsl = find(ok, round, ControllersRequests.caseId(kind, "dsl"));
                AuthSuite.Row controller = find(ok, round, ControllersRequests.caseId(kind, "controller"));
                AuthSuite.Row twin = find(ok, round, ControllersRequests.caseId(kind, "dsl-twin"));
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

    /** @return per endpoint, the goal that the controller route costs the DSL route's server CPU per request, within the A/A spread */
    static List<AuthReport.Goal> goals(List<Comparison> comparisons) {
        List<AuthReport.Goal> goals = new ArrayList<>();
        for (String kind : ControllersRequests.KINDS) {
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
        return goals;
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

    /** @return the page's section: the method, the cases and the comparisons */
    static String section(List<CaseSummary> summary, List<Comparison> comparisons, Map<String, Object> c) {
        StringBuilder b = new StringBuilder();
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
        b.append(caseTable(summary));
        b.append("\nRatios are taken within a round (the controller's window over the DSL route's in the same round, and the twin's "
                + "over the DSL route's), then the median over rounds. The A/A spread is the largest distance from 1 of a twin/DSL "
                + "ratio in any round: how far two identical routes differ on this host. \"within\": the controller's median ratio is "
                + "no further from 1 than that.\n\n").append(comparisonTable(comparisons));
        return b.toString();
    }
}
