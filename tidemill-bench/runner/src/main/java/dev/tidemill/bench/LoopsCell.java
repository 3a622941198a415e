package dev.tidemill.bench;

import java.util.List;
import java.util.Map;

/**
 * One cell of the event-loop matrix: a row on an executor or against a server, in one pass.
 * Figures that were not measured are {@code NaN} (or -1 for the peak RSS).
 *
 * @param pass 1, or 2 for the rerun
 * @param row the row ({@link LoopsRow#id()})
 * @param column the executor or server
 * @param status {@link #OK}, {@link #NOT_AVAILABLE} or {@link #FAILED}
 * @param reason why it is n/a or failed (the server's or the JVM's own words where there are some), else empty
 * @param opsPerRun operations per run
 * @param warmupMs each uncounted run, milliseconds
 * @param runMs each timed run, milliseconds
 * @param medianMs the median of {@code runMs}
 * @param minMs the fastest timed run
 * @param maxMs the slowest timed run
 * @param cpuUsPerOp the measured process's utime + stime over the timed runs / their operations, microseconds
 *     (the server's for a network row, the micro JVM's own for a micro row)
 * @param peakRssKib VmHWM of that process at the end of the cell, KiB
 * @param voluntaryPerOp its voluntary context switches (a thread blocked or parked: wakeups) over the timed runs / operations
 * @param involuntaryPerOp its involuntary ones (the scheduler took the CPU) / operations
 * @param clientBusyPercent network rows: the load generator's CPUs' busy share over the timed runs
 * @param syscallsPerOp {@code --syscalls}: the server's system calls ({@code strace -c -f}) over one extra,
 *     untimed run / its operations
 * @param topSyscalls {@code --syscalls}: the most frequent calls of that run, with their counts
 * @param startup what the process said when it started (transport, threads, TLS engine)
 */
record LoopsCell(int pass, String row, String column, String status, String reason, long opsPerRun, List<Double> warmupMs,
                 List<Double> runMs, double medianMs, double minMs, double maxMs, double cpuUsPerOp, long peakRssKib,
                 double voluntaryPerOp, double involuntaryPerOp, double clientBusyPercent, double syscallsPerOp,
                 Map<String, Long> topSyscalls, List<String> startup) {
    /** Measured. */
    static final String OK = "ok";
    /** Cannot run here or is not served, with the reason. */
    static final String NOT_AVAILABLE = "n/a";
    /** Should have run and did not: wrong answers, a crash. Fails the suite. */
    static final String FAILED = "failed";

    /**
     * @return a cell without figures
     */
    static LoopsCell without(int pass, String row, String column, String status, String reason, List<String> startup) {
        return new LoopsCell(pass, row, column, status, reason, 0, List.of(), List.of(), Double.NaN, Double.NaN, Double.NaN, Double.NaN, -1,
                Double.NaN, Double.NaN, Double.NaN, Double.NaN, Map.of(), startup);
    }

    /**
     * @param runMs the timed runs
     * @return their median (the mean of the middle two for an even count)
     */
    static double median(List<Double> runMs) {
        if (runMs.isEmpty()) return Double.NaN;
        double[] s = runMs.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }

    /** @return whether it was measured */
    boolean ok() {
        return status.equals(OK);
    }

    /** @return operations per second at the median */
    double opsPerSecond() {
        return medianMs > 0 ? opsPerRun * 1000.0 / medianMs : Double.NaN;
    }
}
