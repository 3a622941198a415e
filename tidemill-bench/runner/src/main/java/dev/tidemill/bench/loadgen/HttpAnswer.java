package dev.tidemill.bench.loadgen;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * An HTTP/1.1 response read from a blocking stream: the status, the body (by
 * {@code Content-Length} or chunked, at most {@value #MAX_BODY} bytes: the uploads suite's answers
 * are a number) and whether the server will close the connection.
 *
 * @param status the status code
 * @param body the body as text
 * @param close whether the connection ends after this response ({@code Connection: close}, or a
 *     body delimited by the connection's end)
 */
public record HttpAnswer(int status, String body, boolean close) {
    /** The largest body read, bytes. */
    static final int MAX_BODY = 64 * 1024;

    /**
     * @param in the connection's input, buffered
     * @return the next response
     * @throws IOException if the connection ends or the response is malformed
     */
    public static HttpAnswer read(InputStream in) throws IOException {
        String status = line(in);
        if (!status.startsWith("HTTP/1.")) throw new IOException("not an HTTP/1.x status line: " + status);
        int code = Integer.parseInt(status.substring(9, 12));
        long length = -1;
        boolean chunked = false, close = status.startsWith("HTTP/1.0");
        for (String h = line(in); !h.isEmpty(); h = line(in)) {
            int colon = h.indexOf(':');
            if (colon < 0) throw new IOException("malformed header: " + h);
            String name = h.substring(0, colon).trim().toLowerCase(Locale.ROOT);
            String value = h.substring(colon + 1).trim().toLowerCase(Locale.ROOT);
            switch (name) {
                case "content-length" -> length = Long.parseLong(value);
                case "transfer-encoding" -> chunked = value.contains("chunked");
                case "connection" -> close = value.contains("close") || (close && !value.contains("keep-alive"));
                default -> { }
            }
        }
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        if (chunked) {
            for (long size = chunkSize(line(in)); size > 0; size = chunkSize(line(in))) {
                copy(in, body, size);
                if (!line(in).isEmpty()) throw new IOException("no CRLF after a chunk");
            }
            while (!line(in).isEmpty()) { } // trailers
        } else if (length >= 0) {
            copy(in, body, length);
        } else if (code >= 200 && code != 204 && code != 304) {
            copy(in, body, Long.MAX_VALUE); // delimited by the end of the connection
            close = true;
        }
        return new HttpAnswer(code, body.toString(StandardCharsets.UTF_8), close);
    }

    private static long chunkSize(String line) throws IOException {
        int semi = line.indexOf(';');
        try {
            return Long.parseLong((semi < 0 ? line : line.substring(0, semi)).trim(), 16);
        } catch (NumberFormatException e) {
            throw new IOException("malformed chunk size: " + line);
        }
    }

    private static void copy(InputStream in, ByteArrayOutputStream to, long n) throws IOException {
        byte[] buf = new byte[8192];
        while (n > 0) {
            int r = in.read(buf, 0, (int) Math.min(buf.length, n));
            if (r < 0) {
                if (n == Long.MAX_VALUE) return; // read to the end of the connection
                throw new EOFException("connection ended inside a response body");
            }
            if (to.size() + r > MAX_BODY) throw new IOException("response body over " + MAX_BODY + " bytes");
            to.write(buf, 0, r);
            if (n != Long.MAX_VALUE) n -= r;
        }
    }

    private static String line(InputStream in) throws IOException {
        StringBuilder b = new StringBuilder();
        for (int c = in.read(); c != '\n'; c = in.read()) {
            if (c < 0) throw new EOFException(b.isEmpty() ? "connection closed before a response" : "connection ended inside a line");
            if (b.length() > 8192) throw new IOException("response line over 8 KiB");
            if (c != '\r') b.append((char) c);
        }
        return b.toString();
    }
}
