package dev.tidemill.bench;

import java.util.List;
import java.util.Map;

/**
 * Everything one handler-cost sweep produced, as written to
 * {@code bench/results/<UTC>-sweep.json} (or {@code -sweep-quick.json}).
 *
 * @param suite {@code sweep} or {@code sweep-quick}
 * @param startedUtc when it started (ISO-8601, UTC)
 * @param finishedUtc when it finished
 * @param fingerprint the host and software
 * @param preflight the checks before measuring
 * @param configuration costs, ladder, modes, windows, CPU sets, flags
 * @param cells every cell, in the order measured
 */
public record SweepResult(String suite, String startedUtc, String finishedUtc, Map<String, Object> fingerprint,
                          List<Check> preflight, Map<String, Object> configuration, List<SweepCell> cells) {}
