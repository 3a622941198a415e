package dev.tidemill.internal.http1;

import dev.tidemill.internal.exchange.Reply;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;

/**
 * What an HTTP/1.1 connection has written and not yet flushed, and when it flushes. Complete
 * replies are encoded back to back into one staged buffer, so pipelined replies cost one
 * allocation and one outbound entry per {@link #STAGE_BYTES}, not one each; while a read is in
 * progress flushes wait for its end (one flush, one write syscall, per read). Every write is
 * counted by the {@link WriteStallWatch}. Event-loop confined.
 */
final class StagedWrites {
    /**
     * Capacity of a stage after the first in one flush: about 30 plaintext replies. The first is
     * sized for its one reply, because most reads carry one request and a slow reader's outbound
     * buffer should hold bytes, not empty capacity.
     */
    static final int STAGE_BYTES = 4096;

    private final ResponseEncoder encoder;
    private final WriteStallWatch watch;
    private ChannelHandlerContext ctx;
    /** Complete replies encoded since the last flush, back to back. */
    private ByteBuf staged;
    /** A reply was staged since the last flush: the next stage is sized for more than one. */
    private boolean stagedSinceFlush;
    private boolean inRead;
    private boolean needsFlush;

    StagedWrites(ResponseEncoder encoder, WriteStallWatch watch) {
        this.encoder = encoder;
        this.watch = watch;
    }

    void attach(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    /**
     * A read began or ended: while reading, flushes wait for the end of the read.
     *
     * @return whether a read was already in progress
     */
    boolean reading(boolean inRead) {
        boolean was = this.inRead;
        this.inRead = inRead;
        if (!inRead && needsFlush) flush();
        return was;
    }

    /** Something was written that the next flush must send. */
    void needsFlush() {
        needsFlush = true;
    }

    /** Encodes a complete reply into the stage; a body too large to copy is written after it. */
    void stage(Reply reply, boolean close, boolean http10) {
        int need = encoder.bound(reply);
        if (staged != null && staged.writableBytes() < need) writeStaged();
        if (staged == null) {
            staged = ctx.alloc().buffer(stagedSinceFlush ? Math.max(need, STAGE_BYTES) : need);
            stagedSinceFlush = true;
        }
        ByteBuf large = encoder.full(staged, reply, close, http10);
        if (large != null) write(large);
    }

    /** Hands the staged replies to Netty (not flushed). */
    void writeStaged() {
        ByteBuf b = staged;
        if (b == null) return;
        staged = null;
        enqueue(b);
    }

    /** Someone else flushes the channel next (the batcher, or a close): the next stage is sized for one reply again. */
    void flushedElsewhere() {
        writeStaged();
        stagedSinceFlush = false;
    }

    /** A close takes over: what is staged goes out with its flush, nothing waits for the end of the read. */
    void closing() {
        writeStaged();
        needsFlush = false;
        stagedSinceFlush = false;
    }

    /** Writes {@code buf} after everything staged. */
    void write(ByteBuf buf) {
        writeStaged();
        enqueue(buf);
    }

    private void enqueue(ByteBuf buf) {
        watch.enqueued(buf.readableBytes());
        ctx.write(buf, ctx.voidPromise());
    }

    void flush() {
        writeStaged();
        needsFlush = false;
        stagedSinceFlush = false;
        ctx.flush();
    }

    /** Writes and flushes {@code 100 Continue} after what is staged. */
    void writeContinue() {
        writeStaged();
        ctx.writeAndFlush(ResponseEncoder.continueResponse(), ctx.voidPromise());
    }

    /** Flushes now unless a read is in progress (its end flushes). */
    void flushUnlessReading() {
        if (!inRead && needsFlush) flush();
    }

    /** The connection closed: the stage is released. */
    void release() {
        if (staged != null) {
            staged.release();
            staged = null;
        }
    }
}
