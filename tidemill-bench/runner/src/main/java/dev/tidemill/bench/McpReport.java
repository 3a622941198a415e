package dev.tidemill.bench;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Medians, the difference per call, the goals and the page of {@code ./tidemill bench mcp} ({@link McpSuite}). */
final class McpReport {
    /** The goal: a tools/call costs at most this many microseconds of server CPU more than the plain route. */
    static final double CPU_GOAL_US = 20;

    private McpReport() {}

    /**
     * One case over the rounds.
     *
     * @param caseId {@link McpSuite#CASES}
     * @param rounds rounds with a window without errors
     * @param medianRps median 2xx per second
     * @param medianCpuUs median server CPU microseconds per request
     * @param minCpuUs lowest round
     * @param maxCpuUs highest round
     * @param clientBoundRounds rounds whose window had the generator's CPUs busy (compare CPU/req there, not req/s)
     */
    record Summary(String caseId, int rounds, double medianRps, double medianCpuUs, double minCpuUs, double maxCpuUs,
                   int clientBoundRounds) {}

    static List<Summary> summarise(List<AuthSuite.Row> rows) {
        List<Summary> out = new ArrayList<>();
        for (String c : McpSuite.CASES) {
            List<AuthSuite.Row> mine = valid(rows).stream().filter(r -> r.caseId().equals(c)).toList();
            if (mine.isEmpty()) continue;
            List<Double> cpu = mine.stream().map(AuthSuite.Row::serverCpuUsPerRequest).toList();
            out.add(new Summary(c, mine.size(), AuthReport.median(mine.stream().map(AuthSuite.Row::requestsPerSec).toList()),
                    AuthReport.median(cpu), cpu.stream().min(Comparator.naturalOrder()).orElse(Double.NaN),
                    cpu.stream().max(Comparator.naturalOrder()).orElse(Double.NaN),
                    (int) mine.stream().filter(AuthSuite.Row::clientBound).count()));
        }
        return out;
    }

    /**
     * @param rows every window
     * @return the median over rounds of the tool call's server CPU per request minus the plain route's in the same round (µs), NaN without a round that has both
     */
    static double differenceUs(List<AuthSuite.Row> rows) {
        List<Double> d = new ArrayList<>();
        List<AuthSuite.Row> ok = valid(rows);
        for (AuthSuite.Row m : ok.stream().filter(r -> r.caseId().equals("mcp")).toList()) {
            ok.stream().filter(p -> p.caseId().equals("plain") && p.round() == m.round()).findFirst()
                    .ifPresent(p -> d.add(m.serverCpuUsPerRequest() - p.serverCpuUsPerRequest()));
        }
        return AuthReport.median(d);
    }

    private static List<AuthSuite.Row> valid(List<AuthSuite.Row> rows) {
        return rows.stream().filter(r -> r.requests() > 0 && r.errors() == 0).toList();
    }

    static List<AuthReport.Goal> goals(double differenceUs, List<Summary> summary, McpSuite.Aborted aborted) {
        List<AuthReport.Goal> goals = new ArrayList<>();
        String cpuGoal = String.format(Locale.ROOT, "a tools/call costs at most %.0f us more server CPU than the plain route", CPU_GOAL_US);
        Summary plain = find(summary, "plain"), mcp = find(summary, "mcp");
        if (Double.isNaN(differenceUs) || plain == null || mcp == null) {
            goals.add(new AuthReport.Goal(cpuGoal, "not measured", null));
        } else {
            goals.add(new AuthReport.Goal(cpuGoal, String.format(Locale.ROOT, "%+.1f us per call (median of the per-round differences; "
                    + "medians %.1f us against %.1f us)", differenceUs, mcp.medianCpuUs(), plain.medianCpuUs()), differenceUs <= CPU_GOAL_US));
        }
        String closeGoal = "0 sockets in CLOSE-WAIT after the aborted calls";
        if (aborted == null) {
            goals.add(new AuthReport.Goal(closeGoal, "not measured", null));
        } else {
            goals.add(new AuthReport.Goal(closeGoal, String.format(Locale.ROOT, "%d in CLOSE-WAIT %d s after the last of %,d clients "
                            + "(%d right after it)", aborted.closeWaitAfterSettle(), aborted.settleSeconds(), aborted.outcome().clients(),
                    aborted.closeWaitAtEnd()), aborted.closeWaitAfterSettle() == 0));
        }
        return goals;
    }

