package dev.tidemill;

/**
 * Where a handler runs. Chosen per app ({@link Config#executionMode()}), overridable per route group
 * and per route.
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
    VIRTUAL
}
