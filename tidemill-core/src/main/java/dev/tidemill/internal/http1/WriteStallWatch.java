package dev.tidemill.internal.http1;

import io.netty.channel.Channel;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.util.internal.SystemPropertyUtil;

/**
 * Tells a client that reads slowly from one that reads nothing ("slow read"). While the channel
 * is unwritable, the watch compares, one write-stall timeout apart, what Netty had pending then
 * plus what was written since with what is pending now, and the progress of a partly written
 * buffer: if nothing drained the client took no byte and the connection is closed; if something
 * drained it is slow but reading and the watch starts over. The connection reports every buffer
 * it hands to Netty with {@link #enqueued}. Event-loop confined.
 *
 * <p>Two things make Netty's pending count differ from the bytes written: every queued buffer
 * counts with an entry overhead ({@code io.netty.transport.outboundBufferEntrySizeOverhead}, read
 * here the way Netty reads it), and a buffer the kernel took only part of stays counted whole
 * until it is out, its progress kept apart ({@link ChannelOutboundBuffer#currentProgress()}).
 * Without both, a client reading a large response slowly could be cut as if it read nothing.
 */
final class WriteStallWatch {
    /** Netty's per-entry overhead in its pending count; its default is 96 bytes. */
    private static final int ENTRY_OVERHEAD =
            Math.max(SystemPropertyUtil.getInt("io.netty.transport.outboundBufferEntrySizeOverhead", 96), 0);

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
    private Object currentAtStart;
    private long progressAtStart;

    /** @param bytes the readable bytes of one buffer just handed to Netty */
    void enqueued(long bytes) {
        enqueued += bytes + ENTRY_OVERHEAD;
    }

    /** Starts a period: remembers what is pending on {@code ch} now. */
    void start(Channel ch) {
        ChannelOutboundBuffer out = ch.unsafe().outboundBuffer();
        pendingAtStart = out == null ? 0 : out.totalPendingWriteBytes();
        currentAtStart = out == null ? null : out.current();
        progressAtStart = out == null ? 0 : out.currentProgress();
        enqueuedAtStart = enqueued;
    }

    /** @return what happened on {@code ch} since {@link #start} */
    Verdict check(Channel ch) {
        ChannelOutboundBuffer out = ch.unsafe().outboundBuffer();
        long pendingNow = out == null ? 0 : out.totalPendingWriteBytes();
        if (ch.isWritable() || pendingNow == 0) return Verdict.CLEAR;
        long drained = pendingAtStart + (enqueued - enqueuedAtStart) - pendingNow;
        // The buffer being written now: the same as at the start and further along, or (nothing
        // was flushed yet at the start) one the kernel has taken part of since.
        Object current = out.current();
        boolean partly = currentAtStart == null ? current != null && out.currentProgress() > 0
                : current == currentAtStart && out.currentProgress() > progressAtStart;
        return drained > 0 || partly ? Verdict.READING : Verdict.STALLED;
    }
}
