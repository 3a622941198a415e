package dev.tidemill.bench.streams;

import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * An HTTP/1.1 response head read off the raw bytes of a load-client connection (the SSE subscribe
 * answer, the WebSocket handshake's 101): once per connection, so Strings are fine here; what
 * follows the head is the hot path and is read without Netty's HTTP codec.
 *
 * @param status the status code
 * @param headers header values by lower-case name (a repeated name keeps its last value)
 * @param length bytes of the head, the blank line included
 */
record ResponseHead(int status, Map<String, String> headers, int length) {
    /** Longest head accepted, bytes. */
    static final int MAX_LENGTH = 8192;

    /**
     * @param b bytes from the start of the response (from its reader index; not moved)
     * @return the head, or empty while its blank line has not arrived
     * @throws IllegalStateException if the head is malformed or longer than {@link #MAX_LENGTH}
     */
    static Optional<ResponseHead> parse(ByteBuf b) {
        int start = b.readerIndex(), end = b.writerIndex();
        int blank = -1;
        for (int i = start; i + 3 < end; i++) {
            if (b.getByte(i) == '\r' && b.getByte(i + 1) == '\n' && b.getByte(i + 2) == '\r' && b.getByte(i + 3) == '\n') {
                blank = i;
                break;
            }
        }
        if (blank < 0) {
            if (end - start > MAX_LENGTH) throw new IllegalStateException("response head longer than " + MAX_LENGTH + " bytes");
            return Optional.empty();
        }
        String[] lines = b.toString(start, blank - start, StandardCharsets.ISO_8859_1).split("\r\n");
        String[] statusLine = lines[0].split(" ", 3);
        if (statusLine.length < 2 || !statusLine[0].startsWith("HTTP/1.")) {
            throw new IllegalStateException("not an HTTP/1.x status line: " + lines[0]);
        }
        int status;
        try {
            status = Integer.parseInt(statusLine[1]);
        } catch (NumberFormatException e) {
            throw new IllegalStateException("not an HTTP/1.x status line: " + lines[0]);
        }
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            if (colon <= 0) throw new IllegalStateException("malformed header line: " + lines[i]);
            headers.put(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT), lines[i].substring(colon + 1).trim());
        }
        return Optional.of(new ResponseHead(status, Map.copyOf(headers), blank + 4 - start));
    }

    /**
     * @param name any case
     * @return its value, or "" if absent
     */
    String header(String name) {
        return headers.getOrDefault(name.toLowerCase(Locale.ROOT), "");
    }

    /** @return whether the body is chunked (RFC 9112 6.1: chunked is the final transfer coding) */
    boolean chunked() {
        String te = header("transfer-encoding").toLowerCase(Locale.ROOT);
        return te.endsWith("chunked");
    }
}
