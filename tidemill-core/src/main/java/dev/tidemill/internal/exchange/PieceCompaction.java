package dev.tidemill.internal.exchange;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.util.ArrayDeque;

/**
 * What a full {@link RequestBodyQueue} does with the pieces it holds once the reads stop, so that
 * they stay until the reader takes them. Pieces that fill less than seven eighths of the buffers
 * they are views of (socket reads that filled part of their buffers) are copied, each run of them
 * in a row into one buffer of the run's size, so the stream holds about the bytes it counts. On
 * io_uring a read of an upload over loopback often filled 29 of 64 KiB, between full ones: 100
 * uploads paused halfway held 148 MB of pooled memory for 108 MB of body, against 106 MB on epoll
 * ({@code StreamedBodyMemoryTest}, run with {@code -Dtidemill.test.transport=io_uring}). Only a
 * reader slower than the network pays for the copies.
 */
final class PieceCompaction {
    /** The most bytes one copy of under-filled pieces gathers. */
    static final int MAX_COPY_BYTES = 1 << 20;

    private PieceCompaction() {}

    /**
     * Rewrites the queue in place, in order, under the queue's lock.
     *
     * @param queue the stream's pieces
     * @param coalescing the queue's buffer of copied small pieces (never copied again), or null
     * @param alloc where the copies come from
     */
    static void compact(ArrayDeque<ByteBuf> queue, ByteBuf coalescing, ByteBufAllocator alloc) {
        ByteBuf[] pieces = queue.toArray(new ByteBuf[0]);
        queue.clear();
        for (int i = 0; i < pieces.length; ) {
            if (pieces[i] == coalescing || !underFilled(pieces[i])) {
                queue.add(pieces[i++]);
                continue;
            }
            int end = i;
            long bytes = 0;
            while (end < pieces.length && pieces[end] != coalescing && underFilled(pieces[end])
                    && (end == i || bytes + pieces[end].readableBytes() <= MAX_COPY_BYTES)) {
                bytes += pieces[end++].readableBytes();
            }
            ByteBuf copy = alloc.buffer((int) bytes, (int) bytes);
            for (; i < end; i++) {
                copy.writeBytes(pieces[i]);
                pieces[i].release();
            }
            queue.add(copy);
        }
    }

    /** @return whether the piece's readable bytes fill less than seven eighths of the buffer under all its views */
    static boolean underFilled(ByteBuf piece) {
        ByteBuf under = piece;
        for (ByteBuf u; (u = under.unwrap()) != null; ) under = u;
        return piece.readableBytes() * 8L < under.capacity() * 7L;
    }
}
