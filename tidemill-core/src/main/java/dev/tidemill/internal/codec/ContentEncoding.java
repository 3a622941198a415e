package dev.tidemill.internal.codec;

import dev.tidemill.internal.codec.AcceptEncoding.Choice;
import dev.tidemill.internal.integration.OptionalDependency;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.zip.CRC32;
import java.util.Locale;
import java.util.zip.Deflater;

/**
 * Compresses a complete response body with {@code br} (brotli4j, Google's C encoder), {@code zstd}
 * (zstd-jni) or {@code gzip} (the JDK's zlib), at the level given. Runs on the caller's thread:
 * {@code exchange.Replies} calls it on the handler's, so a large body is never compressed on an
 * I/O loop for a LOOP or VIRTUAL route. Streamed bodies use {@link ChunkEncoder}.
 *
 * <p>br and zstd are optional dependencies ({@link OptionalDependency}): the calls into them are
 * in {@link BrotliCoding} and {@link ZstdCoding}, reached only for a coding that
 * {@link #brotliAvailable()} or {@link #zstdAvailable()} allowed to be negotiated.
 */
public final class ContentEncoding {
    // RFC 1952 2.3: ID1 ID2, CM = deflate, no flags, no mtime, XFL 0, OS 255 (unknown).
    private static final byte[] GZIP_HEADER = {0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0, 0, (byte) 0xff};

    private ContentEncoding() {}

    /** @return the {@code Content-Encoding} token of a coding (not identity) */
    public static String token(Choice coding) {
        return switch (coding) {
            case BR -> "br";
            case ZSTD -> "zstd";
            case GZIP -> "gzip";
            case IDENTITY, NONE_ACCEPTABLE -> throw new IllegalArgumentException(coding + " is not a content coding");
        };
    }

    /**
     * @param coding br, zstd or gzip
     * @param body the bytes to compress (left as they are: the caller still owns them)
     * @param level the coding's level, within {@link dev.tidemill.Compression}'s range
     * @param alloc where the compressed bytes go
     * @return the compressed body, a new buffer the caller owns
     */
    public static ByteBuf encode(Choice coding, ByteBuf body, int level, ByteBufAllocator alloc) {
        byte[] in;
        int off;
        int len = body.readableBytes();
        if (body.hasArray()) {
            in = body.array();
            off = body.arrayOffset() + body.readerIndex();
        } else {
            in = ByteBufUtil.getBytes(body);
            off = 0;
        }
        return switch (coding) {
            case BR -> brotli(in, off, len, level);
            case ZSTD -> zstd(in, off, len, level, alloc);
            case GZIP -> gzip(in, off, len, level, alloc);
            case IDENTITY, NONE_ACCEPTABLE -> throw new IllegalArgumentException(coding + " is not a content coding");
        };
    }

    /** @return a stream encoder for one streamed body, flushing after every chunk */
    public static ChunkEncoder chunkEncoder(Choice coding, int level, ByteBufAllocator alloc) {
        if (coding == Choice.BR) ensureBrotli();
        return new ChunkEncoder(coding, level, alloc);
    }

