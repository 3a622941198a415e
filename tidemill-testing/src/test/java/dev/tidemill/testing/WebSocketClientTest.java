package dev.tidemill.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ProtocolException;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/**
 * {@link WebSocketClient} checked against the RFCs' own examples and against a WebSocket server
 * that is not ours (python-websockets 10.4; those tests are skipped where it is missing): frames,
 * the handshake, and permessage-deflate with context takeover, {@code server_no_context_takeover}
 * and a small {@code client_max_window_bits}.
 */
class WebSocketClientTest {
    private static final HexFormat HEX = HexFormat.of();

    @Test
    void theAcceptValueIsTheOneOfRfc6455Section1_3() {
        assertThat(WebSocketClient.accept("dGhlIHNhbXBsZSBub25jZQ==")).isEqualTo("s3pPLMBiTxaQ9kYGzzhZRbK+xOo=");
    }

    @Test
    void framesEncodeAsTheExamplesOfRfc6455Section5_7() {
        assertThat(HEX.formatHex(WebSocketFrame.text("Hello").encode(false))).isEqualTo("810548656c6c6f");
        assertThat(HEX.formatHex(WebSocketFrame.text("Hello").encode(HEX.parseHex("37fa213d")))).isEqualTo("818537fa213d7f9f4d5158");
        assertThat(HEX.formatHex(new WebSocketFrame(true, 0, WebSocketFrame.PING, "Hello".getBytes(StandardCharsets.US_ASCII))
                .encode(false))).isEqualTo("890548656c6c6f");
        assertThat(HEX.formatHex(WebSocketFrame.binary(new byte[256]).encode(false), 0, 4)).isEqualTo("827e0100");
        assertThat(HEX.formatHex(WebSocketFrame.binary(new byte[65_536]).encode(false), 0, 10)).isEqualTo("827f0000000000010000");
        assertThat(HEX.formatHex(new WebSocketFrame(false, 0, WebSocketFrame.TEXT, "Hel".getBytes(StandardCharsets.US_ASCII))
                .encode(false))).isEqualTo("010348656c");
    }

    @Test
    void deflateMatchesTheExamplesOfRfc7692Section7_2_3() throws ProtocolException {
        PerMessageDeflate takeover = PerMessageDeflate.negotiate("permessage-deflate", "permessage-deflate");
        assertThat(HEX.formatHex(takeover.compress("Hello".getBytes(StandardCharsets.US_ASCII)))).isEqualTo("f248cdc9c90700");
        PerMessageDeflate reader = PerMessageDeflate.negotiate("permessage-deflate", "permessage-deflate");
        assertThat(reader.inflate(HEX.parseHex("f248cdc9c90700"), 100)).asString().isEqualTo("Hello");
        assertThat(reader.inflate(HEX.parseHex("f200110000"), 100)).as("7.2.3.2: the second Hello, with context").asString().isEqualTo("Hello");
        assertThat(reader.inflate(HEX.parseHex("000500faff48656c6c6f00"), 100)).as("7.2.3.3: a stored block").asString().isEqualTo("Hello");
        assertThat(reader.inflate(HEX.parseHex("00"), 100)).as("7.2.3.6: an empty message").isEmpty();
    }

    @Test
    void aResponseThatBreaksRfc7692IsRefused() {
        for (String bad : new String[] {"x-webkit-deflate-frame", "permessage-deflate; server_max_window_bits=7",
                "permessage-deflate; server_no_context_takeover; server_no_context_takeover", "permessage-deflate; foo",
                "permessage-deflate; client_max_window_bits=10", "permessage-deflate, permessage-deflate"}) {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> PerMessageDeflate.negotiate(bad, "permessage-deflate"))
                    .as(bad).isInstanceOf(ProtocolException.class);
        }
    }

    @Test
    void echoesTextBinaryFragmentsAndPingsWithPythonWebsockets() {
        Python.require();
        try (Python server = Python.start("echo_server.py");
                TestClient client = TestClient.connectTo("127.0.0.1", Integer.parseInt(server.readLine()));
                WebSocketClient ws = client.webSocket("/")) {
            ws.send("hello");
            assertThat(ws.nextMessage().orElseThrow().text()).isEqualTo("hello");
            ws.send(new byte[] {0, 1, 2, (byte) 255});
            WebSocketClient.Message binary = ws.nextMessage().orElseThrow();
            assertThat(binary.isText()).isFalse();
            assertThat(binary.bytes()).containsExactly(0, 1, 2, 255);
            ws.sendFrame(new WebSocketFrame(false, 0, WebSocketFrame.TEXT, "hel".getBytes(StandardCharsets.UTF_8)), true);
            ws.ping("in between".getBytes(StandardCharsets.UTF_8));
            ws.sendFrame(new WebSocketFrame(true, 0, WebSocketFrame.CONTINUATION, "lo".getBytes(StandardCharsets.UTF_8)), true);
            assertThat(ws.nextFrame()).isEqualTo(WebSocketFrame.pong("in between".getBytes(StandardCharsets.UTF_8)));
            assertThat(ws.nextMessage().orElseThrow().text()).isEqualTo("hello");
            assertThat(ws.close(1000, "bye")).isEqualTo(new WebSocketClient.Close(1000, "bye"));
        }
    }

    @Test
    void compressesWithContextTakeoverAgainstPythonWebsockets() {
        Python.require();
        String text = "a compressible line of text; ".repeat(400);
        try (Python server = Python.start("echo_server.py");
                TestClient client = TestClient.connectTo("127.0.0.1", Integer.parseInt(server.readLine()));
                WebSocketClient ws = client.webSocket("/", "Sec-WebSocket-Extensions", "permessage-deflate; client_max_window_bits")) {
            assertThat(ws.compressing()).isTrue();
            for (int i = 0; i < 3; i++) {
                ws.send(text);
                WebSocketFrame f = ws.nextFrame();
                assertThat(f.rsv()).as("echoed compressed").isEqualTo(WebSocketFrame.RSV1);
                assertThat(f.payload().length).isLessThan(text.length() / 10);
                assertThat(new String(ws.inflate(f.payload()), StandardCharsets.UTF_8)).isEqualTo(text);
            }
            assertThat(ws.close(1000, "").code()).isEqualTo(1000);
        }
    }

    @Test
    void honoursServerNoContextTakeoverAndASmallClientWindow() {
        Python.require();
        // A 4 KiB random block, repeated: compressed with DEFLATE's usual 32 KiB window, its
        // back-references reach 4 KiB back, further than the 1 KiB window the server demands.
        java.util.Random random = new java.util.Random(7);
        StringBuilder block = new StringBuilder();
        for (int i = 0; i < 4096; i++) block.append((char) ('a' + random.nextInt(26)));
        String text = block.toString().repeat(25);
        try (Python server = Python.start("echo_server.py", "server_no_context_takeover", "client_max_window_bits=10");
                TestClient client = TestClient.connectTo("127.0.0.1", Integer.parseInt(server.readLine()));
                WebSocketClient ws = client.webSocket("/", "Sec-WebSocket-Extensions", "permessage-deflate; client_max_window_bits")) {
            assertThat(ws.handshake().header("Sec-WebSocket-Extensions").orElseThrow())
                    .contains("server_no_context_takeover").contains("client_max_window_bits=10");
            for (int i = 0; i < 3; i++) {
                ws.send(text);
                assertThat(ws.nextMessage().orElseThrow().text()).isEqualTo(text);
            }
            assertThat(ws.close(1000, "").code()).isEqualTo(1000);
        }
    }
}