    private static Summary find(List<Summary> summary, String caseId) {
        return summary.stream().filter(s -> s.caseId().equals(caseId)).findFirst().orElse(null);
    }

    static String cpuTable(List<Summary> summary) {
        StringBuilder b = new StringBuilder("| case | request | req/s | server CPU us/req (min-max) | client-bound rounds |\n"
                + "|---|---|---:|---:|---:|\n");
        for (Summary s : summary) {
            b.append("| ").append(s.caseId()).append(" | ").append(s.caseId().equals("plain") ? "`GET " + McpClient.itemPath() + "`"
                            : "`POST " + McpClient.PATH + "` tools/call " + dev.tidemill.bench.targets.TidemillMcpApp.ITEM_TOOL)
                    .append(" | ").append(fmt("%,.0f", s.medianRps())).append(" | ").append(fmt("%.1f", s.medianCpuUs())).append(" (")
                    .append(fmt("%.1f", s.minCpuUs())).append("-").append(fmt("%.1f", s.maxCpuUs())).append(") | ")
                    .append(s.clientBoundRounds()).append(" of ").append(s.rounds()).append(" |\n");
        }
        return b.toString();
    }

    static String sessionsTable(McpSuite.Sessions s) {
        return "| sessions opened | live heap before | with them | after ending them | bytes per idle session | RSS before | RSS with them |\n"
                + "|---:|---:|---:|---:|---:|---:|---:|\n"
                + String.format(Locale.ROOT, "| %,d | %,.1f KiB | %,.1f KiB | %s | %,.0f | %,d KiB | %,d KiB |%n", s.opened(),
                s.heapBefore() / 1024.0, s.heapWith() / 1024.0, s.heapAfterEnd() < 0 ? "-" : String.format(Locale.ROOT, "%,.1f KiB",
                        s.heapAfterEnd() / 1024.0), s.bytesPerSession(), s.rssBeforeKb(), s.rssWithKb());
    }

    static String abortedTable(McpSuite.Aborted a) {
        AbortedCalls.Outcome o = a.outcome();
        return "| clients | FIN / RST | at a time | answered before the close | failed | seconds | CLOSE-WAIT right after | "
                + "CLOSE-WAIT after the wait | server's TCP sockets after the wait |\n|---:|---:|---:|---:|---:|---:|---:|---:|---|\n"
                + String.format(Locale.ROOT, "| %,d | %,d / %,d | %d | %d | %d | %.1f | %d | %d | %s |%n", o.clients(), o.closed(), o.reset(),
                a.concurrency(), o.answeredBeforeClose(), o.failed(), o.seconds(), a.closeWaitAtEnd(), a.closeWaitAfterSettle(),
                states(a.statesAfterSettle()));
    }

    private static String states(Map<String, Integer> states) {
        List<String> parts = new ArrayList<>();
        states.forEach((k, v) -> parts.add(k + " " + v));
        return parts.isEmpty() ? "none" : String.join(", ", parts);
    }

