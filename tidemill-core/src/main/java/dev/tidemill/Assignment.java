package dev.tidemill;

/** How a request in {@link ExecutionMode#LOOP} picks its worker loop. */
public enum Assignment {
    /**
     * Smallest load (queued + in flight), scanned from a rotating start, stopping at the first idle
     * loop. A loop stuck in a CPU-bound handler cannot drain, so traffic routes around it. Default.
     */
    LEAST_LOADED,
    /** Next loop in turn, whatever its load. Exists so the benchmark can show what least-loaded is worth. */
    ROUND_ROBIN
}
