package dev.tidemill;

import java.time.Duration;

/**
 * Timeouts. Every default is defined here and only here (in {@link Builder}'s starting values),
 * every range once (in this record's range constants, which the constructor checks and the
 * environment reader uses). Every timeout but {@link #shutdownGrace()} is 1 ms-24 h. Build one with
 * {@link #builder()} or {@link #toBuilder()}.
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
 *     connection's outbound buffer stays above {@link Limits#writeBufferHighWaterMark()} with no
 *     byte drained); past it the connection is closed (a client that never reads, "slow read"). A
 *     client that reads slowly but steadily is never cut. Default 30 s.
 * @param drain how long the server keeps discarding the body of a refused request before closing
 *     the connection instead. Default 250 ms.
 * @param linger when the server closes a connection after its last response (a refusal, an error,
 *     {@code Connection: close}), it sends that response and a FIN, then keeps reading and
 *     discarding what the client still sends until the client closes too, for at most this long.
 *     Closing at once with unread request bytes would make the kernel send a reset, and a client
 *     still uploading would lose the response it had not read yet (RFC 9112 9.6, nginx's
 *     "lingering close"). Default 5 s.
 * @param shutdownGrace how long in-flight requests may run after a shutdown begins. 0-24 h; default 10 s.
 * @param shutdownIdle during a shutdown, how long a keep-alive connection with nothing in flight
 *     stays open before it is closed (within the grace). A request that arrives meanwhile is
 *     answered, with {@code Connection: close} (GOAWAY on HTTP/2); closing such a connection at
 *     once would cut off a request already on its way (Envoy's drain). Default 1 s.
 * @param ssePing how long a Server-Sent Events stream may go without sending anything before a
 *     {@code : ping} comment is sent: it keeps proxies from closing a quiet stream, and a write is
 *     how a client that vanished without closing is noticed. Default 15 s.
 */
public record Timeouts(
        Duration request,
        Duration headerRead,
        Duration idle,
        Duration bodyStall,
        Duration writeStall,
        Duration drain,
        Duration linger,
        Duration shutdownGrace,
        Duration shutdownIdle,
        Duration ssePing) {

    private static final Duration MIN = Duration.ofMillis(1);
    private static final Duration MAX = Duration.ofHours(24);

    // The ranges, one per component. Declared before DEFAULTS: the constructor reads them.
    static final Range REQUEST = Range.duration("request", MIN, MAX);
    static final Range HEADER_READ = Range.duration("headerRead", MIN, MAX);
    static final Range IDLE = Range.duration("idle", MIN, MAX);
    static final Range BODY_STALL = Range.duration("bodyStall", MIN, MAX);
    static final Range WRITE_STALL = Range.duration("writeStall", MIN, MAX);
    static final Range DRAIN = Range.duration("drain", MIN, MAX);
    static final Range LINGER = Range.duration("linger", MIN, MAX);
    static final Range SHUTDOWN_GRACE = Range.duration("shutdownGrace", Duration.ZERO, MAX);
    static final Range SHUTDOWN_IDLE = Range.duration("shutdownIdle", MIN, MAX);
    static final Range SSE_PING = Range.duration("ssePing", MIN, MAX);

    /** The defaults, as documented on each component. */
    public static final Timeouts DEFAULTS = new Builder().build();

    /** Checks every field; throws {@link IllegalArgumentException} naming the first bad one, never its value. */
    public Timeouts {
        REQUEST.check(request);
        HEADER_READ.check(headerRead);
        IDLE.check(idle);
        BODY_STALL.check(bodyStall);
        WRITE_STALL.check(writeStall);
        DRAIN.check(drain);
        LINGER.check(linger);
        SHUTDOWN_GRACE.check(shutdownGrace);
        SHUTDOWN_IDLE.check(shutdownIdle);
        SSE_PING.check(ssePing);
    }

    /** @return a builder holding the defaults */
    public static Builder builder() {
        return new Builder();
    }

    /** @return a builder starting from these timeouts */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /**
     * Builder for {@link Timeouts}; starts from the defaults, which are defined here and nowhere
     * else. Values are checked by {@link #build()}.
     */
    public static final class Builder {
        private Duration request = Duration.ofSeconds(30);
        private Duration headerRead = Duration.ofSeconds(15);
        private Duration idle = Duration.ofSeconds(15);
        private Duration bodyStall = Duration.ofSeconds(30);
        private Duration writeStall = Duration.ofSeconds(30);
        private Duration drain = Duration.ofMillis(250);
        private Duration linger = Duration.ofSeconds(5);
        private Duration shutdownGrace = Duration.ofSeconds(10);
        private Duration shutdownIdle = Duration.ofSeconds(1);
        private Duration ssePing = Duration.ofSeconds(15);

        private Builder() {}

        private Builder(Timeouts t) {
            request = t.request;
            headerRead = t.headerRead;
            idle = t.idle;
            bodyStall = t.bodyStall;
            writeStall = t.writeStall;
            drain = t.drain;
            linger = t.linger;
            shutdownGrace = t.shutdownGrace;
            shutdownIdle = t.shutdownIdle;
            ssePing = t.ssePing;
        }

        /** @param v see {@link Timeouts#request()} @return this */
        public Builder request(Duration v) { request = v; return this; }
        /** @param v see {@link Timeouts#headerRead()} @return this */
        public Builder headerRead(Duration v) { headerRead = v; return this; }
        /** @param v see {@link Timeouts#idle()} @return this */
        public Builder idle(Duration v) { idle = v; return this; }
        /** @param v see {@link Timeouts#bodyStall()} @return this */
        public Builder bodyStall(Duration v) { bodyStall = v; return this; }
        /** @param v see {@link Timeouts#writeStall()} @return this */
        public Builder writeStall(Duration v) { writeStall = v; return this; }
        /** @param v see {@link Timeouts#drain()} @return this */
        public Builder drain(Duration v) { drain = v; return this; }
        /** @param v see {@link Timeouts#linger()} @return this */
        public Builder linger(Duration v) { linger = v; return this; }
        /** @param v see {@link Timeouts#shutdownGrace()} @return this */
        public Builder shutdownGrace(Duration v) { shutdownGrace = v; return this; }
        /** @param v see {@link Timeouts#shutdownIdle()} @return this */
        public Builder shutdownIdle(Duration v) { shutdownIdle = v; return this; }
        /** @param v see {@link Timeouts#ssePing()} @return this */
        public Builder ssePing(Duration v) { ssePing = v; return this; }

        /** @return the timeouts; throws {@link IllegalArgumentException} naming a bad field */
        public Timeouts build() {
            return new Timeouts(request, headerRead, idle, bodyStall, writeStall, drain, linger, shutdownGrace, shutdownIdle, ssePing);
        }
    }
}
