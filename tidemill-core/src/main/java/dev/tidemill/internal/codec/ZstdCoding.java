package dev.tidemill.internal.codec;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdInputStreamNoFinalizer;
import com.github.luben.zstd.ZstdOutputStream;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * zstd-jni, the only class of the codec that references it: loaded only when
 * {@link ContentEncoding#zstdAvailable()} found the jar, so a server without it never links against
 * zstd-jni (it then neither sends nor accepts zstd).
 */
final class ZstdCoding {
    private ZstdCoding() {}

    static ByteBuf compress(byte[] in, int off, int len, int level, ByteBufAllocator alloc) {
        int bound = (int) Zstd.compressBound(len);
        ByteBuf out = alloc.heapBuffer(bound);
        try {
            long n = Zstd.compressByteArray(out.array(), out.arrayOffset(), bound, in, off, len, level);
            if (Zstd.isError(n)) throw new IllegalStateException("zstd: " + Zstd.getErrorName(n));
            out.writerIndex((int) n);
            return out;
        } catch (RuntimeException e) {
            out.release();
            throw e;
        }
    }

    static OutputStream stream(OutputStream sink, int level) throws IOException {
        return new ZstdOutputStream(sink, level);
    }

    static InputStream decoder(InputStream raw) throws IOException {
        return new ZstdInputStreamNoFinalizer(raw);
    }
}
