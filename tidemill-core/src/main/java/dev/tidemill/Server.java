package dev.tidemill;

import java.time.Duration;
import java.util.concurrent.CompletionStage;

/** A running server, returned by {@link Tidemill#start()}. */
public interface Server extends AutoCloseable {

    /** @return the bound port (useful with port 0) */
    int port();

    /** @return the bound host */
    String host();

    /** @return the transport in use (never {@link Transport#AUTO}) */
    Transport transport();

    /** @return worker loops running */
    int workerLoops();

    /**
     * @return connections open right now, idle keep-alive ones included (a socket parked at the
     *     connection limit counts once it is admitted); for health checks, metrics and tests
     */
    int openConnections();

    /**
     * Diagnostic counters; keys and meaning may change. Today {@code worker.wakeups} (unparks of a
     * worker loop issued so far, all loops: at most one per burst of tasks) and {@code reply.drains}
     * (reply drain tasks run on the event loops so far, empty ones included). Both count from start
     * and only grow, so a caller reads them before and after a window and divides by its requests.
     *
     * @return counter name to value, a snapshot taken now
     */
    java.util.Map<String, Long> diagnostics();

    /** @return what transport and loop-count detection saw and decided, one line each */
    java.util.List<String> startupReport();

    /**
     * Graceful stop: stop accepting, close idle keep-alive connections, let in-flight requests finish
     * up to {@code grace}, then close the rest. Returns when everything is closed.
     *
     * @param grace how long in-flight requests may still run
     */
    void stop(Duration grace);

    /** Cuts a running graceful stop short: in-flight requests are abandoned now. */
    void stopNow();

    /** @return completes when the server has fully stopped */
    CompletionStage<Void> terminated();

    /** Stops with the configured {@link Timeouts#shutdownGrace()}. */
    @Override
    void close();
}
