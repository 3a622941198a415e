package dev.tidemill.bench;

import java.util.List;

/**
 * One target in one scenario, over the rounds.
 *
 * @param target target name
 * @param scenario scenario id
 * @param rounds rounds that produced a kept sample
 * @param medianRps median req/s
 * @param medianP50Us median of the p50 latencies, microseconds
 * @param medianP99Us median of the p99 latencies, microseconds
 * @param socketErrors socket errors summed over the kept samples
 * @param non2xx non-2xx answers summed over the kept samples
 * @param cpuUsPerRequest median server CPU microseconds per request
 * @param rpsRatio median of the per-round req/s ratios to the baseline (null: none computed)
 * @param cpuRatio median of the per-round ratios baseline CPU/request over this target's (> 1: cheaper than the baseline)
 * @param ratioBasis which of the two the headline {@code ratio} is: {@code req/s}, or {@code server CPU/request} when a round was client-bound
 * @param ratio the headline ratio (null when errors or no baseline)
 * @param clientBound whether any kept round was client-bound
 * @param maxStealPercent largest steal seen in a kept window
 * @param warnings what a reader must know about this number
 * @param voluntarySwitchesPerRequest median voluntary context switches of the server per request (null: not read)
 * @param involuntarySwitchesPerRequest median involuntary ones
 * @param wakeupsPerRequest median Tidemill worker-loop wakeups per request (null: not a Tidemill target)
 * @param drainsPerRequest median Tidemill reply drains per request (null: not a Tidemill target)
 * @param bytesPerResponse median bytes read per response, head and body as on the wire (null: not reported)
 */
public record SummaryRow(String target, String scenario, int rounds, double medianRps, double medianP50Us,
                         double medianP99Us, long socketErrors, long non2xx, double cpuUsPerRequest, Double rpsRatio,
                         Double cpuRatio, String ratioBasis, Double ratio, boolean clientBound, double maxStealPercent,
                         List<String> warnings, Double voluntarySwitchesPerRequest,
                         Double involuntarySwitchesPerRequest, Double wakeupsPerRequest, Double drainsPerRequest,
                         Double bytesPerResponse) {}
