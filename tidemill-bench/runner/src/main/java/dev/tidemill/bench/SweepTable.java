package dev.tidemill.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The sweep as Markdown: a grid (rows = handler, columns = mode x workers, each cell "req/s / p99")
 * and a detail table with every number of every cell. Rows and columns keep the order in which
 * the cells were measured.
 */
public final class SweepTable {
    private SweepTable() {}

    /**
     * @param cells the sweep's cells
     * @return the grid, the legend and the detail table
     */
    public static String of(List<SweepCell> cells) {
        Set<String> rows = new LinkedHashSet<>();
        Set<String> columns = new LinkedHashSet<>();
        Map<String, SweepCell> at = new LinkedHashMap<>();
        for (SweepCell c : cells) {
            rows.add(c.handler());
            columns.add(c.column());
            at.put(c.handler() + "\u0000" + c.column(), c);
        }
        StringBuilder b = new StringBuilder();
        b.append("| handler |");
        for (String col : columns) b.append(' ').append(col).append(" |");
        b.append("\n|---|");
        b.append("---:|".repeat(columns.size()));
        b.append('\n');
        for (String row : rows) {
            b.append("| ").append(row).append(" |");
            for (String col : columns) b.append(' ').append(grid(at.get(row + "\u0000" + col))).append(" |");
            b.append('\n');
        }
        b.append("\nEach cell: req/s / p99 latency, one wrk window on a freshly started server. Workers are worker loops ")
                .append("(loop), virtual-thread carrier threads (virtual) or I/O threads (io). `!` marks socket errors or ")
                .append("non-2xx answers, `cb` a client-bound window (the load generator was saturated), `?` a window with other work on ")
                .append("the machine (server CPUs more than 10 % busy just before the start: do not trust it), `-` a cell not measured.\n\n");
        b.append("| handler | mode | workers | req/s | p50 | p99 | server CPU us/req | server CPU % | wrk CPU % | errors | non-2xx | notes |\n");
        b.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
        for (SweepCell c : cells) {
            b.append("| ").append(c.handler()).append(" | ").append(c.mode()).append(" | ").append(c.workers())
                    .append(" | ").append(number(c.requestsPerSec(), "%,.0f"))
                    .append(" | ").append(Suite.latency(c.p50Us()))
                    .append(" | ").append(Suite.latency(c.p99Us()))
                    .append(" | ").append(number(c.serverCpuUsPerRequest(), "%.1f"))
                    .append(" | ").append(number(c.serverCpuPercent(), "%.0f"))
                    .append(" | ").append(number(c.clientCpuPercent(), "%.0f"))
                    .append(" | ").append(c.socketErrors()).append(" | ").append(c.non2xx())
                    .append(" | ").append(String.join("; ", notes(c))).append(" |\n");
        }
        return b.toString();
    }

    static String grid(SweepCell c) {
        if (c == null || !c.measured()) return "-";
        String s = number(c.requestsPerSec(), "%,.0f") + " / " + Suite.latency(c.p99Us());
        if (c.hasErrors()) s += " !";
        if (c.clientBound()) s += " cb";
        if (c.contended()) s += " ?";
        return s;
    }

    private static List<String> notes(SweepCell c) {
        List<String> n = new ArrayList<>(c.problems());
        if (c.hasErrors()) n.add("errors: excluded from comparisons");
        if (c.clientBound()) n.add("client-bound");
        if (c.contended()) {
            n.add(String.format(Locale.ROOT, "contended: server CPUs %.0f %% busy before start, load %.2f/CPU",
                    c.idleBusyPercent(), c.loadPerCpu()));
        }
        if (c.measured() && c.stealPercent() > Preflight.MAX_STEAL_PERCENT) {
            n.add(String.format(Locale.ROOT, "steal %.2f %%", c.stealPercent()));
        }
        return n;
    }

    private static String number(double v, String format) {
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, format, v);
    }
}
