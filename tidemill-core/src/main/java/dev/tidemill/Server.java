package dev.tidemill;

import java.time.Duration;
import java.util.concurrent.CompletionStage;

/** A running server, returned by {@link Tidemill#start()}. */
public interface Server extends AutoCloseable {

    /** @return the bound port (useful with port 0) */
    int port();

    /**
     * @return the bound TLS port (useful with {@link Tls#port()} 0), when TLS is on
     *     ({@link Tls#enabled()}); empty otherwise
     */
    default java.util.OptionalInt tlsPort() {
        return java.util.OptionalInt.empty();
    }

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
     * Counters for diagnostics, tests and benchmarks, read at this moment (racy snapshots):
     * {@code requests.in_flight} (requests holding a concurrency slot, any mode),
     * {@code bodies.held_bytes} (bytes streamed request bodies hold between socket and handler),
     * {@code connections.open}, {@code worker.wakeups} (worker-loop unparks so far),
     * {@code reply.drains} (reply batches run on the event loops so far), {@code files.zero_copy}
     * and {@code files.read} (file bodies handed to the kernel whole, or read and written piece by
     * piece, so far) and
     * {@code loop.<i>.load} (queued + in flight on worker loop i). Keys and meanings may change
     * between versions; the metrics endpoint is the stable surface.
     *
     * @return counter name to value, in a stable order
     */
    java.util.Map<String, Long> diagnostics();

    /**
     * @return what transport and loop-count detection saw and decided, one line each; with TLS on,
     *     the TLS provider and why, the protocols, and each certificate's subject and SHA-256
     *     fingerprint
     */
    java.util.List<String> startupReport();

    /**
     * @return every route's execution mode now, in registration order: the mode it was given and,
     *     for {@link ExecutionMode#AUTO}, where its calls run at this moment and why
     */
    java.util.List<RouteMode> routeModes();

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
