package dev.tidemill;

import java.util.Map;

/**
 * An app served without a socket, returned by {@link Tidemill#inMemory()}: each
 * {@link #connect()} builds the real HTTP/1.1 connection pipeline (head validation, decoder,
 * routing, limits, dispatch, the reply writer) on an in-memory channel instead of a TCP socket.
 * Handlers run in their execution modes as on a socket: {@link ExecutionMode#IO} on the server's
 * one event loop, {@link ExecutionMode#LOOP} on the worker loops, {@link ExecutionMode#VIRTUAL}
 * on virtual threads; replies arrive asynchronously and are read with
 * {@link InMemoryConnection#read}.
 *
 * <p>For fast tests of handlers; {@code tidemill-testing}'s {@code TestClient.inMemory(app)}
 * puts its request builder and response parser on top. Not carried in memory: WebSocket
 * connections (their frames run on the socket's event loop), the connection limit and the
 * lingering close (there is no TCP to protect).
 */
public interface InMemoryServer extends AutoCloseable {

    /**
     * Opens a connection, as a client's connect would.
     *
     * @return the connection, active (its idle timeout runs from now)
     * @throws IllegalStateException once {@link #close()} was called
     */
    InMemoryConnection connect();

    /** @return connections open right now, idle keep-alive ones included */
    int openConnections();

    /**
     * @return counters as {@link Server#diagnostics()} has them ({@code requests.in_flight},
     *     {@code worker.wakeups}, {@code connections.open}, ...), read at this moment
     */
    Map<String, Long> diagnostics();

    /**
     * Stops: connections get the graceful stop a socket server's connections get (idle ones close,
     * in-flight requests are answered with {@code Connection: close}) for up to
     * {@link Timeouts#shutdownGrace()}, then the rest are closed and the worker loops stopped.
     * Idempotent.
     */
    @Override
    void close();
}
