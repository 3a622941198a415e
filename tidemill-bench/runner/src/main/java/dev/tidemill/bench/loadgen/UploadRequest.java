package dev.tidemill.bench.loadgen;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * One upload request on the wire: an HTTP/1.1 head (keep-alive, no {@code Expect: 100-continue}:
 * the body follows the head at once, as most load tools and programmatic clients send it) and
 * the body framed by {@code Content-Length} or as chunks of the scratch buffer's size.
 *
 * @param method {@code PUT} or {@code POST}
 * @param path the request target
 * @param body what is sent
 * @param framing how the body is framed
 */
public record UploadRequest(String method, String path, UploadBody body, Framing framing) {
    /** How the body's end is marked. */
    public enum Framing {
        /** {@code Content-Length: <bytes>}. */
        CONTENT_LENGTH,
        /** {@code Transfer-Encoding: chunked}, one chunk per scratch buffer, then the last chunk. */
        CHUNKED
    }

    /**
     * @param authority the {@code Host} header's value
     * @return the head's bytes
     */
    public byte[] head(String authority) {
        String length = framing == Framing.CHUNKED ? "Transfer-Encoding: chunked\r\n" : "Content-Length: " + body.length() + "\r\n";
        return (method + " " + path + " HTTP/1.1\r\nHost: " + authority + "\r\nContent-Type: " + body.contentType() + "\r\n"
                + length + "\r\n").getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * Writes the head and the whole body, then flushes.
     *
     * @param out where to (buffered by the caller: a small request goes out in one write)
     * @param authority the {@code Host} header's value
     * @param scratch the buffer the body passes through; its length is the chunk size
     * @throws IOException if the connection fails
     */
    public void write(OutputStream out, String authority, byte[] scratch) throws IOException {
        out.write(head(authority));
        UploadBody.Cursor cursor = body.open();
        int n;
        while ((n = cursor.read(scratch, 0, scratch.length)) > 0) {
            if (framing == Framing.CHUNKED) out.write((Integer.toHexString(n) + "\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write(scratch, 0, n);
            if (framing == Framing.CHUNKED) out.write(CRLF);
        }
        if (framing == Framing.CHUNKED) out.write(LAST_CHUNK);
        out.flush();
    }

    private static final byte[] CRLF = {'\r', '\n'};
    private static final byte[] LAST_CHUNK = "0\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
}
