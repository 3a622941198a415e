package dev.tidemill.bench;

/**
 * One measurement window: one target, one round, one scenario, one attempt.
 *
 * @param target target name
 * @param round round number (1-based)
 * @param scenario scenario id
 * @param attempt 1, or 2-3 when repeated for steal
 * @param discarded whether a later attempt replaced it (kept for the record)
 * @param discardReason why it was discarded, or empty
 * @param connections connections used
 * @param requests completed requests
 * @param seconds window length
 * @param requestsPerSec wrk's req/s
 * @param p50Us median latency, microseconds
 * @param p99Us 99th percentile latency, microseconds
 * @param socketErrors wrk socket errors
 * @param non2xx non-2xx/3xx answers
 * @param serverCpuUsPerRequest server process CPU (all threads, user + system) per request, microseconds
 * @param serverCpuPercent server CPU time over the window, percent of one CPU
 * @param clientCpuPercent load generator CPUs' busy share over the window, percent
 * @param clientBound whether the load generator's CPUs were saturated (>= 90 %)
 * @param stealPercent hypervisor steal over the window, percent of all CPU time
 * @param loadPerCpuBefore 1-minute load per CPU before the window
 * @param loadPerCpuAfter 1-minute load per CPU after the window
 * @param untrustworthy whether load per CPU was above 1.0 when the target started
 * @param command the exact wrk command line
 * @param voluntarySwitchesPerRequest voluntary context switches of the server's threads over the
 *     window ({@link ContextSwitches}) per request; null when not read
 * @param involuntarySwitchesPerRequest involuntary ones, likewise
 * @param wakeupsPerRequest Tidemill's worker-loop wakeups per request ({@code worker.wakeups} of
 *     {@code Server.diagnostics()}); null for other targets
 * @param drainsPerRequest Tidemill's reply drains per request ({@code reply.drains}); null for other targets
 * @param bytesPerResponse bytes wrk read per response (head and body as on the wire); null where the
 *     scenario's script does not report them
 */
public record Sample(String target, int round, String scenario, int attempt, boolean discarded, String discardReason,
                     int connections, long requests, double seconds, double requestsPerSec, double p50Us, double p99Us,
                     long socketErrors, long non2xx, double serverCpuUsPerRequest, double serverCpuPercent,
                     double clientCpuPercent, boolean clientBound, double stealPercent, double loadPerCpuBefore,
                     double loadPerCpuAfter, boolean untrustworthy, String command,
                     Double voluntarySwitchesPerRequest, Double involuntarySwitchesPerRequest, Double wakeupsPerRequest,
                     Double drainsPerRequest, Double bytesPerResponse) {

    /** @return whether errors or non-2xx answers disqualify it from ratios */
    public boolean hasErrors() {
        return socketErrors > 0 || non2xx > 0;
    }

    /** @param reason why @return a copy marked discarded */
    public Sample discard(String reason) {
        return new Sample(target, round, scenario, attempt, true, reason, connections, requests, seconds, requestsPerSec,
                p50Us, p99Us, socketErrors, non2xx, serverCpuUsPerRequest, serverCpuPercent, clientCpuPercent,
                clientBound, stealPercent, loadPerCpuBefore, loadPerCpuAfter, untrustworthy, command,
                voluntarySwitchesPerRequest, involuntarySwitchesPerRequest, wakeupsPerRequest, drainsPerRequest,
                bytesPerResponse);
    }
}
