package dev.tidemill.internal.http1;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufHolder;
import io.netty.channel.FileRegion;
import io.netty.channel.MessageSizeEstimator;

/**
 * How much a queued write weighs in a connection's outbound buffer: Netty's default estimator, but
 * a {@link FileRegion} counts with the bytes it still has to send instead of Netty's 0. With 0, a
 * 20 MiB file queued for {@code sendfile} would leave the channel writable the whole time, so
 * nothing would push back: pipelined requests would keep being read and answered behind it, the
 * write-stall watch (which runs while the channel is unwritable) would never see a client that
 * reads none of it, and the idle timer could start while the file is still going out. Counted at
 * its size, the region makes the channel unwritable until the kernel has taken it, like any large
 * body.
 */
final class OutboundSizes implements MessageSizeEstimator, MessageSizeEstimator.Handle {
    static final OutboundSizes INSTANCE = new OutboundSizes();

    /** Netty's {@code DefaultMessageSizeEstimator.DEFAULT} weight for a message of unknown size. */
    private static final int UNKNOWN = 8;

    private OutboundSizes() {}

    @Override
    public Handle newHandle() {
        return this;
    }

    @Override
    public int size(Object msg) {
        if (msg instanceof ByteBuf b) return b.readableBytes();
        if (msg instanceof ByteBufHolder h) return h.content().readableBytes();
        if (msg instanceof FileRegion r) return (int) Math.min(Integer.MAX_VALUE, r.count() - r.transferred());
        return UNKNOWN;
    }
}
