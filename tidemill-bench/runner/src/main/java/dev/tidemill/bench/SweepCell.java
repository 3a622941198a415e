package dev.tidemill.bench;

import java.util.List;

/**
 * One cell of the handler-cost sweep: one handler, one execution mode, one worker count, measured
 * once by wrk on a freshly started Tidemill.
 *
 * @param handler the row label ({@code cost 0 us}, {@code block 2 ms}, {@code await 2 ms})
 * @param path the request path wrk sent
 * @param mode {@code loop}, {@code virtual} or {@code io}
 * @param workers worker loops (LOOP), virtual-thread carriers (VIRTUAL) or I/O threads (IO)
 * @param connections wrk connections
 * @param requests completed requests
 * @param seconds window length
 * @param requestsPerSec wrk's req/s
 * @param p50Us median latency, microseconds
 * @param p99Us 99th percentile latency, microseconds
 * @param socketErrors wrk socket errors
 * @param non2xx non-2xx/3xx answers
 * @param serverCpuUsPerRequest server process CPU (all threads) per request, microseconds
 * @param serverCpuPercent server CPU over the window, percent of one CPU
 * @param clientCpuPercent load generator CPUs' busy share, percent
 * @param clientBound whether the load generator was saturated
 * @param stealPercent hypervisor steal over the window, percent
 * @param idleBusyPercent how busy the server CPUs were just before the server started (other work)
 * @param loadPerCpu 1-minute load per CPU just before the server started
 * @param contended whether other work was on the server CPUs just before the start (idle busy above the preflight limit)
 * @param serverCommand the exact server command line (taskset included)
 * @param serverEnv the TIDEMILL_* variables it got
 * @param startupLines what the server printed at startup
 * @param wrkCommand the exact wrk command line
 * @param problems why the cell was not measured (empty when it was)
 */
public record SweepCell(String handler, String path, String mode, int workers, int connections, long requests,
                        double seconds, double requestsPerSec, double p50Us, double p99Us, long socketErrors,
                        long non2xx, double serverCpuUsPerRequest, double serverCpuPercent, double clientCpuPercent,
                        boolean clientBound, double stealPercent, double idleBusyPercent, double loadPerCpu,
                        boolean contended, List<String> serverCommand,
                        java.util.Map<String, String> serverEnv, List<String> startupLines, String wrkCommand,
                        List<String> problems) {

    /** @return whether wrk saw socket errors or non-2xx answers */
    public boolean hasErrors() {
        return socketErrors > 0 || non2xx > 0;
    }

    /** @return whether the cell produced a measurement */
    public boolean measured() {
        return problems.isEmpty();
    }

    /** @return the column label, e.g. {@code loop x2} */
    public String column() {
        return mode + " x" + workers;
    }

    /**
     * A cell that could not be measured (start failure, wrong answer, wrk failure).
     *
     * @param handler row label
     * @param path request path
     * @param mode mode
     * @param workers worker count
     * @param problems why
     * @return the cell, with NaN numbers
     */
    public static SweepCell failed(String handler, String path, String mode, int workers, List<String> problems) {
        return new SweepCell(handler, path, mode, workers, 0, 0, 0, Double.NaN, Double.NaN, Double.NaN, 0, 0,
                Double.NaN, Double.NaN, Double.NaN, false, Double.NaN, Double.NaN, Double.NaN, false, List.of(), java.util.Map.of(), List.of(), "",
                List.copyOf(problems));
    }
}
