package dev.tidemill.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * A raw HTTP/2 client for tests: a plain socket to 127.0.0.1 speaking cleartext HTTP/2 with prior
 * knowledge (RFC 9113 3.3), which writes any frame (invalid ones included: any type, flags, stream
 * id, length or payload) and reads frames back, each within {@link #timeout}. Header blocks are
 * encoded by Netty's HPACK encoder ({@link #hpack}, whose dynamic table this connection keeps), as
 * literal fields in the given order ({@link H2Fields#literal}, for blocks the encoder would reorder),
 * or given as raw bytes; the server's blocks are decoded by Netty's HPACK decoder ({@link H2Hpack}). A SETTINGS frame
 * from the server is acknowledged as it is read (unless {@link #autoAck(boolean)} turns that off).
 *
 * <p>The {@code expect...} methods throw {@link AssertionError} naming the frames they saw.
 */
public final class H2Wire implements AutoCloseable {
    /** Frame types, RFC 9113 6. */
    public static final int DATA = 0, HEADERS = 1, PRIORITY = 2, RST_STREAM = 3, SETTINGS = 4, PUSH_PROMISE = 5,
            PING = 6, GOAWAY = 7, WINDOW_UPDATE = 8, CONTINUATION = 9;
    /** Flags, RFC 9113 6 ({@code ACK} shares END_STREAM's bit). */
    public static final int END_STREAM = 0x1, ACK = 0x1, END_HEADERS = 0x4, PADDED = 0x8, PRIORITY_FLAG = 0x20;
    /** Error codes, RFC 9113 7. */
    public static final int NO_ERROR = 0, PROTOCOL_ERROR = 1, INTERNAL_ERROR = 2, FLOW_CONTROL_ERROR = 3,
            SETTINGS_TIMEOUT = 4, STREAM_CLOSED = 5, FRAME_SIZE_ERROR = 6, REFUSED_STREAM = 7, CANCEL = 8,
            COMPRESSION_ERROR = 9, CONNECT_ERROR = 10, ENHANCE_YOUR_CALM = 11, INADEQUATE_SECURITY = 12,
            HTTP_1_1_REQUIRED = 13;
    /** SETTINGS identifiers, RFC 9113 6.5.2. */
    public static final int HEADER_TABLE_SIZE = 1, ENABLE_PUSH = 2, MAX_CONCURRENT_STREAMS = 3, INITIAL_WINDOW_SIZE = 4,
            MAX_FRAME_SIZE = 5, MAX_HEADER_LIST_SIZE = 6;
    /** The client connection preface, RFC 9113 3.4. */
    public static final byte[] PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    /** What one read frame was. @param type its type @param flags its flags @param streamId its stream @param payload its payload */
    public record Frame(int type, int flags, int streamId, byte[] payload) {
        /** @return whether the flag bits are all set */
        public boolean has(int flag) {
            return (flags & flag) == flag;
        }

        /** @return the error code of a RST_STREAM or GOAWAY */
        public int errorCode() {
            int at = type == GOAWAY ? 4 : 0;
            return H2FrameReader.readInt(payload, at);
        }

        @Override
        public String toString() {
            String name = type < NAMES.length ? NAMES[type] : "TYPE_" + type;
            String extra = type == GOAWAY || type == RST_STREAM ? " error=" + errorCode() : "";
            return name + "(stream=" + streamId + ", flags=0x" + Integer.toHexString(flags) + ", length=" + payload.length
                    + extra + ")";
        }
    }

    private static final String[] NAMES = {"DATA", "HEADERS", "PRIORITY", "RST_STREAM", "SETTINGS", "PUSH_PROMISE", "PING",
            "GOAWAY", "WINDOW_UPDATE", "CONTINUATION"};

    private final Socket socket;
    private final H2FrameReader reader;
    private final OutputStream out;
    private final H2Hpack hpack = new H2Hpack();
    private boolean autoAck = true;

    private H2Wire(Socket socket) throws IOException {
        this.socket = socket;
        this.reader = new H2FrameReader(socket);
        this.out = socket.getOutputStream();
    }

    /**
     * @param port a Tidemill plain port on 127.0.0.1
     * @return a connected client that has written nothing yet
     */
    public static H2Wire connect(int port) {
        return connect(port, 0);
    }

    /**
     * @param port a Tidemill plain port on 127.0.0.1
     * @param receiveBufferBytes the socket's receive buffer (SO_RCVBUF), small for a client that
     *     does not read; 0 for the system's default
     * @return a connected client that has written nothing yet
     */
    public static H2Wire connect(int port, int receiveBufferBytes) {
        try {
            Socket s = new Socket();
            if (receiveBufferBytes > 0) s.setReceiveBufferSize(receiveBufferBytes);
            s.connect(new java.net.InetSocketAddress("127.0.0.1", port));
            s.setTcpNoDelay(true);
            return new H2Wire(s);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Connects, writes the preface and an empty SETTINGS frame, and reads until the server's
     * SETTINGS (acknowledged) and its acknowledgement of ours have both arrived: h2spec's handshake.
     *
     * @param port a Tidemill plain port on 127.0.0.1
     * @return the connected client
     */
    public static H2Wire open(int port) {
        H2Wire w = connect(port);
        w.handshake();
        return w;
    }

    /** @param t how long each read waits (default 5 s) @return this */
    public H2Wire timeout(Duration t) {
        reader.timeout(t);
        return this;
    }

    /** @param on whether frames read are kept for {@link #seen} and failure messages (default on) @return this */
    H2Wire keepFrames(boolean on) {
        reader.keepFrames(on);
        return this;
    }

    /** @param on whether a server SETTINGS frame is acknowledged as it is read (default on) @return this */
    public H2Wire autoAck(boolean on) {
        this.autoAck = on;
        return this;
    }

    /**
     * @param bytes the largest dynamic table the server's blocks may use (what this client
     *     advertised as SETTINGS_HEADER_TABLE_SIZE; 4,096 by default)
     * @return this
     */
    public H2Wire decoderTableSize(long bytes) {
        hpack.decoderTableSize(bytes);
        return this;
    }

    /** @return the settings of the server's first SETTINGS frame */
    public Map<Integer, Long> serverSettings() {
        return reader.serverSettings();
    }

    /** Writes the preface and SETTINGS (given as identifier, value pairs), then waits for both SETTINGS exchanges. */
    public H2Wire handshake(long... settings) {
        preface();
        settings(settings);
        boolean gotServer = false, gotAck = false;
        while (!gotServer || !gotAck) {
            Frame f = read();
            if (f == null) throw new AssertionError("closed during the handshake; saw " + seen());
            if (f.type() == SETTINGS && f.has(ACK)) gotAck = true;
            else if (f.type() == SETTINGS) gotServer = true;
        }
        return this;
    }

    /** Writes the 24-byte preface. @return this */
    public H2Wire preface() {
        return raw(PREFACE);
    }

    /** Writes bytes as they are. @return this */
    public H2Wire raw(byte[] bytes) {
        try {
            out.write(bytes);
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    /** @return whether the last writes failed because the peer closed (for floods that write past a GOAWAY) */
    public boolean tryRaw(byte[] bytes) {
        try {
            out.write(bytes);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** Flushes buffered writes (a no-op for a socket stream, kept for symmetry). */
    public H2Wire flush() {
        try {
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    /**
     * @param length the length field written (may differ from the payload's, to lie)
     * @return a frame's bytes: the 9-byte header and the payload
     */
    public static byte[] frameBytes(int length, int type, int flags, int streamId, byte[] payload) {
        byte[] b = new byte[9 + payload.length];
        b[0] = (byte) (length >>> 16);
        b[1] = (byte) (length >>> 8);
        b[2] = (byte) length;
        b[3] = (byte) type;
        b[4] = (byte) flags;
        b[5] = (byte) (streamId >>> 24);
        b[6] = (byte) (streamId >>> 16);
        b[7] = (byte) (streamId >>> 8);
        b[8] = (byte) streamId;
        System.arraycopy(payload, 0, b, 9, payload.length);
        return b;
    }

    /** @return a frame's bytes, its length field the payload's */
    public static byte[] frameBytes(int type, int flags, int streamId, byte[] payload) {
        return frameBytes(payload.length, type, flags, streamId, payload);
    }

    /** Writes one frame (stream id written as given, reserved bit included). @return this */
    public H2Wire frame(int type, int flags, int streamId, byte[] payload) {
        return raw(frameBytes(type, flags, streamId, payload));
    }

    /** Writes SETTINGS with identifier, value pairs. @return this */
    public H2Wire settings(long... pairs) {
        byte[] p = new byte[pairs.length / 2 * 6];
        for (int i = 0; i + 1 < pairs.length; i += 2) {
            int at = i / 2 * 6;
            p[at] = (byte) (pairs[i] >>> 8);
            p[at + 1] = (byte) pairs[i];
            putInt(p, at + 2, (int) pairs[i + 1]);
        }
        return frame(SETTINGS, 0, 0, p);
    }

    /** Writes a SETTINGS acknowledgement. @return this */
    public H2Wire settingsAck() {
        return frame(SETTINGS, ACK, 0, new byte[0]);
    }

    /** Writes a PING with 8 bytes of opaque data. @return this */
    public H2Wire ping(int flags, byte[] opaque) {
        return frame(PING, flags, 0, opaque);
    }

    /** Writes RST_STREAM. @return this */
    public H2Wire rstStream(int streamId, int errorCode) {
        return frame(RST_STREAM, 0, streamId, intBytes(errorCode));
    }

    /** Writes WINDOW_UPDATE. @return this */
    public H2Wire windowUpdate(int streamId, int increment) {
        return frame(WINDOW_UPDATE, 0, streamId, intBytes(increment));
    }

    /** Writes GOAWAY. @return this */
    public H2Wire goAway(int lastStreamId, int errorCode) {
        byte[] p = new byte[8];
        putInt(p, 0, lastStreamId);
        putInt(p, 4, errorCode);
        return frame(GOAWAY, 0, 0, p);
    }

    /** Writes PRIORITY. @return this */
    public H2Wire priority(int streamId, int dependency, boolean exclusive, int weight) {
        return frame(PRIORITY, 0, streamId, priorityBytes(dependency, exclusive, weight));
    }

    /** Writes DATA. @return this */
    public H2Wire data(int streamId, int flags, byte[] payload) {
        return frame(DATA, flags, streamId, payload);
    }

    /** @return the 5-byte priority fields (dependency, exclusive bit, weight - 1 as written) */
    public static byte[] priorityBytes(int dependency, boolean exclusive, int weight) {
        byte[] p = new byte[5];
        putInt(p, 0, exclusive ? dependency | 0x80000000 : dependency);
        p[4] = (byte) weight;
        return p;
    }

    /**
     * Encodes fields with Netty's HPACK encoder (and this connection's dynamic table). Netty puts
     * pseudo-header fields first; use {@link H2Fields#literal} for other orders.
     *
     * @param nameValues name, value, name, value...
     * @return the header block
     */
    public byte[] hpack(String... nameValues) {
        return hpack.encode(nameValues);
    }

    /** Writes HEADERS carrying a block (END_HEADERS is the caller's flag to give). @return this */
    public H2Wire headers(int streamId, int flags, byte[] block) {
        return frame(HEADERS, flags, streamId, block);
    }

    /** Writes a GET request for {@code path} in one HEADERS frame with END_HEADERS and END_STREAM. @return this */
    public H2Wire request(int streamId, String path) {
        return headers(streamId, END_HEADERS | END_STREAM, hpack(H2Fields.get(path)));
    }

    /** Writes CONTINUATION. @return this */
    public H2Wire continuation(int streamId, int flags, byte[] fragment) {
        return frame(CONTINUATION, flags, streamId, fragment);
    }

    /**
     * Reads one frame, acknowledging a server SETTINGS when {@link #autoAck} is on.
     *
     * @return the frame, or null when the server closed the connection (EOF or reset)
     * @throws AssertionError when nothing arrives within the timeout
     */
    public Frame read() {
        try {
            return next();
        } catch (SocketTimeoutException e) {
            throw new AssertionError(e.getMessage());
        }
    }

    /**
     * {@link #read()}, with a timeout reported as the socket reports it (for {@link H2StreamPipe},
     * whose readers expect {@link SocketTimeoutException}).
     */
    Frame next() throws SocketTimeoutException {
        Frame f = reader.next();
        if (autoAck && f != null && f.type() == SETTINGS && !f.has(ACK)) tryRaw(frameBytes(SETTINGS, ACK, 0, new byte[0]));
        return f;
    }

    /** @return whether the server closed the connection (EOF or reset seen) or {@link #close} ran */
    boolean isClosed() {
        return reader.isClosed();
    }

    /** @return the frames read so far */
    public List<Frame> seen() {
        return reader.seen();
    }

    /**
     * Reads until a GOAWAY, and asserts its code is one of {@code codes}, then that the connection closes.
     *
     * @return the GOAWAY
     */
    public Frame expectGoAway(int... codes) {
        for (;;) {
            Frame f = read();
            if (f == null) throw new AssertionError("closed without GOAWAY " + Arrays.toString(codes) + "; saw " + seen());
            if (f.type() == GOAWAY) {
                if (Arrays.stream(codes).noneMatch(c -> c == f.errorCode())) {
                    throw new AssertionError("GOAWAY " + f.errorCode() + ", expected " + Arrays.toString(codes) + "; saw " + seen());
                }
                expectClosed();
                return f;
            }
        }
    }

    /** Reads until a RST_STREAM on the stream, and asserts its code is one of {@code codes}. */
    public Frame expectRstStream(int streamId, int... codes) {
        for (;;) {
            Frame f = read();
            if (f == null) throw new AssertionError("closed without RST_STREAM on " + streamId + "; saw " + seen());
            if (f.type() == GOAWAY) throw new AssertionError("GOAWAY instead of RST_STREAM on " + streamId + "; saw " + seen());
            if (f.type() == RST_STREAM && f.streamId() == streamId) {
                if (Arrays.stream(codes).noneMatch(c -> c == f.errorCode())) {
                    throw new AssertionError("RST_STREAM " + f.errorCode() + ", expected " + Arrays.toString(codes) + "; saw " + seen());
                }
                return f;
            }
        }
    }

    /**
     * A stream error (RST_STREAM with one of the codes) or, where RFC 9113 lets an endpoint widen it, a
     * connection error (GOAWAY with one of the codes, then close).
     */
    public Frame expectStreamOrConnectionError(int streamId, int... codes) {
        for (;;) {
            Frame f = read();
            if (f == null) throw new AssertionError("closed without an error frame; saw " + seen());
            boolean rst = f.type() == RST_STREAM && f.streamId() == streamId;
            if (rst || f.type() == GOAWAY) {
                if (Arrays.stream(codes).noneMatch(c -> c == f.errorCode())) {
                    throw new AssertionError(f + ", expected " + Arrays.toString(codes) + "; saw " + seen());
                }
                if (!rst) expectClosed();
                return f;
            }
        }
    }

    /**
     * Reads the response head on the stream (HEADERS and any CONTINUATION), failing on RST_STREAM or GOAWAY.
     *
     * @return its {@code :status}
     */
    public int expectStatus(int streamId) {
        return Integer.parseInt(expectHeaders(streamId).get(":status").get(0));
    }

    /** @return the fields of the next header block on the stream, name to values in order */
    public Map<String, List<String>> expectHeaders(int streamId) {
        ByteArrayOutputStream block = null;
        for (;;) {
            Frame f = read();
            if (f == null) throw new AssertionError("closed before a response on " + streamId + "; saw " + seen());
            if (f.type() == GOAWAY || (f.type() == RST_STREAM && f.streamId() == streamId)) {
                throw new AssertionError(f + " instead of a response on " + streamId + "; saw " + seen());
            }
            if (f.streamId() != streamId) continue;
            if (f.type() == HEADERS) {
                block = new ByteArrayOutputStream();
                block.writeBytes(headerFragment(f));
            } else if (f.type() == CONTINUATION && block != null) {
                block.writeBytes(f.payload());
            } else {
                continue;
            }
            if (f.has(END_HEADERS)) return decode(block.toByteArray());
        }
    }

    private Map<String, List<String>> trailers = Map.of();

    /** @return the trailer fields of the last body {@link #expectBody} read (a HEADERS frame after DATA), empty for none */
    public Map<String, List<String>> trailers() {
        return trailers;
    }

    /** Reads the rest of the stream's response body (DATA until END_STREAM), granting window as it goes. */
    public byte[] expectBody(int streamId) {
        trailers = Map.of();
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        for (;;) {
            Frame f = read();
            if (f == null) throw new AssertionError("closed before the end of " + streamId + "; saw " + seen());
            if (f.type() == GOAWAY || (f.type() == RST_STREAM && f.streamId() == streamId)) {
                throw new AssertionError(f + " before the end of " + streamId + "; saw " + seen());
            }
            if (f.streamId() != streamId) continue;
            if (f.type() == DATA) {
                byte[] p = f.payload();
                int pad = f.has(PADDED) ? (p[0] & 0xff) + 1 : 0;
                body.write(p, f.has(PADDED) ? 1 : 0, p.length - pad);
                if (p.length > 0) {
                    tryRaw(frameBytes(WINDOW_UPDATE, 0, 0, intBytes(p.length)));
                    tryRaw(frameBytes(WINDOW_UPDATE, 0, streamId, intBytes(p.length)));
                }
            }
            if (f.type() == HEADERS) trailers = f.has(END_HEADERS) ? decode(headerFragment(f)) : Map.of();
            if ((f.type() == DATA || f.type() == HEADERS) && f.has(END_STREAM)) return body.toByteArray();
        }
    }

    /** Reads until a frame of the type arrives (any stream), failing on close. @return it */
    public Frame expectFrame(int type) {
        for (;;) {
            Frame f = read();
            if (f == null) throw new AssertionError("closed before a " + NAMES[type] + "; saw " + seen());
            if (f.type() == type) return f;
        }
    }

    /** Reads a PING acknowledgement carrying {@code opaque}, skipping other frames. */
    public Frame expectPingAck(byte[] opaque) {
        for (;;) {
            Frame f = expectFrame(PING);
            if (f.has(ACK) && Arrays.equals(f.payload(), opaque)) return f;
        }
    }

    /** Reads and drops frames until the server closes; fails if it does not within the timeout. */
    public void expectClosed() {
        while (read() != null) {
            // frames the server sent before closing
        }
    }

    /**
     * Asserts the connection is still usable: a PING is answered (frames before its ACK are skipped,
     * but a GOAWAY fails).
     */
    public void expectAlive() {
        byte[] opaque = "alive!!!".getBytes(StandardCharsets.US_ASCII);
        ping(0, opaque);
        for (;;) {
            Frame f = read();
            if (f == null) throw new AssertionError("closed, expected to stay open; saw " + seen());
            if (f.type() == GOAWAY) throw new AssertionError("GOAWAY, expected to stay open; saw " + seen());
            if (f.type() == PING && f.has(ACK) && Arrays.equals(f.payload(), opaque)) return;
        }
    }

    static byte[] headerFragment(Frame f) {
        byte[] p = f.payload();
        int start = 0, end = p.length;
        if (f.has(PADDED)) {
            end -= p[0] & 0xff;
            start = 1;
        }
        if (f.has(PRIORITY_FLAG)) start += 5;
        return Arrays.copyOfRange(p, start, end);
    }

    Map<String, List<String>> decode(byte[] block) {
        return hpack.decode(block);
    }

    /** @return 4 bytes, big-endian */
    public static byte[] intBytes(int v) {
        byte[] b = new byte[4];
        putInt(b, 0, v);
        return b;
    }

    private static void putInt(byte[] b, int at, int v) {
        b[at] = (byte) (v >>> 24);
        b[at + 1] = (byte) (v >>> 16);
        b[at + 2] = (byte) (v >>> 8);
        b[at + 3] = (byte) v;
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing a test socket
        }
    }
}
