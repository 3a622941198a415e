package dev.tidemill.tests.websocket;

import static dev.tidemill.testing.H2Wire.DATA;
import static dev.tidemill.testing.H2Wire.END_HEADERS;
import static dev.tidemill.testing.H2Wire.END_STREAM;
import static dev.tidemill.testing.H2Wire.HEADERS;
import static dev.tidemill.testing.H2Wire.RST_STREAM;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemill.WebSocket;
import dev.tidemill.WebSocketHandler;
import dev.tidemill.WebSocketMessage;
import dev.tidemill.tests.support.Setup;
import dev.tidemill.testing.H2Fields;
import dev.tidemill.testing.H2Wire;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.WebSocketClient;
import dev.tidemill.testing.WebSocketFrame;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * WebSocket over HTTP/2 (RFC 8441), frame by frame on the wire: the server offers extended
 * CONNECT in its SETTINGS, answers {@code :protocol websocket} with a 200 that leaves the stream
 * open and carries RFC 6455 frames in DATA, within the stream's flow-control window; several
 * WebSockets and plain requests share one connection; a reset stream ends its WebSocket (1006).
 * The protocol itself (framing, close codes, UTF-8, deflate) runs over HTTP/2 in the conformance
 * tables ({@link OnConformanceServer}) and the feature tests that take {@code Setup#modesAndProtocols}.
 */
@Timeout(60)
class WebSocketOverHttp2Test {
    /** RFC 8441 3. */
    private static final int ENABLE_CONNECT_PROTOCOL = 8;

    private final List<WebSocket.CloseStatus> closes = new CopyOnWriteArrayList<>();
    private final List<String> protocols = new CopyOnWriteArrayList<>();

    private TestClient start(Setup setup) {
        return setup.start(app -> {
            app.ws("/echo", new WebSocketHandler() {
                @Override
                public void onOpen(WebSocket ws) {
                    protocols.add(ws.request().protocol());
                }

                @Override
                public void onMessage(WebSocket ws, WebSocketMessage m) {
                    ws.send(m);
                }

                @Override
                public void onClose(WebSocket ws, WebSocket.CloseStatus s) {
                    closes.add(s);
                }
            });
            app.ws("/big", (ws, m) -> ws.send("x".repeat(Integer.parseInt(m.text()))));
            app.get("/hello", req -> "hello");
        });
    }

    private static String[] connect(String path, String... more) {
        return H2Fields.with(new String[] {":method", "CONNECT", ":protocol", "websocket", ":scheme", "http", ":path", path,
                ":authority", "127.0.0.1", "sec-websocket-version", "13"}, more);
    }

    private static byte[] masked(WebSocketFrame f) {
        return f.encode(true);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modes")
    void anExtendedConnectIsAnsweredWith200AndTheStreamCarriesFrames(Setup setup) {
        try (TestClient client = start(setup); H2Wire wire = H2Wire.open(client.port())) {
            assertThat(wire.serverSettings()).as("RFC 8441 3").containsEntry(ENABLE_CONNECT_PROTOCOL, 1L);
            wire.headers(1, END_HEADERS, wire.hpack(connect("/echo")));
            Map<String, List<String>> head = wire.expectHeaders(1);
            assertThat(head.get(":status")).containsExactly("200");
            assertThat(head).as("no accept, no upgrade over HTTP/2 (RFC 8441 5)")
                    .doesNotContainKeys("sec-websocket-accept", "upgrade", "connection");

            wire.data(1, 0, masked(WebSocketFrame.text("over a stream")));
            assertThat(frames(wire, 1, 1)).containsExactly(WebSocketFrame.text("over a stream"));

            wire.data(1, 0, masked(WebSocketFrame.close(1000, "done")));
            List<WebSocketFrame> end = new java.util.ArrayList<>();
            boolean ended = readUntilEnd(wire, 1, end);
            assertThat(end).extracting(WebSocketFrame::opcode).containsExactly(WebSocketFrame.CLOSE);
            assertThat(ended).as("the server ends the stream after its close frame, as it closes TCP").isTrue();
            wire.expectAlive(); // the connection stays, only the stream ended
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> closes.size() == 1);
        assertThat(closes.get(0).code()).isEqualTo(1000);
        assertThat(protocols).containsExactly("HTTP/2.0");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modes")
    void twoWebSocketsAndARequestShareOneConnection(Setup setup) {
        try (TestClient client = start(setup); H2Wire wire = H2Wire.open(client.port())) {
            wire.headers(1, END_HEADERS, wire.hpack(connect("/echo")));
            assertThat(wire.expectStatus(1)).isEqualTo(200);
            wire.headers(3, END_HEADERS, wire.hpack(connect("/echo")));
            assertThat(wire.expectStatus(3)).isEqualTo(200);
            wire.data(3, 0, masked(WebSocketFrame.text("three")));
            wire.data(1, 0, masked(WebSocketFrame.text("one")));
            wire.request(5, "/hello");
            ByteArrayOutputStream hello = new ByteArrayOutputStream();
            Map<Integer, List<WebSocketFrame>> got = Map.of(1, new CopyOnWriteArrayList<>(), 3, new CopyOnWriteArrayList<>());
            Map<Integer, ByteArrayOutputStream> bytes = Map.of(1, new ByteArrayOutputStream(), 3, new ByteArrayOutputStream());
            boolean helloEnded = false;
            while (got.get(1).isEmpty() || got.get(3).isEmpty() || !helloEnded) {
                H2Wire.Frame f = wire.read();
                assertThat(f).as("the connection stays open").isNotNull();
                assertThat(f.type()).as("no reset: %s", f).isNotEqualTo(RST_STREAM);
                if (f.type() == DATA && f.streamId() == 5) {
                    hello.writeBytes(f.payload());
                    helloEnded |= f.has(END_STREAM);
                } else if (f.type() == HEADERS && f.streamId() == 5) {
                    helloEnded |= f.has(END_STREAM);
                } else if (f.type() == DATA && bytes.containsKey(f.streamId())) {
                    bytes.get(f.streamId()).writeBytes(f.payload());
                    got.get(f.streamId()).addAll(parse(bytes.get(f.streamId())));
                }
            }
            assertThat(got.get(1)).containsExactly(WebSocketFrame.text("one"));
            assertThat(got.get(3)).containsExactly(WebSocketFrame.text("three"));
            assertThat(hello.toString(StandardCharsets.UTF_8)).isEqualTo("hello");
        }
    }

    /**
     * The client grants each stream 1,000 bytes: a 10,000-byte message arrives 1,000 bytes at a
     * time, each part only after a WINDOW_UPDATE (RFC 9113 6.9), and is whole at the end.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modes")
    void aMessageLargerThanTheStreamWindowWaitsForWindowUpdates(Setup setup) {
        try (TestClient client = start(setup); H2Wire wire = H2Wire.connect(client.port())) {
            wire.handshake(H2Wire.INITIAL_WINDOW_SIZE, 1000);
            wire.headers(1, END_HEADERS, wire.hpack(connect("/big")));
            assertThat(wire.expectStatus(1)).isEqualTo(200);
            wire.data(1, 0, masked(WebSocketFrame.text("10000")));
            ByteArrayOutputStream received = new ByteArrayOutputStream();
            int grants = 0;
            while (received.size() < 10_004) { // the frame header: 2 bytes and a 16-bit length
                int window = 0;
                wire.timeout(Duration.ofSeconds(5));
                while (window < 1000) {
                    H2Wire.Frame f = wire.read();
                    assertThat(f).isNotNull();
                    if (f.type() != DATA || f.streamId() != 1) continue;
                    received.writeBytes(f.payload());
                    window += f.payload().length;
                    if (received.size() == 10_004) break;
                }
                assertThat(window).as("never more than the window granted").isLessThanOrEqualTo(1000);
                if (received.size() == 10_004) break;
                wire.timeout(Duration.ofMillis(300));
                assertThat(pendingData(wire, 1)).as("nothing more until the client grants window").isZero();
                wire.windowUpdate(1, 1000);
                grants++;
            }
            assertThat(grants).as("the message needed window 10 times over").isGreaterThanOrEqualTo(9);
            assertThat(parse(received)).containsExactly(WebSocketFrame.text("x".repeat(10_000)));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modes")
    void aResetStreamEndsItsWebSocketAsAnAbnormalClosure(Setup setup) {
        try (TestClient client = start(setup); H2Wire wire = H2Wire.open(client.port())) {
            wire.headers(1, END_HEADERS, wire.hpack(connect("/echo")));
            assertThat(wire.expectStatus(1)).isEqualTo(200);
            wire.data(1, 0, masked(WebSocketFrame.text("before")));
            assertThat(frames(wire, 1, 1)).containsExactly(WebSocketFrame.text("before"));
            wire.rstStream(1, H2Wire.CANCEL);
            await().atMost(Duration.ofSeconds(10)).until(() -> closes.size() == 1);
            assertThat(closes.get(0).code()).as("RFC 6455 7.1.5: no close frame").isEqualTo(WebSocket.ABNORMAL);
            wire.expectAlive();
            wire.request(3, "/hello");
            assertThat(wire.expectStatus(3)).isEqualTo(200);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modes")
    void malformedExtendedConnectsAreRefused(Setup setup) {
        try (TestClient client = start(setup); H2Wire wire = H2Wire.open(client.port())) {
            // RFC 8441 4: :protocol only on a CONNECT; anything else is malformed (RFC 9113 8.1.1)
            wire.headers(1, END_HEADERS | END_STREAM, wire.hpack(H2Fields.with(H2Fields.get("/echo"), ":protocol", "websocket")));
            wire.expectRstStream(1, H2Wire.PROTOCOL_ERROR);
            // without the version RFC 6455 4.2.1 asks for: 400, naming it
            wire.headers(3, END_HEADERS, wire.hpack(new String[] {":method", "CONNECT", ":protocol", "websocket",
                    ":scheme", "http", ":path", "/echo", ":authority", "127.0.0.1"}));
            Map<String, List<String>> refused = wire.expectHeaders(3);
            assertThat(refused.get(":status")).containsExactly("400");
            assertThat(new String(wire.expectBody(3), StandardCharsets.UTF_8)).contains("Sec-WebSocket-Version");
            // a protocol nothing here speaks stays a CONNECT, which no route takes
            wire.headers(5, END_HEADERS, wire.hpack(new String[] {":method", "CONNECT", ":protocol", "chat-over-tunnel",
                    ":scheme", "http", ":path", "/echo", ":authority", "127.0.0.1"}));
            assertThat(Integer.parseInt(wire.expectHeaders(5).get(":status").get(0))).isBetween(404, 405);
            // an Origin from elsewhere: 403, as over HTTP/1.1
            wire.headers(7, END_HEADERS, wire.hpack(connect("/echo", "origin", "https://elsewhere.example")));
            assertThat(wire.expectStatus(7)).isEqualTo(403);
            wire.expectAlive();
        }
        assertThat(closes).as("no WebSocket opened").isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modes")
    void theTestClientSpeaksItOverH2c(Setup setup) {
        try (TestClient client = start(setup).protocol(TestClient.Protocol.H2C);
                WebSocketClient ws = client.webSocket("/echo")) {
            assertThat(ws.handshake().status()).isEqualTo(200);
            assertThat(ws.handshake().httpVersion()).isEqualTo("HTTP/2.0");
            ws.send("hi");
            assertThat(ws.nextMessage().map(WebSocketClient.Message::text)).hasValue("hi");
            assertThat(ws.close(1000, "").code()).isEqualTo(1000);
        }
        assertThat(protocols).containsExactly("HTTP/2.0");
    }

    /** @return the WebSocket frames in the next DATA frames of the stream, until {@code n} have come */
    private static List<WebSocketFrame> frames(H2Wire wire, int stream, int n) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        List<WebSocketFrame> out = new java.util.ArrayList<>();
        while (out.size() < n) {
            H2Wire.Frame f = wire.read();
            assertThat(f).as("closed before %s frames", n).isNotNull();
            assertThat(f.type() == RST_STREAM && f.streamId() == stream).as("reset: %s", f).isFalse();
            if (f.type() != DATA || f.streamId() != stream) continue;
            bytes.writeBytes(f.payload());
            out.addAll(parse(bytes));
        }
        return out;
    }

    /** Reads the stream's frames until END_STREAM (true) or a reset (false). */
    private static boolean readUntilEnd(H2Wire wire, int stream, List<WebSocketFrame> into) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        for (;;) {
            H2Wire.Frame f = wire.read();
            assertThat(f).isNotNull();
            if (f.streamId() != stream) continue;
            if (f.type() == RST_STREAM) return false;
            if (f.type() == DATA) {
                bytes.writeBytes(f.payload());
                into.addAll(parse(bytes));
                if (f.has(END_STREAM)) return true;
            }
        }
    }

    /** @return DATA bytes on the stream that arrive before the wire's (short) timeout */
    private static int pendingData(H2Wire wire, int stream) {
        int n = 0;
        try {
            for (;;) {
                H2Wire.Frame f = wire.read();
                if (f == null) return n;
                if (f.type() == DATA && f.streamId() == stream) n += f.payload().length;
            }
        } catch (AssertionError timedOut) { // H2Wire's read timeout: nothing more came
            return n;
        }
    }

    /** Takes the complete, unmasked server frames off the front of {@code bytes}. */
    private static List<WebSocketFrame> parse(ByteArrayOutputStream bytes) {
        byte[] b = bytes.toByteArray();
        List<WebSocketFrame> out = new java.util.ArrayList<>();
        int at = 0;
        while (b.length - at >= 2) {
            int len = b[at + 1] & 0x7f, header = 2;
            if (len == 126) {
                if (b.length - at < 4) break;
                len = ((b[at + 2] & 0xff) << 8) | (b[at + 3] & 0xff);
                header = 4;
            } else if (len == 127) {
                if (b.length - at < 10) break;
                len = (int) java.nio.ByteBuffer.wrap(b, at + 2, 8).getLong();
                header = 10;
            }
            assertThat(b[at + 1] & 0x80).as("a server frame is never masked").isZero();
            if (b.length - at < header + len) break;
            out.add(new WebSocketFrame((b[at] & 0x80) != 0, (b[at] >> 4) & 7, b[at] & 0x0f,
                    java.util.Arrays.copyOfRange(b, at + header, at + header + len)));
            at += header + len;
        }
        bytes.reset();
        bytes.write(b, at, b.length - at);
        return out;
    }
}
