package dev.tidemill.bench;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One {@code GET} to a target on 127.0.0.1 over a fresh connection, outside any measured window
 * (the memory suite's first-answer probe, the diagnostics read around each window).
 */
final class LoopbackGet {
    private static final Pattern CONTENT_LENGTH = Pattern.compile("(?im)^content-length:\\s*(\\d+)");

    private LoopbackGet() {}

    /**
     * @param port the target's port
     * @param path the request path
     * @param connectTimeoutMillis how long the connect may take
     * @return the whole answer (head and body) as ISO-8859-1 text
     * @throws IOException if the connection fails or times out (5 s to read)
     */
    static String get(int port, String path, int connectTimeoutMillis) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), connectTimeoutMillis);
            s.setSoTimeout(5_000);
            OutputStream o = s.getOutputStream();
            o.write(("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            o.flush();
            return readResponse(s.getInputStream());
        }
    }

    /** Reads one response: until its Content-Length is complete, or the peer closes. */
    static String readResponse(InputStream in) throws IOException {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        byte[] chunk = new byte[4096];
        int n;
        while ((n = in.read(chunk)) > 0) {
            buf.write(chunk, 0, n);
            String text = buf.toString(StandardCharsets.ISO_8859_1);
            int end = text.indexOf("\r\n\r\n");
            if (end < 0) continue;
            Matcher m = CONTENT_LENGTH.matcher(text.substring(0, end));
            if (m.find() && text.length() >= end + 4 + Integer.parseInt(m.group(1))) return text;
        }
        return buf.toString(StandardCharsets.ISO_8859_1);
    }
}
