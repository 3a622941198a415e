package dev.tidemill.testing;

import java.io.IOException;
import java.io.InputStream;
import java.net.ProtocolException;
import java.net.SocketException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One HTTP/2 stream opened by an extended CONNECT (RFC 8441) as a {@link Pipe}, over cleartext
 * HTTP/2 with prior knowledge on a connection of its own: what {@link WebSocketClient} reads and
 * writes over HTTP/2. Writes become DATA frames within the windows the server grants (frames read
 * while waiting for window are kept for later reads); the server's DATA becomes the input stream,
 * its window given back as it arrives; END_STREAM or a reset from the server is the end of the
 * input, as a FIN or a reset is on a socket. Built on {@link H2Wire}. Not thread-safe.
 */
final class H2StreamPipe extends InputStream implements Pipe {
    private static final int STREAM = 1;

    private final H2Wire wire;
    private final ArrayDeque<byte[]> unread = new ArrayDeque<>();
    private int offset;
    private Map<String, List<String>> head;
    private boolean inputEnded;
    private String endedBy;
    private final H2Flow flow;

    private H2StreamPipe(H2Wire wire, Duration timeout) {
        this.wire = wire;
        this.wireTimeout = timeout;
        this.flow = new H2Flow(wire, STREAM);
    }

    /**
     * Connects, checks the server offers extended CONNECT (SETTINGS_ENABLE_CONNECT_PROTOCOL, RFC
     * 8441 3), sends the CONNECT and reads the response head.
     *
     * @param port the server's plain port on 127.0.0.1
     * @param authority {@code :authority}
     * @param path {@code :path}
     * @param protocol {@code :protocol}, e.g. {@code websocket}
     * @param fields more fields as name, value pairs (lower-cased here, as HTTP/2 requires)
     * @param timeout how long each read waits
     * @return the open stream, its head read ({@link #head()})
     * @throws IOException if the server does not offer extended CONNECT, or the connection fails
     */
    static H2StreamPipe open(int port, String authority, String path, String protocol, List<String> fields, Duration timeout)
            throws IOException {
        H2Wire wire = H2Wire.open(port).timeout(timeout).keepFrames(false);
        H2StreamPipe pipe = new H2StreamPipe(wire, timeout);
        try {
            if (wire.serverSettings().getOrDefault(ENABLE_CONNECT_PROTOCOL, 0L) != 1L) {
                throw new ProtocolException("the server's SETTINGS do not enable extended CONNECT (RFC 8441 3): "
                        + wire.serverSettings());
            }
            List<String> block = new ArrayList<>(List.of(":method", "CONNECT", ":protocol", protocol, ":scheme", "http",
                    ":path", path, ":authority", authority));
            for (int i = 0; i + 1 < fields.size(); i += 2) {
                block.add(fields.get(i).toLowerCase(Locale.ROOT));
                block.add(fields.get(i + 1));
            }
            wire.headers(STREAM, H2Wire.END_HEADERS, wire.hpack(block.toArray(String[]::new)));
            while (pipe.head == null) {
                if (!pipe.pump()) throw new SocketException("the stream ended before its response: " + pipe.endedBy);
            }
            return pipe;
        } catch (IOException | RuntimeException e) {
            wire.close();
            throw e;
        }
    }

    /** RFC 8441 3: SETTINGS_ENABLE_CONNECT_PROTOCOL. */
    static final int ENABLE_CONNECT_PROTOCOL = 8;

    /** @return the response head's fields, {@code :status} among them */
    Map<String, List<String>> head() {
        return head;
    }

    /** @return the response's status */
    int status() {
        return Integer.parseInt(head.get(":status").get(0));
    }

    /**
     * Reads one frame and files it.
     *
     * @return false when the stream or connection has ended and nothing more will come
     */
    private boolean pump() throws IOException {
        if (inputEnded) return false;
        H2Wire.Frame f = wire.next();
        if (f == null) {
            end("the connection closed");
            return false;
        }
        switch (f.type()) {
            case H2Wire.DATA -> {
                if (f.streamId() != STREAM) return true;
                byte[] data = flow.received(f);
                if (data.length > 0) unread.add(data);
                if (f.has(H2Wire.END_STREAM)) end("END_STREAM");
            }
            case H2Wire.HEADERS -> {
                if (f.streamId() != STREAM) return true;
                if (!f.has(H2Wire.END_HEADERS)) throw new ProtocolException("a header block in CONTINUATION frames: not read here");
                Map<String, List<String>> fields = wire.decode(H2Wire.headerFragment(f));
                if (head == null) head = fields; // trailers after it are not looked at
                if (f.has(H2Wire.END_STREAM)) end("END_STREAM");
            }
            case H2Wire.RST_STREAM -> {
                if (f.streamId() == STREAM) end("RST_STREAM " + f.errorCode());
            }
            case H2Wire.WINDOW_UPDATE -> flow.granted(f);
            case H2Wire.PING -> {
                if (!f.has(H2Wire.ACK)) wire.ping(H2Wire.ACK, f.payload());
            }
            default -> { } // SETTINGS (acknowledged by the wire), GOAWAY (the stream may still finish), PRIORITY
        }
        return true;
    }

    private void end(String why) {
        inputEnded = true;
        endedBy = why;
    }

    // ---- Pipe ----

    @Override
    public InputStream input() {
        return this;
    }

    @Override
    public void write(byte[] bytes) throws IOException {
        int at = 0;
        while (at < bytes.length) {
            if (inputEnded && endedBy.startsWith("RST") || wire.isClosed()) {
                throw new SocketException("the stream is gone (" + endedBy + ")");
            }
            int n = flow.sendable(bytes.length - at);
            if (n == 0) { // wait for WINDOW_UPDATE; a stream that ends meanwhile never sends one (a broken pipe)
                if (!pump()) throw new SocketException("the stream ended (" + endedBy + ") while a write waited for window");
                continue;
            }
            if (!wire.tryRaw(H2Wire.frameBytes(H2Wire.DATA, 0, STREAM, java.util.Arrays.copyOfRange(bytes, at, at + n)))) {
                throw new SocketException("the connection closed while writing");
            }
            flow.sent(n);
            at += n;
        }
        wire.flush();
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        int n = read(one, 0, 1);
        return n < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) return 0;
        while (unread.isEmpty()) {
            if (!pump() && unread.isEmpty()) {
                if (endedBy != null && endedBy.startsWith("RST")) throw new SocketException("stream reset: " + endedBy);
                return -1;
            }
        }
        byte[] first = unread.peek();
        int n = Math.min(len, first.length - offset);
        System.arraycopy(first, offset, b, off, n);
        offset += n;
        if (offset == first.length) {
            unread.poll();
            offset = 0;
        }
        return n;
    }

    @Override
    public int available() {
        int n = 0;
        for (byte[] b : unread) n += b.length;
        return n - offset;
    }

    @Override
    public int readTimeout() {
        return (int) wireTimeout.toMillis();
    }

    private Duration wireTimeout;

    @Override
    public void readTimeout(int millis) {
        wireTimeout = Duration.ofMillis(millis);
        wire.timeout(wireTimeout);
    }

    @Override
    public void shutdownOutput() {
        wire.tryRaw(H2Wire.frameBytes(H2Wire.DATA, H2Wire.END_STREAM, STREAM, new byte[0]));
    }

    @Override
    public boolean isClosed() {
        return wire.isClosed();
    }

    @Override
    public void close() {
        wire.close();
    }
}