    static String page(McpSuite.Result r) {
        Map<String, Object> c = r.configuration();
        StringBuilder b = new StringBuilder("# MCP, ").append(r.startedUtc()).append("\n\n");
        b.append("Command: `").append(r.command()).append("`, run ").append(r.startedUtc()).append(" to ").append(r.finishedUtc())
                .append(r.quick() ? " (quick: to check the pipeline, not to compare)" : "").append(". The target: ").append(c.get("target"))
                .append(", pinned to CPUs ").append(c.get("serverCpus")).append("; a new start for each part below.\n\n");
        b.append("### A tool call against the same route over plain HTTP\n\nThe same route, `GET /items/{id}` answering a small JSON "
                + "record, asked for item ").append(McpClient.ITEM).append(" directly and as the tool `")
                .append(dev.tidemill.bench.targets.TidemillMcpApp.ITEM_TOOL).append("` through a stateless `tools/call` (revision ")
                .append(McpClient.STATELESS).append(": one self-contained POST to `").append(McpClient.PATH)
                .append("` with `MCP-Protocol-Version`, `Mcp-Method` and `Mcp-Name`, and the `_meta` the revision requires; wrk/mcp.lua). ")
                .append("Both were checked first (200; the call `\"isError\":false` and its `structuredContent` equal to the plain ")
                .append("route's body). wrk (`").append(c.get("wrk")).append("`, pinned to CPUs ").append(c.get("loadGeneratorCpus"))
                .append(") warms each case up for ").append(c.get("warmupSeconds")).append(" s unrecorded, then ").append(c.get("rounds"))
                .append(" round(s) of ").append(c.get("durationSeconds")).append(" s per case, alternating which goes first; medians. ")
                .append("Server CPU per request is utime + stime of the server over the window divided by its 2xx answers. Where the ")
                .append("generator's CPUs were busy (client-bound), req/s measures wrk, not the server: compare CPU per request.\n\n");
        b.append(cpuTable(r.summary()));
        if (!Double.isNaN(r.differenceUs())) {
            b.append(String.format(Locale.ROOT, "%nA tools/call costs %+.1f us of server CPU more than the plain route (median of the "
                    + "per-round differences).%n", r.differenceUs()));
        }
        if (r.sessions() != null) {
            b.append("\n### Idle sessions\n\n").append(String.format(Locale.ROOT, "After %d sessions opened and ended (so that what the "
                            + "first ones load once is not counted), %,d sessions of revision %s opened one after another "
                            + "from the runner over one keep-alive connection (`initialize`, then `notifications/initialized`; %.1f s), then "
                            + "the connection closed. Live heap: the bytes of the server's live objects (`jcmd <pid> GC.class_histogram`, "
                            + "which runs a full GC first; less the collector's filler arrays), before opening them and with them open and idle; then every session ended "
                            + "with a DELETE and the heap read again. Bytes per idle session = (with them - before) / sessions. The sessions "
                            + "are in the endpoint's in-memory store (`Mcp.maxSessions()` %s, idle expiry %s).%n%n", McpSuite.WARM_SESSIONS, r.sessions().opened(),
                    McpClient.SESSION_ERA, r.sessions().seconds(), c.get("maxSessions"), c.get("sessionIdle")))
                    .append(sessionsTable(r.sessions()));
        }
        if (r.aborted() != null) {
            McpSuite.Aborted a = r.aborted();
            b.append("\n### Aborted calls\n\n").append(String.format(Locale.ROOT, "%,d clients, at most %d at a time: each opens a "
                            + "connection, sends a stateless `tools/call` of the tool `%s` (a VIRTUAL route that sleeps %d ms) and closes "
                            + "the socket %d ms later, before the answer: every other one with a plain close (FIN), the rest with "
                            + "SO_LINGER 0 (RST). Then the server's TCP sockets by state (its descriptors' inodes in "
                            + "`/proc/<pid>/net/tcp` and `tcp6`), right after the last client and again %d s later. A socket the "
                            + "client closed and the server never did stays in CLOSE-WAIT. After the wait the server still answered a "
                            + "tool call: %s.%n%n", a.outcome().clients(), a.concurrency(), dev.tidemill.bench.targets.TidemillMcpApp.SLOW_TOOL,
                    dev.tidemill.bench.targets.TidemillMcpApp.SLOW_MILLIS, a.closeAfterMillis(), a.settleSeconds(),
                    a.answersAfter() ? "yes" : "NO")).append(abortedTable(a));
        }
        b.append("\n### Goals\n\n").append(AuthReport.goalLines(r.goals()));
        if (!r.failures().isEmpty()) {
            b.append("\n### Failures\n\n");
            r.failures().forEach(f -> b.append("- ").append(f).append('\n'));
        }
        b.append(AuthReport.hostTable(r.fingerprint()));
        return b.toString();
    }

    private static String fmt(String format, double v) {
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, format, v);
    }
}
