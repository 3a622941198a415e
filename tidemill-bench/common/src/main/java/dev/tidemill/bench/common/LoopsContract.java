package dev.tidemill.bench.common;

/**
 * What every server of the event-loop matrix ({@code ./tidemill bench loops}) serves, and how a
 * peer's {@code LoopsMain} is started. Arguments {@code <port> <tlsPort> <tcpPort> <ioThreads>
 * <certDir>}, binding 127.0.0.1:
 *
 * <ul>
 *   <li>on {@code port}, HTTP/1.1: {@code GET} {@value Scenario#PLAINTEXT_PATH} answered with
 *       {@code 200}, {@code text/plain} and {@link Scenario#PLAINTEXT_BODY}, keep-alive, and
 *       {@code Connection: close} honoured (the short-connection row); and {@value #ECHO}, a
 *       WebSocket that sends every binary message back as it came;
 *   <li>on {@code tlsPort}, the same over TLS (HTTP/1.1; the certificate of {@link TlsContract}
 *       in {@code certDir}); a server that has no WebSocket over TLS answers the upgrade there
 *       with anything but {@code 101}, and the runner reports the cell as not available;
 *   <li>on {@code tcpPort}, where the server has a raw TCP API, an echo of every byte read
 *       ({@code 0}: none asked for; a server without one ignores it and the row is n/a).
 * </ul>
 *
 * The server prints one line starting with {@value #READY_PREFIX} once it listens, saying what
 * runs it (threads, transport, TLS engine), which the runner records.
 */
public final class LoopsContract {
    /** The WebSocket echo endpoint (binary messages; the same path as the streams suite's). */
    public static final String ECHO = StreamContract.ECHO;
    /** Start of the line a server prints when it listens. */
    public static final String READY_PREFIX = "loops:";

    private LoopsContract() {}
}
