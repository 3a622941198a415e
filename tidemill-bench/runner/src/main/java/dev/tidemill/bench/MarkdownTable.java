package dev.tidemill.bench;

import java.util.List;
import java.util.Locale;

/** The summary as a Markdown table: one row per scenario and target. */
public final class MarkdownTable {
    private MarkdownTable() {}

    /**
     * @param rows the summary
     * @return the table, with a line saying which figure ratios come from
     */
    public static String of(List<SummaryRow> rows) {
        StringBuilder b = new StringBuilder();
        boolean bytes = rows.stream().anyMatch(r -> r.bytesPerResponse() != null);
        b.append("| scenario | target | req/s (median) | p50 | p99 | server CPU us/req | ctx switches/req vol | invol | wakeups/req | drains/req | errors | non-2xx | ratio to baseline | ratio basis |")
                .append(bytes ? " bytes/response |" : "").append(" notes |\n");
        b.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|").append(bytes ? "---:|" : "").append("---|\n");
        for (SummaryRow r : rows.stream().sorted((x, y) -> x.scenario().compareTo(y.scenario())).toList()) {
            b.append("| ").append(r.scenario()).append(" | ").append(r.target())
                    .append(" | ").append(String.format(Locale.ROOT, "%,.0f", r.medianRps()))
                    .append(" | ").append(Suite.latency(r.medianP50Us()))
                    .append(" | ").append(Suite.latency(r.medianP99Us()))
                    .append(" | ").append(String.format(Locale.ROOT, "%.1f", r.cpuUsPerRequest()))
                    .append(" | ").append(Suite.perRequest(r.voluntarySwitchesPerRequest()))
                    .append(" | ").append(Suite.perRequest(r.involuntarySwitchesPerRequest()))
                    .append(" | ").append(Suite.perRequest(r.wakeupsPerRequest()))
                    .append(" | ").append(Suite.perRequest(r.drainsPerRequest()))
                    .append(" | ").append(r.socketErrors()).append(" | ").append(r.non2xx())
                    .append(" | ").append(r.ratio() == null ? "-" : String.format(Locale.ROOT, "%.2fx", r.ratio()))
                    .append(" | ").append(r.ratio() == null ? "-" : r.ratioBasis());
            if (bytes) b.append(" | ").append(r.bytesPerResponse() == null ? "-" : String.format(Locale.ROOT, "%,.0f", r.bytesPerResponse()));
            b.append(" | ").append(String.join("; ", r.warnings())).append(" |\n");
        }
        b.append("\nRatios: median over rounds of target / baseline measured in the same round. Basis `req/s` is ")
                .append("throughput; `server CPU/request` (baseline CPU per request / target's) is used when a round was ")
                .append("client-bound, because then req/s measures wrk rather than the server. Context switches: voluntary and ")
                .append("involuntary, summed over the server's threads (`/proc/<pid>/task/*/status`) over the window, per ")
                .append("request; wakeups and drains: Tidemill's `worker.wakeups` and `reply.drains` diagnostics over the ")
                .append("window, per request (`-` for other targets).")
                .append(bytes ? " Bytes/response: every byte wrk read (heads and bodies as on the wire) / responses." : "")
                .append('\n');
        return b.toString();
    }
}
