package dev.tidemill.testing;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ProtocolException;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;

/**
 * A WebSocket client (RFC 6455) over a plain socket, from {@link TestClient#webSocket}: the
 * handshake is done and checked when it is returned. It sends masked frames, reads the server's
 * frames strictly (a masked, malformed or badly fragmented server frame fails the read with a
 * {@link ProtocolException}), and speaks permessage-deflate (RFC 7692) when the test offered it
 * and the server agreed. Every read is bounded by the client's timeout. Not thread-safe.
 *
 * <pre>{@code
 * try (WebSocketClient ws = client.webSocket("/ws/echo")) {
 *     ws.send("hello");
 *     assertThat(ws.nextMessage().orElseThrow().text()).isEqualTo("hello");
 *     assertThat(ws.close(1000, "bye").code()).isEqualTo(1000);
 * }
 * }</pre>
 *
 * <p>For hostile peers: {@link #sendFrame(WebSocketFrame, boolean)} sends any frame, masked or
 * not; {@link #write(byte[])} sends raw bytes (a frame chopped across TCP writes, a bogus length);
 * {@link #nextFrame()} returns exactly the next frame the server sent.
 */
public final class WebSocketClient implements AutoCloseable {
    /** The largest server frame or message the client buffers (64 MiB). */
    public static final int MAX_MESSAGE = 64 * 1024 * 1024;

    /**
     * A message as the application sees it: reassembled and, if compressed, inflated.
     *
     * @param isText whether it is a text message (else binary)
     * @param bytes its payload (UTF-8 for text)
     */
    public record Message(boolean isText, byte[] bytes) {
        /** @return the payload as UTF-8 */
        public String text() {
            return new String(bytes, StandardCharsets.UTF_8);
        }

        @Override
        public String toString() {
            return (isText ? "text " : "binary ") + bytes.length + " bytes " + HttpInput.preview(bytes, 0, bytes.length);
        }
    }

    /**
     * The server's close frame.
     *
     * @param code its status code; 1005 if it had no payload, 1006 if the connection ended without one
     * @param reason its reason, empty if none
     */
    public record Close(int code, String reason) { }

    /** The server answered the handshake with something other than 101. */
    public static final class HandshakeException extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final transient TestResponse response;

        HandshakeException(TestResponse response) {
            super("the server refused the WebSocket handshake: " + response);
            this.response = response;
        }

