package dev.tidemill.internal.codec;

import dev.tidemill.internal.codec.AcceptEncoding.Choice;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.zip.GZIPOutputStream;

/**
 * Compresses one streamed body chunk by chunk, flushing after each (brotli's
 * {@code BROTLI_OPERATION_FLUSH}, zstd's {@code ZSTD_e_flush}, deflate's {@code SYNC_FLUSH}), so
 * the client can decode every chunk, an SSE event for instance, as soon as it arrives. Not
 * thread-safe: the streamed body serialises its writes. Holds native memory until
 * {@link #finish} or {@link #close}.
 *
 * <p>Streams use a smaller brotli window (64 KiB) and zstd level than bodies could: a stream lives
 * long, an encoder per open stream is memory held per client, and an event is small.
 */
public final class ChunkEncoder implements AutoCloseable {
    /** Brotli's window for streams: 2^16 bytes (the default, 2^22, holds 4 MiB per stream). */
    private static final int STREAM_BROTLI_WINDOW = 16;

    private final Sink sink;
    private final OutputStream out;
    private boolean closed;

    ChunkEncoder(Choice coding, int level, ByteBufAllocator alloc) {
        sink = new Sink(alloc);
        try {
            out = switch (coding) {
                case BR -> BrotliCoding.stream(sink, level, STREAM_BROTLI_WINDOW);
                case ZSTD -> ZstdCoding.stream(sink, level);
                case GZIP -> new LevelledGzip(sink, level);
                case IDENTITY, NONE_ACCEPTABLE -> throw new IllegalArgumentException(coding + " is not a content coding");
            };
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * @param chunk bytes to compress; released here
     * @return what the client needs to decode everything written so far (possibly empty; the
     *     caller owns it)
     */
    public ByteBuf encode(ByteBuf chunk) {
        try {
            if (closed) throw new IllegalStateException("stream encoder closed");
            sink.open();
            if (chunk.hasArray()) {
                out.write(chunk.array(), chunk.arrayOffset() + chunk.readerIndex(), chunk.readableBytes());
            } else {
                byte[] copy = new byte[chunk.readableBytes()];
                chunk.getBytes(chunk.readerIndex(), copy);
                out.write(copy);
            }
            out.flush();
            return sink.take();
        } catch (IOException e) {
            sink.discard();
            throw new UncheckedIOException(e);
        } finally {
            chunk.release();
        }
    }

    /** @return the end of the compressed stream (the caller owns it); the encoder is closed after */
    public ByteBuf finish() {
        if (closed) throw new IllegalStateException("stream encoder closed");
        closed = true;
        sink.open();
        try {
            out.close();
            return sink.take();
        } catch (IOException e) {
            sink.discard();
            throw new UncheckedIOException(e);
        }
    }

    /** Frees the native state of a stream that will not be finished (the client left, the producer failed). */
    @Override
    public void close() {
        if (closed) return;
        closed = true;
        try {
            out.close();
        } catch (IOException | RuntimeException e) {
            // the output is discarded anyway; all that mattered was freeing the encoder
        }
        sink.discard();
    }

    /** Collects what the encoder writes into one buffer per chunk. */
    private static final class Sink extends OutputStream {
        private final ByteBufAllocator alloc;
        private ByteBuf buf;

        Sink(ByteBufAllocator alloc) {
            this.alloc = alloc;
        }

        void open() {
            if (buf == null) buf = alloc.heapBuffer(256);
        }

        ByteBuf take() {
            ByteBuf b = buf;
            buf = null;
            return b;
        }

        void discard() {
            if (buf != null) buf.release();
            buf = null;
        }

        @Override
        public void write(int b) {
            open();
            buf.writeByte(b);
        }

        @Override
        public void write(byte[] b, int off, int len) {
            open();
            buf.writeBytes(b, off, len);
        }
    }

    /** {@link GZIPOutputStream} with a level and sync flush. */
    private static final class LevelledGzip extends GZIPOutputStream {
        LevelledGzip(OutputStream out, int level) throws IOException {
            super(out, 4096, true);
            def.setLevel(level);
        }
    }
}
