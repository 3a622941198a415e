package dev.tidemill.internal.exchange;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.DefaultFileRegion;
import io.netty.channel.FileRegion;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A reply body that stays on disk: one region of an open file, sent with the {@code Content-Length}
 * of the region and never held in memory. The part of the seam a transport needs for it: either
 * it hands the kernel the whole region ({@link #region()}: zero-copy, HTTP/1.1 cleartext on a
 * socket that can {@code sendfile}/{@code splice}), or it reads the region piece by piece
 * ({@link #read}) while its peer takes them, which any transport can do (an HTTP/2 stream's DATA
 * frames, a TLS connection). One of the two, once; {@link #close()} in every case.
 *
 * <p>Opened on the handler's thread by {@code Replies}, used on the transport's thread after the
 * head is written: the hand-off through the reply's queue publishes it. Not thread-safe.
 */
public final class FileBody {
    private final FileChannel channel;
    private final long offset;
    private final long length;
    private long sent;
    /** The channel belongs to a {@link FileRegion} now, which closes it when it is released. */
    private boolean handedOff;

    private FileBody(FileChannel channel, long offset, long length) {
        this.channel = channel;
        this.offset = offset;
        this.length = length;
    }

    /**
     * @param path the file
     * @param offset first byte of the region
     * @param length bytes in the region
     * @return the opened body
     * @throws IOException the file cannot be opened ({@link java.nio.file.NoSuchFileException} if it is gone)
     */
    public static FileBody open(Path path, long offset, long length) throws IOException {
        return new FileBody(FileChannel.open(path, StandardOpenOption.READ), offset, length);
    }

    /** @return bytes in the region: the reply's {@code Content-Length} */
    public long length() {
        return length;
    }

    /**
     * Hands the whole region to the transport as a Netty {@link FileRegion}; the file is closed
     * when the region is released (written or discarded).
     *
     * @return the region, owned by the caller
     */
    public FileRegion region() {
        if (handedOff || sent > 0) throw new IllegalStateException("the region was handed off or partly read already");
        handedOff = true;
        return new DefaultFileRegion(channel, offset, length);
    }

    /**
     * Reads the next piece of the region.
     *
     * @param alloc where the bytes go
     * @param max at most this many bytes
     * @return the piece, owned by the caller; null once the whole region was read
     * @throws IOException reading failed, or the file ended before the region did (it was cut
     *     after the reply was built): the body cannot be completed
     */
    public ByteBuf read(ByteBufAllocator alloc, int max) throws IOException {
        if (handedOff) throw new IllegalStateException("the region was handed off");
        long left = length - sent;
        if (left <= 0) return null;
        int n = (int) Math.min(left, max);
        ByteBuf buf = alloc.ioBuffer(n);
        try {
            while (buf.writerIndex() < n) {
                int got = buf.writeBytes(channel, offset + sent + buf.writerIndex(), n - buf.writerIndex());
                if (got < 0) throw new IOException("file ended " + (left - buf.writerIndex()) + " bytes before its region");
            }
        } catch (IOException | RuntimeException e) {
            buf.release();
            throw e;
        }
        sent += n;
        return buf;
    }

    /** @return whether {@link #read} has returned every byte of the region */
    public boolean done() {
        return sent >= length;
    }

    /** Closes the file, unless a {@link #region()} owns it now. */
    public void close() {
        if (handedOff) return;
        handedOff = true;
        try {
            channel.close();
        } catch (IOException ignored) {
            // a read-only channel: nothing was lost
        }
    }
}
