package dev.tidemill.bench;

import java.util.List;
import java.util.Map;

/**
 * Everything one suite run produced, as written to {@code bench/results/<UTC>-<suite>.json}.
 *
 * @param suite {@code quick} or {@code full}
 * @param startedUtc when it started (ISO-8601, UTC)
 * @param finishedUtc when it finished
 * @param fingerprint the host and software
 * @param preflight the checks before measuring
 * @param configuration options, CPU sets, flags and wrk settings
 * @param targets how every target was started and verified, per round
 * @param warmup every target's warm-up curve
 * @param samples every raw sample, discarded ones included
 * @param summary medians and ratios
 * @param notMeasured what this suite does not measure yet
 * @param segments the invocations that measured it: one, or more when a run was resumed
 *     ({@code --resume}); each holds whole rounds, so every ratio still compares targets measured
 *     in one invocation
 */
public record Result(String suite, String startedUtc, String finishedUtc, Map<String, Object> fingerprint,
                     List<Check> preflight, Map<String, Object> configuration, List<TargetRecord> targets,
                     List<WarmupPoint> warmup, List<Sample> samples, List<SummaryRow> summary, List<String> notMeasured,
                     List<Segment> segments) {

    /**
     * One invocation of the suite.
     *
     * @param startedUtc when it started
     * @param finishedUtc when it stopped (or its last checkpoint)
     * @param rounds the rounds it completed
     * @param fingerprint the host and software it saw
     * @param preflight its checks
     */
    public record Segment(String startedUtc, String finishedUtc, List<Integer> rounds, Map<String, Object> fingerprint,
                          List<Check> preflight) {}
}
