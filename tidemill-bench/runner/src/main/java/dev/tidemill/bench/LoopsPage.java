package dev.tidemill.bench;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The Markdown page of an event-loop matrix run: what was run and how, the machine, the two
 * matrices, a detail table per row, what is n/a and why, and last the rule for Tidemill's
 * {@code auto} transport (so the section of docs/performance.md that {@code bench report} builds
 * from it ends with the rule).
 */
final class LoopsPage {
    private LoopsPage() {}

    /**
     * @param r the result
     * @return the page
     */
    static String of(LoopsSuite.Result r) {
        StringBuilder b = new StringBuilder("# Tidemill bench, " + r.suite() + " suite, " + r.startedUtc() + "\n\n");
        if (r.quick()) b.append("A quick run: counts divided by ").append(LoopsRow.QUICK_DIVISOR).append(", fewer runs and columns. It checks that "
                + "every row kind runs; do not quote its figures.\n\n");
        Map<String, Object> c = r.configuration();
        boolean preflightFailed = r.preflight().stream().anyMatch(Check::failed);
        b.append("## Method\n\n")
                .append("- Rows after the reference event-loop matrix (rsloop's): callbacks and tasks on executors, then TCP round trips, "
                        + "HTTP/1.1 keep-alive, HTTP over TLS, WebSocket echo plain and over TLS, and short connections against servers.\n")
                .append("- Micro rows: a fresh JVM per row and executor, pinned to the server CPUs (").append(c.get("serverCpus"))
                .append("), each run on a fresh executor of one thread; the callbacks are scheduled from the loop in one batch, the tasks "
                        + "from outside in batches of ").append(String.format(Locale.ROOT, "%,d", (Integer) c.get("taskBatch")))
                .append(", each hopping to the executor once more before it completes. CPU, context switches and VmHWM are the JVM's own.\n")
                .append("- Network rows: a server process per row and column, pinned to CPU(s) ").append(c.get("serverCpus"))
                .append("; the client (this JVM) on ").append(c.get("clientCpus")).append(": ").append(c.get("client"))
                .append(". Every answer is checked; a cell is checked with a small run before it is timed. The time runs from the "
                        + "first connect to the last close (handshakes included). WebSocket messages cycle through ").append(c.get("wsSizes"))
                .append(" bytes.\n")
                .append("- Per cell: ").append(c.get("primeSeconds")).append(" s of unrecorded load (network rows: the JVM compiles as it "
                        + "goes), ").append(c.get("warmups")).append(" warm-up run(s), then the median of ").append(c.get("runs"))
                .append(" timed runs with min-max. CPU per operation: utime + stime of the process over the timed runs / their "
                        + "operations; context switches per operation: `voluntary_ctxt_switches` (a thread blocked or parked: wakeups) and "
                        + "`nonvoluntary_ctxt_switches` summed over `/proc/<pid>/task/*/status` over the same runs; peak RSS: VmHWM of "
                        + "`/proc/<pid>/status` at the end of the cell. System calls: ").append(c.get("syscalls")).append(".\n")
                .append("- ").append(r.reruns().isEmpty() ? "No rerun in this run (`--rerun`; the full form always reruns)."
                        : "Rerun: every cell measured again after the whole first pass, in a new process; a median more than "
                        + c.get("rerunTolerancePercent") + " % away from the first is flagged. The tables show the first pass.").append('\n')
                .append("- Threads: ").append(c.get("threads")).append(". JVM flags for every JVM: `").append(c.get("jvmFlags")).append("`.\n")
                .append(String.format(Locale.ROOT, "- Planned %d min, took %d min. Preflight %s.%n%n", r.plannedSeconds() / 60, r.elapsedSeconds() / 60,
                        preflightFailed ? "failed (" + String.join("; ", r.preflight().stream().filter(Check::failed)
                                .map(x -> x.name() + ": " + x.reading()).toList()) + "): read the figures with that in mind" : "passed"));
        b.append("Columns:\n\n");
        @SuppressWarnings("unchecked")
        Map<String, String> servers = (Map<String, String>) c.get("servers");
        servers.forEach((k, v) -> b.append("- `").append(k).append("`: ").append(v).append('\n'));
        b.append("- micro rows: ").append(String.join(", ", castList(c.get("executors")))).append(" (Tidemill's `WorkerLoop`, one slot reserved "
                + "and released per task as the dispatcher does; Netty's `MultiThreadIoEventLoopGroup(1, ...)`; `new ForkJoinPool(1)`, "
                + "`Executors.newVirtualThreadPerTaskExecutor()`, `Executors.newSingleThreadExecutor()`)\n\n");
        b.append("## Micro rows: milliseconds per run, median (min-max)\n\n")
                .append(LoopsReport.matrix(r.cells(), true, castList(c.get("executors")), r.quick())).append('\n');
        b.append("## Network rows: milliseconds per run, median (min-max)\n\n")
                .append(LoopsReport.matrix(r.cells(), false, List.copyOf(servers.keySet()), r.quick())).append('\n');
        boolean syscalls = r.cells().stream().anyMatch(x -> !Double.isNaN(x.syscallsPerOp()));
        for (LoopsRow row : LoopsRow.values()) {
            if (r.cells().stream().noneMatch(x -> x.row().equals(row.id()))) continue;
            List<String> cols = row.micro() ? castList(c.get("executors")) : List.copyOf(servers.keySet());
            b.append("### ").append(row.title(r.quick())).append("\n\n").append(LoopsReport.detail(r.cells(), row, cols, syscalls)).append('\n');
        }
        List<LoopsReport.Rerun> flagged = r.reruns().stream().filter(LoopsReport.Rerun::flagged).toList();
        if (!r.reruns().isEmpty()) {
            b.append("## Rerun\n\n").append(r.reruns().size() - flagged.size()).append(" of ").append(r.reruns().size())
                    .append(" medians reproduced within ").append(c.get("rerunTolerancePercent")).append(" %");
            b.append(flagged.isEmpty() ? ".\n\n" : "; flagged: " + String.join(", ", flagged.stream().map(x -> String.format(Locale.ROOT,
                    "%s / %s %+.1f %%", x.row(), x.column(), x.changePercent())).toList()) + ".\n\n");
        }
        if (!r.notMeasured().isEmpty()) {
            b.append("## Not available\n\n");
            r.notMeasured().forEach(n -> b.append("- ").append(n).append('\n'));
            b.append('\n');
        }
        if (!r.failures().isEmpty()) {
            b.append("## Failures\n\n");
            r.failures().forEach(f -> b.append("- ").append(f).append('\n'));
            b.append('\n');
        }
        b.append("## The rule for `auto`\n\n");
        r.autoRule().winners().forEach((k, v) -> b.append("- ").append(k).append(": ").append(v).append('\n'));
        b.append('\n').append(r.autoRule().text()).append('\n');
        return b.toString();
    }

    @SuppressWarnings("unchecked")
    private static List<String> castList(Object o) {
        return (List<String>) o;
    }
}
