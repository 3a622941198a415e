package dev.tidemill.bench;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/** Medians, ratios, goals and the page of {@code ./tidemill bench auth} ({@link AuthSuite}). */
final class AuthReport {
    /** The goal: a cached bearer route costs at most this multiple of the anonymous route's server CPU per request. */
    static final double CACHED_GOAL = 1.1;

    private AuthReport() {}

    /**
     * One target and case over the rounds.
     *
     * @param target the target
     * @param caseId the case
     * @param rounds rounds with a window
     * @param medianRps median 2xx per second
     * @param medianCpuUs median server CPU microseconds per request
     * @param minCpuUs lowest round
     * @param maxCpuUs highest round
     * @param cpuVsAnonymous median over rounds of CPU/req divided by the same target's anonymous CPU/req in that round
     * @param clientBoundRounds rounds whose window had the generator's CPUs busy (compare CPU/req there, not req/s)
     */
    record Summary(String target, String caseId, int rounds, double medianRps, double medianCpuUs, double minCpuUs, double maxCpuUs,
                   double cpuVsAnonymous, int clientBoundRounds) {}

    /**
     * @param goal what was aimed at
     * @param reading what was measured
     * @param met whether it was met; null when it could not be measured
     */
    record Goal(String goal, String reading, Boolean met) {}

    static List<Summary> summarise(List<AuthSuite.Row> rows) {
        List<Summary> out = new ArrayList<>();
        for (String target : rows.stream().map(AuthSuite.Row::target).distinct().toList()) {
            for (String c : AuthSuite.CASES) {
                List<AuthSuite.Row> mine = rows.stream().filter(r -> r.target().equals(target) && r.caseId().equals(c)
                        && r.requests() > 0 && r.errors() == 0).toList();
                if (mine.isEmpty()) continue;
                List<Double> ratios = new ArrayList<>();
                for (AuthSuite.Row r : mine) {
                    rows.stream().filter(a -> a.target().equals(target) && a.round() == r.round() && a.caseId().equals("anonymous")
                            && a.requests() > 0 && a.errors() == 0).findFirst()
                            .ifPresent(a -> ratios.add(r.serverCpuUsPerRequest() / a.serverCpuUsPerRequest()));
                }
                List<Double> cpu = mine.stream().map(AuthSuite.Row::serverCpuUsPerRequest).toList();
                out.add(new Summary(target, c, mine.size(), median(mine.stream().map(AuthSuite.Row::requestsPerSec).toList()), median(cpu),
                        cpu.stream().min(Comparator.naturalOrder()).orElse(Double.NaN),
                        cpu.stream().max(Comparator.naturalOrder()).orElse(Double.NaN), median(ratios),
                        (int) mine.stream().filter(AuthSuite.Row::clientBound).count()));
            }
        }
        return out;
    }

    static List<Goal> goals(List<Summary> summary, AuthSuite.Rotation rotation) {
        List<Goal> goals = new ArrayList<>();
        Summary cached = find(summary, "tidemill", "bearer-cached");
        Summary anonymous = find(summary, "tidemill", "anonymous");
        if (cached != null && anonymous != null) {
            goals.add(new Goal(String.format(Locale.ROOT, "an ES256 bearer route with the cache costs at most %.1fx the anonymous route's "
                    + "server CPU per request", CACHED_GOAL), String.format(Locale.ROOT, "%.2fx (%.1f us against %.1f us)",
                    cached.cpuVsAnonymous(), cached.medianCpuUs(), anonymous.medianCpuUs()), cached.cpuVsAnonymous() <= CACHED_GOAL));
        } else {
            goals.add(new Goal("an ES256 bearer route with the cache costs at most 1.1x the anonymous route", "not measured", null));
        }
        for (String peer : summary.stream().map(Summary::target).filter(t -> !t.equals("tidemill")).distinct().toList()) {
            Summary theirs = find(summary, peer, "bearer-cached");
            if (cached == null || theirs == null) continue;
            goals.add(new Goal("less server CPU per request than " + peer + "'s bearer route on the same token",
                    String.format(Locale.ROOT, "%.1f us against %.1f us (%.2fx)", cached.medianCpuUs(), theirs.medianCpuUs(),
                            cached.medianCpuUs() / theirs.medianCpuUs()), cached.medianCpuUs() < theirs.medianCpuUs()));
        }
        if (rotation != null) {
            goals.add(new Goal("a key rotation under load: 0 non-2xx for valid tokens", String.format(Locale.ROOT,
                    "%,d requests, %d non-2xx, %d socket errors; key-set fetches: %d at start, %d during the window",
                    rotation.requests(), rotation.non2xx(), rotation.socketErrors(), rotation.fetchesBefore(), rotation.fetchesDuring()),
                    rotation.non2xx() == 0 && rotation.socketErrors() == 0));
        } else {
            goals.add(new Goal("a key rotation under load: 0 non-2xx for valid tokens", "not measured", null));
        }
        return goals;
    }

    private static Summary find(List<Summary> summary, String target, String caseId) {
        return summary.stream().filter(s -> s.target().equals(target) && s.caseId().equals(caseId)).findFirst().orElse(null);
    }

    static String jmhTable(List<AuthSuite.JmhRow> rows) {
        StringBuilder b = new StringBuilder("| algorithm | cache | us/token | ± |\n|---|---|---:|---:|\n");
        rows.stream().sorted(Comparator.comparing(AuthSuite.JmhRow::alg).thenComparing(AuthSuite.JmhRow::cache)).forEach(r ->
                b.append("| ").append(r.alg()).append(" | ").append(r.cache()).append(" | ").append(fmt("%.2f", r.usPerToken()))
                        .append(" | ").append(fmt("%.2f", r.usError())).append(" |\n"));
        return b.toString();
    }

