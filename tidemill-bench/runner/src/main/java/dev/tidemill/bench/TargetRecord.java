package dev.tidemill.bench;

import java.util.List;

/**
 * How a target was started in one round, and whether it answered right.
 *
 * @param target target name
 * @param round round number
 * @param command the exact command line
 * @param env the environment it was given
 * @param startup its first output lines (transport, loops)
 * @param idleBusyPercent server CPUs' busy share just before it started
 * @param loadPerCpuAtStart 1-minute load per CPU when it started
 * @param verification what differed from the expected answers (empty: all right)
 * @param encodings per path, what the target answered to a browser's {@code Accept-Encoding}
 *     ({@code "/page: br, 1,335 bytes"}); empty when no scenario of the run sends it
 */
public record TargetRecord(String target, int round, List<String> command, java.util.Map<String, String> env,
                           List<String> startup, double idleBusyPercent, double loadPerCpuAtStart,
                           List<String> verification, List<String> encodings) {}
