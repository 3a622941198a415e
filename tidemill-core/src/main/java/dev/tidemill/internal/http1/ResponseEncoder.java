package dev.tidemill.internal.http1;

import dev.tidemill.internal.exchange.DateHeader;
import dev.tidemill.internal.exchange.Reply;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Writes HTTP/1.1 responses as bytes, replacing Netty's {@code HttpResponseEncoder}: status lines
 * and constant header lines are encoded once at start, the {@code Date} line once per second
 * ({@link DateHeader#line()}), {@code Content-Length} digits straight into the buffer, and a small
 * body goes into the same buffer as its head (one buffer, one gathering write). Only this class
 * decides the HTTP/1.1 framing of a {@link Reply}: {@code Content-Length} when the reply has one,
 * {@code Transfer-Encoding: chunked} for a streamed body (HTTP/1.0: no coding, the connection's
 * end ends the body), {@code Connection: close} or, for HTTP/1.0, {@code keep-alive}.
 *
 * <p>Stateless after construction; one per server, used on the event loops.
 */
final class ResponseEncoder {
    /** Bodies up to this many bytes are copied into the head's buffer; larger ones are a second buffer. */
    static final int INLINE_BODY = 4096;

    private static final byte[] CRLF = {'\r', '\n'};
    private static final byte[] CONTENT_TYPE = ascii("Content-Type: ");
    private static final byte[] CONTENT_LENGTH = ascii("Content-Length: ");
    private static final byte[] X_REQUEST_ID = ascii("X-Request-Id: ");
    private static final byte[] CHUNKED = ascii("Transfer-Encoding: chunked\r\n");
    private static final byte[] CLOSE = ascii("Connection: close\r\n");
    private static final byte[] KEEP_ALIVE = ascii("Connection: keep-alive\r\n");
    private static final ByteBuf CONTINUE = constant("HTTP/1.1 100 Continue\r\n\r\n");
    private static final ByteBuf LAST_CHUNK = constant("0\r\n\r\n");
    private static final ByteBuf CHUNK_END = constant("\r\n");
    private static final byte[][] STATUS_LINES = new byte[600][];

    static {
        for (int code = 100; code < 600; code++) STATUS_LINES[code] = ascii("HTTP/1.1 " + code + " " + reason(code) + "\r\n");
    }

    private final byte[] serverLine;

    /** @param serverHeader the {@code Server} value, empty to send none */
    ResponseEncoder(String serverHeader) {
        this(serverHeader, "");
    }

    /**
     * @param serverHeader the {@code Server} value, empty to send none
     * @param constantLines more header lines every response carries, each ending in CRLF (the
     *     TLS listener's {@code Strict-Transport-Security}); empty for none
     */
    ResponseEncoder(String serverHeader, String constantLines) {
        this.serverLine = ascii((serverHeader.isEmpty() ? "" : "Server: " + serverHeader + "\r\n") + constantLines);
    }

    /**
     * @return bytes {@link #full} may append to its buffer for {@code r} (the head, and the body
     *     when it is small enough to go with it)
     */
    int bound(Reply r) {
        int bodyBytes = r.body().readableBytes();
        return headBound(r) + (bodyBytes <= INLINE_BODY ? bodyBytes : 0);
    }

    /**
     * Encodes a complete response at the end of {@code buf} (its body released, or handed back).
     *
     * @param buf where the head, and a small body, are appended; {@link #bound} bytes fit without growing it
     * @return a body too large to copy, to be written after {@code buf}; null when it is in {@code buf}
     */
    ByteBuf full(ByteBuf buf, Reply r, boolean close, boolean http10) {
        ByteBuf body = r.body();
        int bodyBytes = body.readableBytes();
        boolean inline = bodyBytes <= INLINE_BODY;
        head(buf, r, close, http10, false);
        if (bodyBytes == 0) {
            body.release(); // only the buffer: a file body (empty buffer, region after the head) is the writer's
            return null;
        }
        if (inline) {
            if (body.hasArray()) {
                // From an array Netty's pooled buffer copies with no object made; from a heap ByteBuf it makes two
                // ByteBuffer views per copy (async-profiler alloc, IO, wrk -t1 -c4 raw 1 KiB PUT: about 110 bytes
                // of a request's 1,758).
                buf.writeBytes(body.array(), body.arrayOffset() + body.readerIndex(), bodyBytes);
            } else {
                buf.writeBytes(body, body.readerIndex(), bodyBytes);
            }
            body.release();
            return null;
        }
        return body;
    }

    /** @return the head of a streamed response */
    ByteBuf streamHead(ByteBufAllocator alloc, Reply r, boolean close, boolean http10) {
        ByteBuf buf = alloc.buffer(headBound(r));
        head(buf, r, close, http10, !http10);
        return buf;
    }

    /**
     * Frames one chunk of a streamed body ({@code size CRLF data CRLF}; HTTP/1.0: the bytes as they are).
     *
     * @param out receives the buffers to write, in order
     */
    static void chunk(ByteBufAllocator alloc, ByteBuf data, boolean http10, List<ByteBuf> out) {
        if (http10) {
            out.add(data);
            return;
        }
        int n = data.readableBytes();
        if (n <= INLINE_BODY) {
            ByteBuf buf = alloc.buffer(n + 12);
            writeHex(buf, n);
            buf.writeBytes(CRLF).writeBytes(data, data.readerIndex(), n).writeBytes(CRLF);
            data.release();
            out.add(buf);
            return;
        }
        ByteBuf size = alloc.buffer(10);
        writeHex(size, n);
        size.writeBytes(CRLF);
        out.add(size);
        out.add(data);
        out.add(CHUNK_END.duplicate());
    }

    /** @return the last chunk of a chunked body, no trailers */
    static ByteBuf lastChunk() {
        return LAST_CHUNK.duplicate();
    }

    /** @param trailers checked trailer fields ({@code StreamedResponseBody.close(Map)}) @return the last chunk with them */
    static ByteBuf lastChunk(java.util.Map<String, String> trailers) {
        if (trailers.isEmpty()) return lastChunk();
        StringBuilder b = new StringBuilder("0\r\n");
        for (java.util.Map.Entry<String, String> e : trailers.entrySet()) b.append(e.getKey()).append(": ").append(e.getValue()).append("\r\n");
        return io.netty.buffer.Unpooled.wrappedBuffer(b.append("\r\n").toString().getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
    }

    /** @return an interim {@code 100 Continue} */
    static ByteBuf continueResponse() {
        return CONTINUE.duplicate();
    }

    /** @return an upper bound of the bytes {@link #head} writes for {@code r} */
    private int headBound(Reply r) {
        List<String> headers = r.headers();
        // Status line (<= 40), Content-Type prefix, Content-Length (<= 36), Connection (<= 24),
        // Date (37) and the final CRLF take at most 160 bytes; a header line is name: value CRLF.
        int size = 160 + serverLine.length;
        String requestId = r.exchange() == null ? null : r.exchange().echoedRequestId();
        if (requestId != null) size += X_REQUEST_ID.length + requestId.length() + 2;
        for (int i = 0; i < headers.size(); i++) size += headers.get(i).length() + 2;
        CharSequence contentType = r.contentType();
        if (contentType != null) size += contentType.length();
        return size;
    }

    private void head(ByteBuf buf, Reply r, boolean close, boolean http10, boolean chunked) {
        List<String> headers = r.headers();
        CharSequence contentType = r.contentType();
        buf.writeBytes(STATUS_LINES[r.status()]);
        boolean typed = false;
        for (int i = 0; i < headers.size(); i += 2) {
            String name = headers.get(i);
            typed |= name.length() == 12 && name.equalsIgnoreCase("Content-Type");
            buf.writeCharSequence(name, StandardCharsets.US_ASCII);
            buf.writeByte(':').writeByte(' ');
            buf.writeCharSequence(headers.get(i + 1), StandardCharsets.US_ASCII);
            buf.writeBytes(CRLF);
        }
        String requestId = r.exchange() == null ? null : r.exchange().echoedRequestId();
        if (requestId != null) {
            buf.writeBytes(X_REQUEST_ID).writeCharSequence(requestId, StandardCharsets.US_ASCII);
            buf.writeBytes(CRLF);
        }
        if (contentType != null && !typed) {
            buf.writeBytes(CONTENT_TYPE).writeCharSequence(contentType, StandardCharsets.US_ASCII);
            buf.writeBytes(CRLF);
        }
        if (r.contentLength() >= 0) {
            buf.writeBytes(CONTENT_LENGTH);
            writeDecimal(buf, r.contentLength());
            buf.writeBytes(CRLF);
        } else if (chunked) {
            buf.writeBytes(CHUNKED);
        }
        if (close) buf.writeBytes(CLOSE);
        else if (http10) buf.writeBytes(KEEP_ALIVE);
        buf.writeBytes(serverLine).writeBytes(DateHeader.line()).writeBytes(CRLF);
    }

    private static void writeDecimal(ByteBuf buf, long v) {
        if (v < 10) {
            buf.writeByte((int) ('0' + v));
            return;
        }
        int digits = 0;
        for (long t = v; t > 0; t /= 10) digits++;
        int at = buf.writerIndex() + digits;
        buf.ensureWritable(digits);
        for (long t = v; t > 0; t /= 10) buf.setByte(--at, (int) ('0' + t % 10));
        buf.writerIndex(buf.writerIndex() + digits);
    }

    private static void writeHex(ByteBuf buf, int v) {
        String hex = Integer.toHexString(v);
        buf.writeCharSequence(hex, StandardCharsets.US_ASCII);
    }

    /** The RFC 9110 reason phrases; Netty still sends RFC 7231's for 413 and 422. */
    private static String reason(int code) {
        return switch (code) {
            case 413 -> "Content Too Large";
            case 422 -> "Unprocessable Content";
            default -> HttpResponseStatus.valueOf(code).reasonPhrase();
        };
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    private static ByteBuf constant(String s) {
        return Unpooled.unreleasableBuffer(Unpooled.directBuffer(s.length()).writeBytes(ascii(s)).asReadOnly());
    }
}