    static String serverTable(List<Summary> summary) {
        StringBuilder b = new StringBuilder("| target | case | req/s | server CPU us/req (min-max) | CPU x anonymous | client-bound rounds |\n"
                + "|---|---|---:|---:|---:|---:|\n");
        for (Summary s : summary) {
            b.append("| ").append(s.target()).append(" | ").append(s.caseId()).append(" | ").append(fmt("%,.0f", s.medianRps()))
                    .append(" | ").append(fmt("%.1f", s.medianCpuUs())).append(" (").append(fmt("%.1f", s.minCpuUs())).append("-")
                    .append(fmt("%.1f", s.maxCpuUs())).append(") | ").append(fmt("%.2f", s.cpuVsAnonymous())).append(" | ")
                    .append(s.clientBoundRounds()).append(" of ").append(s.rounds()).append(" |\n");
        }
        return b.toString();
    }

    static String goalLines(List<Goal> goals) {
        StringBuilder b = new StringBuilder();
        for (Goal g : goals) {
            b.append("- ").append(g.met() == null ? "not measured" : g.met() ? "met" : "NOT met").append(": ").append(g.goal())
                    .append(": ").append(g.reading()).append('\n');
        }
        return b.toString();
    }

    /** The fingerprint entries the page shows (all of them are in the JSON). */
    private static final List<String> SHOWN = List.of("cpuModel", "cores", "memory", "kernel", "jdkVersion", "gitCommit");

    static String page(AuthSuite.Result r) {
        Map<String, Object> c = r.configuration();
        StringBuilder b = new StringBuilder("# Authentication, ").append(r.startedUtc()).append("\n\n");
        b.append("Command: `").append(r.command()).append("`, run ").append(r.startedUtc()).append(" to ").append(r.finishedUtc())
                .append(r.quick() ? " (quick: to check the pipeline, not to compare)" : "").append(".\n\n");
        b.append("### Verifying one token (JMH)\n\nTidemill's verifier, as the server calls it on the I/O thread: `cached` sends the same "
                + "token again (answered from the verified-token cache, keyed by the whole token, never past its `exp`); `uncached` a "
                + "new token each call (more distinct tokens than the cache holds), so each call checks the signature and the claims. "
                + "AverageTime; the error is JMH's 99.9 % confidence half-width. JMH: `").append(r.jmhCommand()).append("`.\n\n");
        b.append(jmhTable(r.jmhRows()));
        b.append("\n### A bearer route against the same route anonymous\n\nPer round and target (rotated order), wrk (`")
                .append(c.get("wrk")).append("`, pinned to CPUs ").append(c.get("loadGeneratorCpus")).append("; the server to CPUs ")
                .append(c.get("serverCpus")).append(") for ").append(c.get("warmupSeconds")).append(" s unrecorded, then ")
                .append(c.get("durationSeconds")).append(" s measured, per case; ").append(c.get("rounds")).append(" round(s), medians. ")
                .append("Server CPU per request is utime + stime of the server over the window divided by its 2xx answers. Where the ")
                .append("generator's CPUs were busy (client-bound), req/s measures wrk, not the server: compare CPU per request. ")
                .append("Tokens: ").append(c.get("tokens")).append(". Verifiers: ");
        Object v = c.get("verifiers");
        if (v instanceof Map<?, ?> m) {
            List<String> parts = new ArrayList<>();
            m.forEach((k, val) -> parts.add(k + ": " + val));
            b.append(String.join("; ", parts));
        }
        b.append(".\n\n").append(serverTable(r.summary()));
        b.append("\n### Goals\n\n").append(goalLines(r.goals()));
        if (r.rotation() != null) {
            AuthSuite.Rotation x = r.rotation();
            b.append("\nThe rotation: a new Tidemill start with key A published; wrk on the bearer route with a token of key A; just "
                    + "before the window the provider publishes A and B, and ").append(x.switchAfterSeconds())
                    .append(" s into it wrk switches to a token of key B, whose kid the server has not seen: the requests that carry it ")
                    .append("wait for one key-set fetch, made once for all of them.\n");
        }
        if (!r.notMeasured().isEmpty()) {
            b.append("\n### Not measured\n\n");
            r.notMeasured().forEach(n -> b.append("- ").append(n).append('\n'));
        }
        if (!r.failures().isEmpty()) {
            b.append("\n### Failures\n\n");
            r.failures().forEach(f -> b.append("- ").append(f).append('\n'));
        }
        b.append(hostTable(r.fingerprint()));
        return b.toString();
    }

    /** @return the host table a suite's page ends with: the {@link #SHOWN} entries of its fingerprint, after a blank line */
    static String hostTable(Map<String, Object> fingerprint) {
        StringBuilder b = new StringBuilder("\n| host | |\n|---|---|\n");
        for (String k : SHOWN) {
            Object val = fingerprint == null ? null : fingerprint.get(k);
            if (val != null) b.append("| ").append(k).append(" | ").append(String.valueOf(val).replace("|", "\\|")).append(" |\n");
        }
        return b.toString();
    }

    static double median(List<Double> values) {
        List<Double> v = values.stream().filter(Objects::nonNull).filter(d -> !d.isNaN()).sorted().toList();
        if (v.isEmpty()) return Double.NaN;
        int n = v.size();
        return n % 2 == 1 ? v.get(n / 2) : (v.get(n / 2 - 1) + v.get(n / 2)) / 2;
    }

    private static String fmt(String format, double v) {
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, format, v);
    }
}
