package dev.tidemill;

/**
 * Where a handler runs. Chosen per app ({@link Config#executionMode()}), overridable per route group
 * and per route; an explicit mode always wins over {@link #AUTO}.
 */
public enum ExecutionMode {
    /** Inline on the connection's Netty event loop. Only for trivial handlers that never block. */
    IO,
    /**
     * On one of N worker loops (platform threads), chosen least-loaded, fed by a lock-free bounded
     * queue. The default: CPU-bound handlers cannot stall I/O, and a stuck loop is routed around.
     */
    LOOP,
    /** On a new virtual thread per request: blocking calls (JDBC, sleep, HTTP clients) are fine. */
    VIRTUAL,
    /**
     * Chosen by the server from what the handler does, and changed while it runs: the route starts
     * on {@link #VIRTUAL} (safe whatever the handler does), and the server times a sample of its
     * calls (the handler's CPU time and wall time until it returns; for a {@code CompletionStage},
     * until the stage is returned, not until it completes). A handler that waits (a call whose wall
     * time exceeds its CPU time by 1 ms or more) runs on {@link #VIRTUAL}; one that computes, on
     * {@link #LOOP}; one that, over 10,000 calls in a row, never waited and never took 20 us of CPU,
     * on {@link #IO}, until its first stall. Each move back off {@link #IO} doubles the calls the
     * next promotion needs, and each failed try of a worker loop doubles the calls to the next try,
     * so a route does not flap. {@link Server#routeModes()}, the {@code routes} command, the startup
     * report and {@code /metrics} ({@code tidemill.route.mode}) say where each route runs and why.
     * docs/execution-modes.md gives the rules and the measurements their thresholds come from.
     */
    AUTO
}