    private static ByteBuf brotli(byte[] in, int off, int len, int level) {
        ensureBrotli();
        try {
            return Unpooled.wrappedBuffer(BrotliCoding.compress(in, off, len, level));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static ByteBuf zstd(byte[] in, int off, int len, int level, ByteBufAllocator alloc) {
        if (!zstdAvailable()) throw new IllegalStateException(OptionalDependency.ZSTD.missing("zstd was chosen"));
        return ZstdCoding.compress(in, off, len, level, alloc);
    }

    private static ByteBuf gzip(byte[] in, int off, int len, int level, ByteBufAllocator alloc) {
        Deflater deflater = new Deflater(level, true);
        // deflate's worst case is 5 bytes per 16 KiB block over the input, plus header and trailer
        ByteBuf out = alloc.heapBuffer(len + (len >> 12) + 64);
        try {
            out.writeBytes(GZIP_HEADER);
            deflater.setInput(in, off, len);
            deflater.finish();
            while (!deflater.finished()) {
                out.ensureWritable(4096);
                int n = deflater.deflate(out.array(), out.arrayOffset() + out.writerIndex(), out.writableBytes());
                out.writerIndex(out.writerIndex() + n);
            }
            CRC32 crc = new CRC32();
            crc.update(in, off, len);
            out.writeIntLE((int) crc.getValue()).writeIntLE(len);
            return out;
        } catch (RuntimeException e) {
            out.release();
            throw e;
        } finally {
            deflater.end();
        }
    }

    /** Loads the native brotli library once, failing with its reason if this platform has none. */
    static void ensureBrotli() {
        if (!OptionalDependency.BROTLI.present()) throw new IllegalStateException(OptionalDependency.BROTLI.missing("br was chosen"));
        if (!BrotliCoding.loaded()) {
            throw new IllegalStateException("brotli native library unavailable (add com.aayushatharva.brotli4j:native-<os>-<arch>)",
                    BrotliCoding.cause());
        }
    }

    /** @return whether br can be offered: brotli4j is present and its native library loads on this platform */
    public static boolean brotliAvailable() {
        return OptionalDependency.BROTLI.present() && BrotliCoding.loaded();
    }

    /**
     * @return why br cannot be offered, for the startup report and an explicit ask: the artifact
     *     to add; empty when it can
     */
    public static java.util.Optional<String> brotliMissing() {
        if (!OptionalDependency.BROTLI.present()) return java.util.Optional.of(OptionalDependency.BROTLI.artifact());
        if (!BrotliCoding.loaded()) return java.util.Optional.of("com.aayushatharva.brotli4j:native-<os>-<arch> for this platform");
        return java.util.Optional.empty();
    }

    /** @return whether zstd can be offered and decoded: zstd-jni is present */
    public static boolean zstdAvailable() {
        return OptionalDependency.ZSTD.present();
    }

    /**
     * Media types whose bytes are compressed already: compressing them again costs CPU and saves
     * nothing. The one list, used by response compression and by static assets' precompression.
     *
     * @param contentType a {@code Content-Type} value, parameters allowed
     * @return whether its bytes are compressed already (images other than SVG, audio, video, fonts, archives)
     */
    public static boolean alreadyCompressed(String contentType) {
        // Region compares, and a String only for application/ types: every reply asks, and most
        // are text/... with parameters, which a lower-cased copy and a substring made garbage of.
        int from = 0;
        int to = contentType.indexOf(';');
        if (to < 0) to = contentType.length();
        while (from < to && Character.isWhitespace(contentType.charAt(from))) from++;
        while (to > from && Character.isWhitespace(contentType.charAt(to - 1))) to--;
        if (startsWith(contentType, from, to, "image/")) {
            return !(to - from == 13 && startsWith(contentType, from, to, "image/svg+xml")); // SVG is XML text
        }
        if (startsWith(contentType, from, to, "audio/") || startsWith(contentType, from, to, "video/")
                || startsWith(contentType, from, to, "font/")) return true;
        if (!startsWith(contentType, from, to, "application/")) return false;
        String t = contentType.substring(from, to).toLowerCase(Locale.ROOT);
        return switch (t) {
            case "application/zip", "application/gzip", "application/x-gzip", "application/zstd",
                 "application/x-bzip2", "application/x-xz", "application/x-7z-compressed",
                 "application/x-rar-compressed", "application/vnd.rar", "application/x-tar",
                 "application/java-archive", "application/x-compress", "application/x-lzip",
                 "application/font-woff", "application/x-font-woff", "application/font-woff2",
                 "application/vnd.ms-fontobject" -> true;
            default -> false;
        };
    }

    private static boolean startsWith(String s, int from, int to, String lowerPrefix) {
        return to - from >= lowerPrefix.length() && s.regionMatches(true, from, lowerPrefix, 0, lowerPrefix.length());
    }
}
