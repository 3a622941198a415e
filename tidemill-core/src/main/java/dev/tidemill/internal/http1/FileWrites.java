package dev.tidemill.internal.http1;

import dev.tidemill.internal.exchange.FileBody;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.FileRegion;
import io.netty.channel.socket.SocketChannel;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The file bodies of one connection ({@link FileBody}), after their head. On a socket the whole
 * region goes to Netty as one {@link FileRegion} ({@code sendfile} on NIO and epoll, {@code splice}
 * on io_uring where the kernel has it): no byte of it passes through the heap, and
 * {@link OutboundSizes} makes it weigh its size, so the channel is unwritable until it is out. On
 * any other channel (one that encrypts, or an embedded one in a test) the region is read piece by
 * piece, {@link #PIECE_BYTES} at a time, each piece written while the channel is writable and the
 * next one read only when it is writable again: the back-pressure of a streamed body, with at most
 * about one piece above the high-water mark in memory. Event-loop confined.
 */
final class FileWrites {
    private static final Logger LOG = LoggerFactory.getLogger(FileWrites.class);

    /** Bytes read from the file per piece in the read-and-write path. */
    static final int PIECE_BYTES = 64 * 1024;

    /** What {@link #start} and {@link #writable} leave behind. */
    enum Progress {
        /** every byte is queued: the reply is done */
        DONE,
        /** pieces remain: call {@link #writable} when the channel is writable again */
        WAITING,
        /** the file could not be read to the end: the body is cut short, the connection must close */
        FAILED
    }

    private final ChannelHandlerContext ctx;
    private final WriteStallWatch watch;
    private final FileSends counts;
    private final boolean zeroCopy;
    private FileBody current;

    FileWrites(ChannelHandlerContext ctx, WriteStallWatch watch, FileSends counts) {
        this.ctx = ctx;
        this.watch = watch;
        this.counts = counts;
        // A TLS handler in front (when there is one) must send bytes it can encrypt: a FileRegion
        // would bypass it. Only a plain socket takes the region.
        this.zeroCopy = ctx.channel() instanceof SocketChannel;
    }

    /** @return the body being read piece by piece, or null */
    FileBody current() {
        return current;
    }

    /** Writes {@code body} after the head just staged. */
    Progress start(FileBody body) {
        if (zeroCopy) {
            FileRegion region = body.region();
            watch.enqueued(region.count());
            ctx.write(region, ctx.voidPromise());
            counts.zeroCopy.increment();
            return Progress.DONE;
        }
        counts.read.increment();
        current = body;
        return writable();
    }

    /** The channel can take more: pieces of the current body while it stays writable. */
    Progress writable() {
        FileBody body = current;
        if (body == null) return Progress.DONE;
        try {
            while (ctx.channel().isWritable()) {
                ByteBuf piece = body.read(ctx.alloc(), PIECE_BYTES);
                if (piece == null) break;
                watch.enqueued(piece.readableBytes());
                ctx.write(piece, ctx.voidPromise());
            }
        } catch (IOException e) {
            LOG.debug("file body cut short on {}", ctx.channel(), e);
            finish();
            return Progress.FAILED;
        }
        if (!body.done()) return Progress.WAITING;
        finish();
        return Progress.DONE;
    }

    /** The connection closed: the file being read is closed. */
    void closeAll() {
        finish();
    }

    private void finish() {
        if (current != null) current.close();
        current = null;
    }
}
