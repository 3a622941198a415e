package dev.tidemill;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * How one WebSocket route accepts and runs its connections. Every default is defined here and
 * only here (in {@link Builder}'s starting values), every range once (in the range constants the
 * constructor checks). Build one with {@link #builder()}; {@link #DEFAULTS} is what
 * {@link Routes#ws(String, WebSocketHandler)} uses.
 *
 * @param origins which {@code Origin} a handshake may carry, else 403: empty (the default) means
 *     same origin (the Origin's host and port equal the {@code Host} header), {@code ["*"]} any
 *     origin, otherwise exactly these origins ({@code scheme://host[:port]}, compared ignoring
 *     case). A handshake without an {@code Origin} (not from a browser) is always allowed: the
 *     check exists against cross-site pages, which cannot omit it.
 * @param subprotocols the subprotocols the route speaks, in its order of preference; the first
 *     one the client also offers is agreed on. Empty (the default): none is agreed on.
 * @param compression whether permessage-deflate (RFC 7692) is agreed on when the client offers
 *     it. Default true.
 * @param maxMessageBytes the largest message after reassembly and inflation; larger: closed with
 *     1009 before more is buffered. 1 B-1 GiB; default 16 MiB.
 * @param maxFrameBytes the largest frame payload; larger: closed with 1009 as soon as its header is
 *     read. 125 B-1 GiB; default 16 MiB.
 * @param maxOutboundBytes bytes that may wait to be written to a peer that reads slowly; a send
 *     past it follows {@link #overflow()}. 1 B-1 GiB; default 4 MiB.
 * @param overflow what a send past {@link #maxOutboundBytes()} does. Default {@link Overflow#FAIL}.
 * @param pingInterval a ping is sent after this long without a frame from the peer, so a dead
 *     peer (or a proxy that drops quiet connections) is noticed. 1 ms-24 h; default 30 s.
 * @param idleTimeout the connection is closed with 1001 after this long without any frame from the
 *     peer (pongs count). 1 ms-24 h; default 75 s (two unanswered pings and some).
 * @param closeTimeout after a close frame is sent, how long the peer has to answer with its own
 *     before the socket is closed anyway. 1 ms-24 h; default 5 s.
 */
public record WebSocketOptions(
        List<String> origins,
        List<String> subprotocols,
        boolean compression,
        long maxMessageBytes,
        long maxFrameBytes,
        long maxOutboundBytes,
        Overflow overflow,
        Duration pingInterval,
        Duration idleTimeout,
        Duration closeTimeout) {

    /** What a send does when the peer is not taking messages as fast as they are sent. */
    public enum Overflow {
        /** The send's stage fails with {@link WebSocketOverflowException}; the connection stays. */
        FAIL,
        /** The message is dropped (counted); the send's stage completes. For updates a newer one supersedes. */
        DROP,
        /** The connection is closed with 1008; the send's stage fails. */
        CLOSE
    }

    private static final Duration MIN = Duration.ofMillis(1);
    private static final Duration MAX = Duration.ofHours(24);
    static final Range MAX_MESSAGE_BYTES = Range.bytes("maxMessageBytes", 1, 1L << 30);
    static final Range MAX_FRAME_BYTES = Range.bytes("maxFrameBytes", 125, 1L << 30);
    static final Range MAX_OUTBOUND_BYTES = Range.bytes("maxOutboundBytes", 1, 1L << 30);
    static final Range PING_INTERVAL = Range.duration("pingInterval", MIN, MAX);
    static final Range IDLE_TIMEOUT = Range.duration("idleTimeout", MIN, MAX);
    static final Range CLOSE_TIMEOUT = Range.duration("closeTimeout", MIN, MAX);

    /** The defaults, as documented on each component. */
    public static final WebSocketOptions DEFAULTS = new Builder().build();

    /** Checks every field; throws {@link IllegalArgumentException} naming the first bad one. */
    public WebSocketOptions {
        origins = List.copyOf(origins);
        subprotocols = List.copyOf(subprotocols);
        for (String o : origins) {
            if (!o.equals("*") && !o.matches("[A-Za-z][A-Za-z0-9+.-]*://[^/\\s]+")) {
                throw new IllegalArgumentException("origins: not an origin (scheme://host[:port]) or *");
            }
        }
        if (origins.contains("*") && origins.size() > 1) throw new IllegalArgumentException("origins: * stands alone");
        for (String p : subprotocols) {
            if (p.isEmpty() || !p.chars().allMatch(c -> c > 0x20 && c < 0x7f && "()<>@,;:\\\"/[]?={}".indexOf(c) < 0)) {
                throw new IllegalArgumentException("subprotocols: not a token");
            }
        }
        MAX_MESSAGE_BYTES.check(maxMessageBytes);
        MAX_FRAME_BYTES.check(maxFrameBytes);
        MAX_OUTBOUND_BYTES.check(maxOutboundBytes);
        Objects.requireNonNull(overflow, "overflow");
        PING_INTERVAL.check(pingInterval);
        IDLE_TIMEOUT.check(idleTimeout);
        CLOSE_TIMEOUT.check(closeTimeout);
    }

    /** @return a builder holding the defaults */
    public static Builder builder() {
        return new Builder();
    }

    /** @return a builder starting from these options */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /** Builder for {@link WebSocketOptions}; starts from the defaults, which are defined here and nowhere else. */
    public static final class Builder {
        private List<String> origins = List.of();
        private List<String> subprotocols = List.of();
        private boolean compression = true;
        private long maxMessageBytes = 16L * 1024 * 1024;
        private long maxFrameBytes = 16L * 1024 * 1024;
        private long maxOutboundBytes = 4L * 1024 * 1024;
        private Overflow overflow = Overflow.FAIL;
        private Duration pingInterval = Duration.ofSeconds(30);
        private Duration idleTimeout = Duration.ofSeconds(75);
        private Duration closeTimeout = Duration.ofSeconds(5);

        private Builder() {}

        private Builder(WebSocketOptions o) {
            origins = o.origins;
            subprotocols = o.subprotocols;
            compression = o.compression;
            maxMessageBytes = o.maxMessageBytes;
            maxFrameBytes = o.maxFrameBytes;
            maxOutboundBytes = o.maxOutboundBytes;
            overflow = o.overflow;
            pingInterval = o.pingInterval;
            idleTimeout = o.idleTimeout;
            closeTimeout = o.closeTimeout;
        }

        /** Only pages of the same origin may connect (the default). @return this */
        public Builder sameOrigin() { origins = List.of(); return this; }
        /** @param allowed the origins that may connect, {@code scheme://host[:port]} @return this */
        public Builder allowOrigins(String... allowed) { origins = List.of(allowed); return this; }
        /** Any page may connect: only for routes that need no cookie or other ambient credential. @return this */
        public Builder anyOrigin() { origins = List.of("*"); return this; }
        /** @param v see {@link WebSocketOptions#subprotocols()} @return this */
        public Builder subprotocols(String... v) { subprotocols = List.of(v); return this; }
        /** @param v see {@link WebSocketOptions#compression()} @return this */
        public Builder compression(boolean v) { compression = v; return this; }
        /** @param v see {@link WebSocketOptions#maxMessageBytes()} @return this */
        public Builder maxMessageBytes(long v) { maxMessageBytes = v; return this; }
        /** @param v see {@link WebSocketOptions#maxFrameBytes()} @return this */
        public Builder maxFrameBytes(long v) { maxFrameBytes = v; return this; }
        /** @param v see {@link WebSocketOptions#maxOutboundBytes()} @return this */
        public Builder maxOutboundBytes(long v) { maxOutboundBytes = v; return this; }
        /** @param v see {@link WebSocketOptions#overflow()} @return this */
        public Builder overflow(Overflow v) { overflow = v; return this; }
        /** @param v see {@link WebSocketOptions#pingInterval()} @return this */
        public Builder pingInterval(Duration v) { pingInterval = v; return this; }
        /** @param v see {@link WebSocketOptions#idleTimeout()} @return this */
        public Builder idleTimeout(Duration v) { idleTimeout = v; return this; }
        /** @param v see {@link WebSocketOptions#closeTimeout()} @return this */
        public Builder closeTimeout(Duration v) { closeTimeout = v; return this; }

        /** @return the options; throws {@link IllegalArgumentException} naming a bad field */
        public WebSocketOptions build() {
            return new WebSocketOptions(origins, subprotocols, compression, maxMessageBytes, maxFrameBytes,
                    maxOutboundBytes, overflow, pingInterval, idleTimeout, closeTimeout);
        }
    }
}
