package dev.tidemill.bench;

/**
 * A point of a target's warm-up curve, so a reader can see it had flattened before measuring.
 *
 * @param target target name
 * @param round round number
 * @param scenario the scenario run in this slice (warm-up alternates them)
 * @param atSeconds seconds since the warm-up started, at the slice's end
 * @param requestsPerSec req/s over the slice
 */
public record WarmupPoint(String target, int round, String scenario, double atSeconds, double requestsPerSec) {}