        /** @return the server's answer, e.g. a 403 problem */
        public TestResponse response() {
            return response;
        }
    }

    private final Wire wire;
    private final TestResponse handshake;
    private final PerMessageDeflate deflate;
    private Close closeReceived;
    private boolean closeSent;

    private WebSocketClient(Wire wire, TestResponse handshake, PerMessageDeflate deflate) {
        this.wire = wire;
        this.handshake = handshake;
        this.deflate = deflate;
    }

    /** Opens a connection on {@code wire}: see {@link TestClient#webSocket(String, String...)}. */
    static WebSocketClient open(Wire wire, String path, String... headers) {
        WebSocketHandshake.Agreed agreed = WebSocketHandshake.perform(wire, path, headers);
        return new WebSocketClient(wire, agreed.response(), agreed.deflate());
    }

    /**
     * Opens a connection over HTTP/2 (RFC 8441): see {@link TestClient#webSocket(String, String...)}.
     *
     * @param wires makes the wire once the stream is open (so the client tracks it like its other connections)
     */
    static WebSocketClient openOverHttp2(int port, String hostHeader, java.time.Duration timeout,
            java.util.function.Function<Pipe, Wire> wires, String path, String... headers) {
        WebSocketHandshake.Over2 over = WebSocketHandshake.performOverHttp2(port, hostHeader, timeout, path, headers);
        return new WebSocketClient(wires.apply(over.pipe()), over.agreed().response(), over.agreed().deflate());
    }

    /**
     * @param key a {@code Sec-WebSocket-Key}
     * @return the {@code Sec-WebSocket-Accept} a server must answer it with (RFC 6455 4.2.2)
     */
    public static String accept(String key) {
        return WebSocketHandshake.accept(key);
    }

    /** @return the 101 response: its headers show the agreed subprotocol and extensions */
    public TestResponse handshake() {
        return handshake;
    }

    /** @return whether permessage-deflate was agreed on */
    public boolean compressing() {
        return deflate != null;
    }

    /**
     * Sets the read timeout for later reads on this connection.
     *
     * @param timeout positive
     * @return this
     */
    public WebSocketClient timeout(Duration timeout) {
        try {
            wire.pipe.readTimeout((int) Math.max(1, Math.min(Integer.MAX_VALUE, timeout.toMillis())));
        } catch (IOException e) {
            throw Wire.unchecked(e);
        }
        return this;
    }

    /** Sends a text message in one masked frame, compressed if permessage-deflate was agreed. @param text the text */
    public void send(String text) {
        sendMessage(WebSocketFrame.TEXT, text.getBytes(StandardCharsets.UTF_8));
    }

    /** Sends a binary message in one masked frame, compressed if permessage-deflate was agreed. @param data the bytes */
    public void send(byte[] data) {
        sendMessage(WebSocketFrame.BINARY, data);
    }

    private void sendMessage(int opcode, byte[] data) {
        if (deflate == null) sendFrame(new WebSocketFrame(true, 0, opcode, data), true);
        else sendFrame(new WebSocketFrame(true, WebSocketFrame.RSV1, opcode, deflate.compress(data)), true);
    }

    /** @param payload at most 125 bytes for a valid ping */
    public void ping(byte[] payload) {
        sendFrame(WebSocketFrame.ping(payload), true);
    }

    /** @param payload the pong's payload */
    public void pong(byte[] payload) {
        sendFrame(WebSocketFrame.pong(payload), true);
    }

    /**
     * Sends one frame exactly as given, in one write.
     *
     * @param frame the frame
     * @param masked whether to mask it (RFC 6455 5.3 requires it of a client; false makes a hostile frame)
     */
    public void sendFrame(WebSocketFrame frame, boolean masked) {
        if (frame.opcode() == WebSocketFrame.CLOSE) closeSent = true;
        write(frame.encode(masked));
    }

    /** @param bytes sent as they are, in one write */
    public void write(byte[] bytes) {
        try {
            wire.write(bytes);
        } catch (IOException e) {
            throw Wire.unchecked(e);
        }
    }

    /**
     * Compresses a message with this connection's compressor, advancing its context, for a test
     * that sends a compressed message in frames of its own (RSV1 on the first only).
     *
     * @param message the message's bytes
     * @return the compressed payload, RFC 7692 tail removed
     * @throws IllegalStateException if permessage-deflate was not agreed
     */
    public byte[] compress(byte[] message) {
        if (deflate == null) throw new IllegalStateException("permessage-deflate was not agreed on");
        return deflate.compress(message);
    }

    /**
     * Inflates a received compressed message (the joined payloads of its frames) with this
     * connection's decompressor, advancing its context; for tests that read {@link #nextFrame()}.
     *
     * @param payload the message's payload as received
     * @return the message's bytes
     */
    public byte[] inflate(byte[] payload) {
        if (deflate == null) throw new IllegalStateException("permessage-deflate was not agreed on");
        try {
            return deflate.inflate(payload, MAX_MESSAGE);
        } catch (ProtocolException e) {
            throw Wire.unchecked(e);
        }
    }

    /**
     * Reads the next frame the server sent, whatever it is.
     *
     * @return the frame, payload unmasked
     * @throws UncheckedIOException on a timeout, EOF, or a frame no server may send (masked,
     *     reserved opcode, RSV bits without an extension, control frame over 125 bytes or fragmented)
     */
    public WebSocketFrame nextFrame() {
        try {
            wire.in.context("a WebSocket frame header");
            byte[] h = wire.in.readExactly(2);
            boolean fin = (h[0] & 0x80) != 0;
            int rsv = (h[0] >> 4) & 7;
            int opcode = h[0] & 0xf;
            long len = h[1] & 0x7f;
            if ((h[1] & 0x80) != 0) throw new ProtocolException("the server masked a frame (RFC 6455 5.1)");
            if (len == 126) len = ByteBuffer.wrap(wire.in.readExactly(2)).getShort() & 0xffff;
            else if (len == 127) len = ByteBuffer.wrap(wire.in.readExactly(8)).getLong();
            if (len < 0 || len > MAX_MESSAGE) throw new ProtocolException("a server frame of " + len + " bytes");
            if ((opcode & 7) > 2) throw new ProtocolException("reserved opcode " + opcode + " (RFC 6455 5.2)");
            if ((rsv & ~(deflate == null ? 0 : WebSocketFrame.RSV1)) != 0) throw new ProtocolException("RSV bits " + rsv + " set (RFC 6455 5.2)");
            if ((opcode & 8) != 0 && (len > 125 || !fin || rsv != 0)) {
                throw new ProtocolException("a control frame fragmented, with RSV bits or over 125 bytes (RFC 6455 5.5)");
            }
            wire.in.context("a WebSocket frame payload of " + len + " bytes");
            WebSocketFrame f = new WebSocketFrame(fin, rsv, opcode, wire.in.readExactly(len));
            if (opcode == WebSocketFrame.CLOSE && closeReceived == null) closeReceived = parseClose(f.payload());
            return f;
        } catch (IOException e) {
            throw Wire.unchecked(e);
        }
    }

    private static Close parseClose(byte[] p) throws ProtocolException {
        if (p.length == 0) return new Close(1005, "");
        if (p.length == 1) throw new ProtocolException("a close frame with a 1-byte payload (RFC 6455 5.5.1)");
        try {
            String reason = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(p, 2, p.length - 2)).toString();
            return new Close((p[0] & 0xff) << 8 | (p[1] & 0xff), reason);
        } catch (CharacterCodingException e) {
            throw new ProtocolException("a close reason that is not UTF-8 (RFC 6455 5.5.1)");
        }
    }

    /**
     * Reads the next text or binary message: fragments joined, inflated if compressed; a ping is
     * answered with a pong, a pong skipped.
     *
     * @return the message; empty when the server's close frame came instead (see {@link #closeReceived()})
     */
    public Optional<Message> nextMessage() {
        ByteArrayOutputStream data = null;
        boolean text = false;
        boolean compressed = false;
        while (true) {
            WebSocketFrame f = nextFrame();
            switch (f.opcode()) {
                case WebSocketFrame.PING -> {
                    if (!closeSent) pong(f.payload());
                    continue;
                }
                case WebSocketFrame.PONG -> {
                    continue;
                }
                case WebSocketFrame.CLOSE -> {
                    if (data != null) throw protocol("a close frame in the middle of a fragmented message");
                    return Optional.empty();
                }
                case WebSocketFrame.CONTINUATION -> {
                    if (data == null) throw protocol("a continuation frame with no message to continue (RFC 6455 5.4)");
                    if (f.rsv() != 0) throw protocol("RSV1 on a continuation frame (RFC 7692 6.1)");
                }
                default -> {
                    if (data != null) throw protocol("a new message inside a fragmented one (RFC 6455 5.4)");
                    data = new ByteArrayOutputStream();
                    text = f.opcode() == WebSocketFrame.TEXT;
                    compressed = f.rsv() != 0;
                }
            }
            if (data.size() + f.payload().length > MAX_MESSAGE) throw protocol("a message over " + MAX_MESSAGE + " bytes");
            data.writeBytes(f.payload());
            if (f.fin()) return Optional.of(new Message(text, compressed ? inflate(data.toByteArray()) : data.toByteArray()));
        }
    }

    private static UncheckedIOException protocol(String what) {
        return Wire.unchecked(new ProtocolException("the server sent " + what));
    }

    /**
     * Reads until the server's close frame, discarding messages and control frames before it.
     *
     * @return the server's close; code 1006 if the connection ended (EOF or reset) without one
     */
    public Close awaitClose() {
        while (closeReceived == null) {
            try {
                nextFrame();
            } catch (UncheckedIOException e) {
                if (e.getCause() instanceof EOFException || e.getCause() instanceof SocketException) return new Close(1006, "");
                throw e;
            }
        }
        return closeReceived;
    }

    /** @return the server's close frame, if one was read */
    public Optional<Close> closeReceived() {
        return Optional.ofNullable(closeReceived);
    }

    /**
     * Waits for the server to close the TCP connection (EOF or reset); bytes that arrive meanwhile
     * stay buffered for {@link #nextFrame()}.
     *
     * @param max how long to wait
     * @return true if it closed within {@code max}
     */
    public boolean awaitClosed(Duration max) {
        try {
            return wire.in.awaitEof(max.toMillis());
        } catch (IOException e) {
            throw Wire.unchecked(e);
        }
    }

    /**
     * The closing handshake (RFC 6455 7.1.2): sends a close frame (unless one was sent), reads up to
     * the server's, waits for the server to close TCP, then closes the socket.
     *
     * @param code the status code to send
     * @param reason the reason to send
     * @return the server's close
     */
    public Close close(int code, String reason) {
        if (!closeSent) {
            try {
                sendFrame(WebSocketFrame.close(code, reason), true);
            } catch (UncheckedIOException e) {
                if (closeReceived == null) throw e; // the server may close right after its own close frame
            }
        }
        Close c = awaitClose();
        awaitClosed(Duration.ofMillis(wire.timeoutMillis));
        close();
        return c;
    }

    /** Closes the socket at once, without a closing handshake (a peer that drops). Idempotent. */
    @Override
    public void close() {
        if (deflate != null && !wire.isClosed()) deflate.end();
        wire.close();
    }
}
