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
 */
public record Result(String suite, String startedUtc, String finishedUtc, Map<String, Object> fingerprint,
                     List<Check> preflight, Map<String, Object> configuration, List<TargetRecord> targets,
                     List<WarmupPoint> warmup, List<Sample> samples, List<SummaryRow> summary, List<String> notMeasured) {}
