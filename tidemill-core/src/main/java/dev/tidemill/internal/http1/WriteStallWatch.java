package dev.tidemill.internal.http1;

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

    /** @param pendingNow the outbound buffer's pending bytes now */
    void start(long pendingNow) {
        pendingAtStart = pendingNow;
        enqueuedAtStart = enqueued;
    }

    Verdict check(boolean writable, long pendingNow) {
        if (writable || pendingNow == 0) return Verdict.CLEAR;
        long drained = pendingAtStart + (enqueued - enqueuedAtStart) - pendingNow;
        return drained > 0 ? Verdict.READING : Verdict.STALLED;
    }
}
