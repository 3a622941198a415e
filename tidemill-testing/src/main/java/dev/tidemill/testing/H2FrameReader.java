package dev.tidemill.testing;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The reading side of one {@link H2Wire} connection: frames off the socket, each within the timeout,
 * the frames read so far (for failure messages), the settings of the server's first SETTINGS frame,
 * and whether the server has closed.
 */
final class H2FrameReader {
    private final Socket socket;
    private final DataInputStream in;
    private final List<H2Wire.Frame> seen = new ArrayList<>();
    private final Map<Integer, Long> serverSettings = new TreeMap<>();
    /** Whether {@link #seen} keeps what was read (off for a long-lived tunnel, whose frames would pile up). */
    private boolean keepFrames = true;
    private Duration timeout = Duration.ofSeconds(5);
    private boolean closed;

    /** @param socket the connection, read from here on by this reader only */
    H2FrameReader(Socket socket) throws IOException {
        this.socket = socket;
        this.in = new DataInputStream(new java.io.BufferedInputStream(socket.getInputStream()));
    }

    void timeout(Duration t) {
        this.timeout = t;
    }

    void keepFrames(boolean on) {
        this.keepFrames = on;
    }

    /** @return the settings of the server's first SETTINGS frame (identifier to value), empty before it */
    Map<Integer, Long> serverSettings() {
        return serverSettings;
    }

    /** @return the frames read so far (those read while {@link #keepFrames} was on) */
    List<H2Wire.Frame> seen() {
        return List.copyOf(seen);
    }

    /** @return whether the server closed the connection (EOF or reset seen) or the socket was closed */
    boolean isClosed() {
        return closed || socket.isClosed();
    }

    /**
     * @return the next frame, or null once the server closed the connection (EOF or reset)
     * @throws SocketTimeoutException when no frame, or no whole frame, arrives within the timeout
     */
    H2Wire.Frame next() throws SocketTimeoutException {
        if (closed) return null;
        try {
            socket.setSoTimeout((int) timeout.toMillis());
            int b0;
            try {
                b0 = in.read();
            } catch (SocketTimeoutException e) {
                throw new SocketTimeoutException("no frame within " + timeout + "; saw " + seen);
            }
            if (b0 < 0) return eof();
            byte[] h = new byte[8];
            in.readFully(h);
            int length = (b0 << 16) | ((h[0] & 0xff) << 8) | (h[1] & 0xff);
            byte[] payload = new byte[length];
            in.readFully(payload);
            H2Wire.Frame f = new H2Wire.Frame(h[2] & 0xff, h[3] & 0xff, readInt(h, 4) & 0x7fffffff, payload);
            if (keepFrames) seen.add(f);
            if (f.type() == H2Wire.SETTINGS && !f.has(H2Wire.ACK) && serverSettings.isEmpty()) {
                for (int i = 0; i + 5 < payload.length; i += 6) {
                    serverSettings.put(((payload[i] & 0xff) << 8) | (payload[i + 1] & 0xff), readInt(payload, i + 2) & 0xffffffffL);
                }
            }
            return f;
        } catch (SocketTimeoutException e) {
            if (e.getMessage() != null && e.getMessage().startsWith("no frame")) throw e;
            throw new SocketTimeoutException("a frame cut short after " + timeout + "; saw " + seen);
        } catch (EOFException e) {
            return eof();
        } catch (IOException e) {
            return eof(); // connection reset: closed too
        }
    }

    private H2Wire.Frame eof() {
        closed = true;
        return null;
    }

    /** @return the big-endian int at {@code at} */
    static int readInt(byte[] b, int at) {
        return ((b[at] & 0xff) << 24) | ((b[at + 1] & 0xff) << 16) | ((b[at + 2] & 0xff) << 8) | (b[at + 3] & 0xff);
    }
}
