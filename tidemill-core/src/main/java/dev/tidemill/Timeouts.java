package dev.tidemill;

import java.time.Duration;

/**
 * Timeouts. Every default is defined here and only here.
 *
 * @param request from the request being fully read (head and body) to the first response byte; past it: 504
 *     problem, the handler's future cancelled or its virtual thread interrupted, its slot released.
 *     A streaming response is exempt once its first byte is out. Default 30 s.
 * @param headerRead from the first byte of a request to the end of its header block; past it the
 *     connection is closed. Default 15 s.
 * @param idle a keep-alive connection with no request in progress; past it the connection is
 *     closed. Default 15 s.
 * @param bodyStall the longest gap between two reads of a request body; past it: 408 and the
 *     connection closed. Default 30 s.
 * @param writeStall how long a response may sit unsent while the client takes none of it (the
 *     connection's outbound buffer stays above its high-water mark, 64 KiB, with no byte drained);
 *     past it the connection is closed (a client that never reads, "slow read"). A client that
 *     reads slowly but steadily is never cut. Default 30 s.
 * @param drain how long the server keeps discarding the body of a refused request before closing
 *     the connection instead. Default 250 ms.
 * @param linger when the server closes a connection after its last response (a refusal, an error,
 *     {@code Connection: close}), it sends that response and a FIN, then keeps reading and
 *     discarding what the client still sends until the client closes too, for at most this long.
 *     Closing at once with unread request bytes would make the kernel send a reset, and a client
 *     still uploading would lose the response it had not read yet (RFC 9112 9.6, nginx's
 *     "lingering close"). Default 5 s.
 * @param shutdownGrace how long in-flight requests may run after a shutdown begins. Default 10 s.
 */
public record Timeouts(
        Duration request,
        Duration headerRead,
        Duration idle,
        Duration bodyStall,
        Duration writeStall,
        Duration drain,
        Duration linger,
        Duration shutdownGrace) {

    /** The defaults, as documented on each component. */
    public static final Timeouts DEFAULTS = new Timeouts(
            Duration.ofSeconds(30), Duration.ofSeconds(15), Duration.ofSeconds(15),
            Duration.ofSeconds(30), Duration.ofSeconds(30), Duration.ofMillis(250), Duration.ofSeconds(5),
            Duration.ofSeconds(10));

    /** Checks every field; throws {@link IllegalArgumentException} naming the first bad one. */
    public Timeouts {
        positive("request", request);
        positive("headerRead", headerRead);
        positive("idle", idle);
        positive("bodyStall", bodyStall);
        positive("writeStall", writeStall);
        positive("drain", drain);
        positive("linger", linger);
        if (shutdownGrace == null || shutdownGrace.isNegative()) {
            throw new IllegalArgumentException("shutdownGrace must be >= 0");
        }
    }

    private static void positive(String name, Duration d) {
        if (d == null || d.isZero() || d.isNegative()) {
            throw new IllegalArgumentException(name + " must be a positive duration");
        }
    }
}
