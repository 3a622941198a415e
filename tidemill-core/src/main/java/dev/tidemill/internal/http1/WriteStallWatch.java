package dev.tidemill.internal.http1;

import io.netty.channel.Channel;
import io.netty.channel.ChannelOutboundBuffer;

/**
 * Tells a client that reads slowly from one that reads nothing ("slow read"). While the channel
 * is unwritable, the watch compares, one write-stall timeout apart, what was pending then plus
 * what was written since with what is pending now: if nothing drained the client took no byte
 * and the connection is closed; if something drained it is slow but reading and the watch starts
 * over. The connection counts response bytes handed to Netty with {@link #enqueued}.
 * Event-loop confined.
 */
final class WriteStallWatch {
    /** What {@link #check} found. */
    enum Verdict {
        /** writable again, or nothing pending: the watch ends */
        CLEAR,
        /** some bytes drained: start over */
        READING,
        /** not one byte taken for the whole period: close */
        STALLED
    }

    private long enqueued;
    private long enqueuedAtStart;
    private long pendingAtStart;

    /** @param bytes response bytes just handed to Netty */
    void enqueued(long bytes) {
        enqueued += bytes;
    }

    /** Starts a period: remembers what is pending on {@code ch} now. */
    void start(Channel ch) {
        pendingAtStart = pending(ch);
        enqueuedAtStart = enqueued;
    }

    /** @return what happened on {@code ch} since {@link #start} */
    Verdict check(Channel ch) {
        long pendingNow = pending(ch);
        if (ch.isWritable() || pendingNow == 0) return Verdict.CLEAR;
        long drained = pendingAtStart + (enqueued - enqueuedAtStart) - pendingNow;
        return drained > 0 ? Verdict.READING : Verdict.STALLED;
    }

    private static long pending(Channel ch) {
        ChannelOutboundBuffer buffer = ch.unsafe().outboundBuffer();
        return buffer == null ? 0 : buffer.totalPendingWriteBytes();
    }
}
