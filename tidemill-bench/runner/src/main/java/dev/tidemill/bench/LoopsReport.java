package dev.tidemill.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Turns the event-loop matrix's cells into its tables: the matrix of medians (rows by columns, as
 * the reference lays it out), a detail table per row (min-max, operations per second, CPU per
 * operation, peak RSS, context switches and system calls per operation, the rerun's change), the
 * cells that are n/a and why, and last, the rule for Tidemill's {@code auto} transport that the
 * network rows support.
 */
final class LoopsReport {
    private LoopsReport() {}

    /**
     * The rerun of one cell.
     *
     * @param row the row
     * @param column the column
     * @param firstMs the first pass's median
     * @param secondMs the second's
     * @param changePercent (second - first) / first
     * @param flagged whether the change is past {@link LoopsSettings#RERUN_TOLERANCE_PERCENT}
     */
    record Rerun(String row, String column, double firstMs, double secondMs, double changePercent, boolean flagged) {}

    /**
     * @param cells every cell of both passes
     * @return per cell measured in both passes, how far the second median is from the first
     */
    static List<Rerun> reruns(List<LoopsCell> cells) {
        List<Rerun> out = new ArrayList<>();
        for (LoopsCell a : cells) {
            if (a.pass() != 1 || !a.ok()) continue;
            find(cells, 2, a.row(), a.column()).filter(LoopsCell::ok).ifPresent(b -> {
                double change = (b.medianMs() - a.medianMs()) / a.medianMs() * 100;
                out.add(new Rerun(a.row(), a.column(), a.medianMs(), b.medianMs(), change,
                        Math.abs(change) > LoopsSettings.RERUN_TOLERANCE_PERCENT));
            });
        }
        return out;
    }

    /**
     * Which transport wins the network rows for Tidemill: per row and per mode measured on more than
     * one transport (IO and LOOP), the transport with the lowest median; decisive when its slowest
     * run beats the runner-up's fastest.
     *
     * @param wins transport to (row, mode) pairs won
     * @param decisive transport to pairs won decisively
     * @param pairs the (row, mode) pairs compared
     * @param winners per pair ({@code row/mode}), the winner and its lead over the runner-up, percent
     * @param text the rule, one paragraph
     */
    record AutoRule(Map<String, Integer> wins, Map<String, Integer> decisive, int pairs, Map<String, String> winners, String text) {}

    /**
     * @param cells the first pass's network cells (others are ignored)
     * @param quick whether the run was quick (the rule is then printed, and marked as not to be followed)
     * @return the rule
     */
    static AutoRule autoRule(List<LoopsCell> cells, boolean quick) {
        Map<String, Integer> wins = new LinkedHashMap<>(), decisive = new LinkedHashMap<>();
        for (String t : List.of("epoll", "io_uring", "nio")) {
            wins.put(t, 0);
            decisive.put(t, 0);
        }
        Map<String, String> winners = new LinkedHashMap<>();
        int pairs = 0;
        for (LoopsRow row : LoopsRow.values()) {
            if (row.micro()) continue;
            for (String mode : List.of("io", "loop")) {
                List<LoopsCell> measured = cells.stream().filter(c -> c.pass() == 1 && c.ok() && c.row().equals(row.id())
                        && c.column().startsWith("tidemill-" + mode + "-")
                        // auto picks among epoll, io_uring and NIO; the buffer ring is asked for by name only
                        && !LoopsTargets.transport(c.column()).equals("io_uring_buffer_ring")).sorted(java.util.Comparator.comparingDouble(LoopsCell::medianMs)).toList();
                if (measured.size() < 2) continue;
                pairs++;
                LoopsCell best = measured.get(0), next = measured.get(1);
                String t = LoopsTargets.transport(best.column());
                wins.merge(t, 1, Integer::sum);
                boolean clear = best.maxMs() < next.minMs();
                if (clear) decisive.merge(t, 1, Integer::sum);
                winners.put(row.id() + "/" + mode, String.format(Locale.ROOT, "%s by %.1f %% over %s%s", t,
                        (next.medianMs() - best.medianMs()) / next.medianMs() * 100, LoopsTargets.transport(next.column()),
                        clear ? "" : " (within the spread)"));
            }
        }
        String top = wins.entrySet().stream().max(Map.Entry.comparingByValue()).map(Map.Entry::getKey).orElse("epoll");
        long tied = wins.values().stream().filter(v -> v.equals(wins.get(top))).count();
        StringBuilder b = new StringBuilder();
        if (pairs == 0) {
            b.append("No row was measured on two transports for Tidemill, so these rows support no rule for `auto`.");
        } else {
            b.append(String.format(Locale.ROOT, "Over %d network (row, mode) pairs measured on at least two transports, epoll wins %d "
                            + "(%d decisively), io_uring %d (%d), NIO %d (%d); decisively: the winner's slowest run beat the runner-up's fastest. ",
                    pairs, wins.get("epoll"), decisive.get("epoll"), wins.get("io_uring"), decisive.get("io_uring"), wins.get("nio"),
                    decisive.get("nio")));
            if (tied > 1) {
                b.append("No transport wins a majority outright, so the rows support keeping `auto` as it is (epoll where available, else NIO).");
            } else {
                b.append("Rule for `auto`: pick ").append(top.equals("nio") ? "NIO" : top).append(" where it is available");
                b.append(top.equals("epoll") ? ", else NIO (what `auto` does now)." : top.equals("io_uring")
                        ? ", else epoll, else NIO (a change: `auto` picks epoll now)." : " (a change: `auto` picks epoll now).");
                if (decisive.get(top) * 2 <= pairs) {
                    b.append(String.format(Locale.ROOT, " Only %d of the %d pairs are decisive for it; the spread covers the rest, so the rule "
                            + "is provisional until a run whose spreads separate the transports confirms it.", decisive.get(top), pairs));
                }
            }
        }
        if (quick) b.append(" This is a quick run: short windows and reduced counts; do not change `auto` on its word.");
        return new AutoRule(wins, decisive, pairs, winners, b.toString());
    }

    /**
     * @param cells every cell
     * @param micro whether to lay out the micro rows (else the network rows)
     * @param columns the columns, in order
     * @param quick whether the counts are the quick ones
     * @return the matrix of first-pass medians: milliseconds per run with min-max, n/a, failed
     */
    static String matrix(List<LoopsCell> cells, boolean micro, List<String> columns, boolean quick) {
        List<LoopsRow> rows = java.util.Arrays.stream(LoopsRow.values()).filter(r -> r.micro() == micro
                && cells.stream().anyMatch(c -> c.row().equals(r.id()))).toList();
        List<String> cols = columns.stream().filter(col -> cells.stream().anyMatch(c -> c.column().equals(col))).toList();
        if (rows.isEmpty() || cols.isEmpty()) return "";
        List<Rerun> reruns = reruns(cells);
        StringBuilder b = new StringBuilder("| workload |");
        cols.forEach(c -> b.append(' ').append(c).append(" |"));
        b.append("\n|---|").append("---:|".repeat(cols.size())).append('\n');
        for (LoopsRow r : rows) {
            b.append("| ").append(r.title(quick)).append(" |");
            for (String col : cols) {
                Optional<LoopsCell> c = find(cells, 1, r.id(), col);
                String flag = reruns.stream().anyMatch(x -> x.row().equals(r.id()) && x.column().equals(col) && x.flagged()) ? " (rerun!)" : "";
                b.append(' ').append(c.map(LoopsReport::matrixCell).orElse("-")).append(flag).append(" |");
            }
            b.append('\n');
        }
        return b.toString();
    }

    /** @return a cell as the matrix shows it */
    private static String matrixCell(LoopsCell c) {
        if (!c.ok()) return c.status();
        return String.format(Locale.ROOT, "%s (%s-%s)", ms(c.medianMs()), ms(c.minMs()), ms(c.maxMs()));
    }

    /**
     * @param cells every cell
     * @param row the row
     * @param columns the columns, in order
     * @param syscalls whether system calls were counted
     * @return one row's detail table, a line per column measured or n/a
     */
    static String detail(List<LoopsCell> cells, LoopsRow row, List<String> columns, boolean syscalls) {
        List<Rerun> reruns = reruns(cells);
        StringBuilder b = new StringBuilder("| column | median ms | min-max ms | ops/s | CPU us/op | peak RSS MiB | voluntary cs/op | "
                + "involuntary cs/op |" + (syscalls ? " syscalls/op | most frequent |" : "") + " rerun |\n|---|---:|---:|---:|---:|---:|---:|---:|"
                + (syscalls ? "---:|---|" : "") + "---:|\n");
        for (String col : columns) {
            Optional<LoopsCell> found = find(cells, 1, row.id(), col);
            if (found.isEmpty()) continue;
            LoopsCell c = found.get();
            if (!c.ok()) {
                b.append("| ").append(col).append(" | ").append(c.status()).append(" | ").append(c.reason().replace("|", "\\|"))
                        .append(" |").append(" |".repeat(syscalls ? 8 : 6)).append('\n');
                continue;
            }
            String rerun = reruns.stream().filter(x -> x.row().equals(row.id()) && x.column().equals(col)).findFirst()
                    .map(x -> String.format(Locale.ROOT, "%+.1f %%%s", x.changePercent(), x.flagged() ? " (flagged)" : "")).orElse("-");
            b.append(String.format(Locale.ROOT, "| %s | %s | %s-%s | %,.0f | %.2f | %.1f | %.3f | %.3f |", col, ms(c.medianMs()), ms(c.minMs()),
                    ms(c.maxMs()), c.opsPerSecond(), c.cpuUsPerOp(), c.peakRssKib() / 1024.0, c.voluntaryPerOp(), c.involuntaryPerOp()));
            if (syscalls) {
                b.append(Double.isNaN(c.syscallsPerOp()) ? " - | - |" : String.format(Locale.ROOT, " %.2f | %s |", c.syscallsPerOp(),
                        String.join(", ", c.topSyscalls().entrySet().stream().map(e -> e.getKey() + " " + e.getValue()).toList())));
            }
            b.append(' ').append(rerun).append(" |\n");
        }
        return b.toString();
    }

    /** @return a duration in milliseconds, to three significant figures or whole milliseconds */
    static String ms(double v) {
        if (Double.isNaN(v)) return "-";
        return v >= 100 ? String.format(Locale.ROOT, "%,.0f", v) : v >= 10 ? String.format(Locale.ROOT, "%.1f", v)
                : String.format(Locale.ROOT, "%.2f", v);
    }

    /** @return the cell of that pass, row and column */
    static Optional<LoopsCell> find(List<LoopsCell> cells, int pass, String row, String column) {
        return cells.stream().filter(c -> c.pass() == pass && c.row().equals(row) && c.column().equals(column)).findFirst();
    }

    /**
     * @param cells every cell
     * @return the first pass's cells that are n/a or failed, one line each: {@code row / column: status, reason}
     */
    static List<String> notMeasured(List<LoopsCell> cells) {
        return cells.stream().filter(c -> c.pass() == 1 && !c.ok())
                .map(c -> c.row() + " / " + c.column() + ": " + c.status() + ", " + c.reason()).toList();
    }
}
