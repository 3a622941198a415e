package dev.tidemill.internal.exchange;

import dev.tidemill.Compression;
import dev.tidemill.internal.codec.AcceptEncoding;
import dev.tidemill.internal.codec.AcceptEncoding.Choice;
import dev.tidemill.internal.codec.ChunkEncoder;
import dev.tidemill.internal.codec.ContentEncoding;
import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.codec.http.HttpHeaderNames;
import java.util.List;
import java.util.Locale;

/**
 * Which replies are compressed, and with what: the protocol-neutral half of response compression
 * (the bytes are {@code codec.ContentEncoding}'s and {@code codec.ChunkEncoder}'s). Used by
 * {@link Replies} on the handler's thread, so a full body is compressed there and never on an I/O
 * loop unless the route itself runs there (IO mode, see docs/compression.md).
 *
 * <p>A reply is a candidate when its route allows it, it has a body (not 1xx/204/304), it carries
 * no {@code Content-Encoding} yet, no {@code Cache-Control: no-transform} (RFC 9110 7.7), and its
 * content type is not one that is already compressed (images other than SVG, audio, video, fonts,
 * archives). A candidate whose coding {@code Accept-Encoding} decided (a full body of at least
 * {@code minBytes}, or any streamed body) gets {@code Vary: Accept-Encoding} whatever was chosen,
 * merged into the handler's {@code Vary}: the response a cache stores depends on the header.
 */
final class ReplyCompression {
    /**
     * Largest full body compressed on the transport's own thread (an IO-mode route, or a stage
     * completed there): 64 KiB costs about 250 us at the default br level (3.9 us per KiB on the
     * bench page, docs/compression.md), the most we let one response hold up every other
     * connection of its event loop. A larger body on that thread goes as it is.
     */
    static final int MAX_ON_TRANSPORT_THREAD = 64 * 1024;

    private final Compression settings;
    private final boolean brotli;
    private final boolean zstd;

    ReplyCompression(Compression settings) {
        this.settings = settings;
        // Without brotli4j, or its native library for this platform, br is simply never chosen;
        // without zstd-jni, zstd: gzip is the JDK's and always there.
        this.brotli = ContentEncoding.brotliAvailable();
        this.zstd = ContentEncoding.zstdAvailable();
    }

    /** @return the settings (levels, minimum size) */
    Compression settings() {
        return settings;
    }

    /**
     * @param contentType the reply's own content type, or null; a {@code Content-Type} in
     *     {@code headers} wins over it
     * @return whether the reply's representation is chosen by {@code Accept-Encoding}
     */
    boolean candidate(Exchange ex, CharSequence contentType, List<String> headers) {
        Endpoint endpoint = ex.endpoint();
        if (endpoint == null || !endpoint.compress()) return false;
        CharSequence type = contentType;
        for (int i = 0; i < headers.size(); i += 2) {
            String name = headers.get(i);
            if (name.equalsIgnoreCase("Content-Encoding")) return false;
            if (name.equalsIgnoreCase("Cache-Control") && headers.get(i + 1).toLowerCase(Locale.ROOT).contains("no-transform")) return false;
            if (name.equalsIgnoreCase("Content-Type")) type = headers.get(i + 1);
        }
        return type == null || !ContentEncoding.alreadyCompressed(type.toString());
    }

    /** @return the coding the request asks for ({@link Choice#NONE_ACCEPTABLE}: 406) */
    AcceptEncoding.Result negotiate(Exchange ex) {
        // Most API clients send no Accept-Encoding; looking it up first spares them the list and iterator
        // Netty's getAll makes (about 50 bytes of a 1,758-byte request, async-profiler alloc, wrk raw 1 KiB PUT).
        if (!ex.headers.contains(HttpHeaderNames.ACCEPT_ENCODING)) return AcceptEncoding.negotiate(List.of(), brotli, zstd, true);
        return AcceptEncoding.negotiate(ex.headers("Accept-Encoding"), brotli, zstd, true);
    }

    /** @return the level of a coding */
    int level(Choice coding) {
        return switch (coding) {
            case BR -> settings.brotliLevel();
            case ZSTD -> settings.zstdLevel();
            case GZIP -> settings.gzipLevel();
            case IDENTITY, NONE_ACCEPTABLE -> throw new IllegalArgumentException(coding.toString());
        };
    }

    /** @return a stream encoder for a streamed body */
    ChunkEncoder chunkEncoder(Choice coding, ByteBufAllocator alloc) {
        // zstd above 3 costs its window per stream for events that are small; level 3 is the floor
        // of what is worth it and the ceiling of what a stream should hold (see ChunkEncoder).
        int level = coding == Choice.ZSTD ? Math.min(level(coding), 3) : level(coding);
        return ContentEncoding.chunkEncoder(coding, level, alloc);
    }

    /**
     * Adds {@code Vary: Accept-Encoding} to {@code headers}, merged into a {@code Vary} the
     * handler set (unless it already names it, or is {@code *}).
     */
    static void addVary(List<String> headers) {
        for (int i = 0; i < headers.size(); i += 2) {
            if (!headers.get(i).equalsIgnoreCase("Vary")) continue;
            String v = headers.get(i + 1);
            for (String part : v.split(",")) {
                String p = part.trim();
                if (p.equals("*") || p.equalsIgnoreCase("Accept-Encoding")) return;
            }
            headers.set(i + 1, v.isBlank() ? "Accept-Encoding" : v + ", Accept-Encoding");
            return;
        }
        headers.add("Vary");
        headers.add("Accept-Encoding");
    }

    /**
     * A compressed body is another representation, so a strong {@code ETag} of the identity body
     * would be a lie about its bytes (RFC 9110 8.8.3); it becomes weak, as nginx does, so
     * conditional requests still match it.
     */
    static void weakenEtag(List<String> headers) {
        for (int i = 0; i < headers.size(); i += 2) {
            if (headers.get(i).equalsIgnoreCase("ETag") && headers.get(i + 1).startsWith("\"")) {
                headers.set(i + 1, "W/" + headers.get(i + 1));
            }
        }
    }
}
