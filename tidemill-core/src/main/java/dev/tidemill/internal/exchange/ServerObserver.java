package dev.tidemill.internal.exchange;

import dev.tidemill.Route;
import dev.tidemill.internal.dispatch.WorkerLoop;
import io.netty.channel.EventLoopGroup;
import java.util.function.IntSupplier;

/**
 * Whoever watches a server's exchanges (metrics, the access log: {@code internal.ops}). Asked once
 * per route at start for that route's {@link RouteObserver}, so the request path holds a resolved
 * observer in its {@link Endpoint} and looks nothing up; told of sheds, timeouts and queue waits
 * where they happen. {@link #NONE} watches nothing and costs a null check per request.
 */
public interface ServerObserver {

    /** Watches nothing. */
    ServerObserver NONE = new ServerObserver() { };

    /** @param route a route @return its observer, or null when it is not watched (an operational route, or nothing on) */
    default RouteObserver route(Route route) {
        return null;
    }

    /** @return the observer of requests no route matched (404, 405, a refused head), or null */
    default RouteObserver unmatched() {
        return null;
    }

    /** @return whether exchanges are timed: LOOP handlers read the clock as they start ({@link #queueWait}) */
    default boolean timed() {
        return false;
    }

    /** The concurrency limit refused a request (a 503 follows). */
    default void shed() { }

    /** A handler did not answer within its request timeout (a 504 follows). */
    default void timedOut() { }

    /**
     * @param loop the worker loop that ran the exchange
     * @param nanos from the read that brought the request to the start of its handler; only called when
     *     {@link #timed()}, for one LOOP request in 8
     */
    default void queueWait(WorkerLoop loop, long nanos) { }

    /**
     * The server is up: what the observer watches beyond exchanges.
     *
     * @param io the I/O event loops
     * @param context the exchanges' shared state (worker loops, draining flag)
     * @param openConnections connections open now
     */
    default void started(EventLoopGroup io, ExchangeContext context, IntSupplier openConnections) { }

    /** The server has stopped. */
    default void stopped() { }
}
