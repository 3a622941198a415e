package dev.tidemill.tests.websocket;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemill.ExecutionMode;
import dev.tidemill.WebSocket;
import dev.tidemill.WebSocketHandler;
import dev.tidemill.WebSocketMessage;
import dev.tidemill.WebSocketOptions;
import dev.tidemill.tests.support.Setup;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.WebSocketClient;
import dev.tidemill.testing.WebSocketFrame;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * The server's keep-alive: a ping after {@code pingInterval} without a frame from the peer, and a
 * close with 1001 after {@code idleTimeout} without any; a peer that answers the pings stays.
 * Short options, so the test waits for the frames, never for a clock.
 */
class PingAndIdleTimeoutTest {
    private final List<WebSocket.CloseStatus> closes = new CopyOnWriteArrayList<>();

    private TestClient start(Duration ping, Duration idle) {
        WebSocketHandler echo = new WebSocketHandler() {
            @Override
            public void onMessage(WebSocket ws, WebSocketMessage m) {
                ws.send(m.text());
            }

            @Override
            public void onClose(WebSocket ws, WebSocket.CloseStatus s) {
                closes.add(s);
            }
        };
        return Setup.onDefaultTransport(ExecutionMode.LOOP).start(app -> app.ws("/ws",
                WebSocketOptions.builder().pingInterval(ping).idleTimeout(idle).build(), echo));
    }

    @Test
    void aQuietPeerGetsPingedAgainAfterEachPong() {
        try (TestClient client = start(Duration.ofMillis(100), Duration.ofSeconds(30)); WebSocketClient ws = client.webSocket("/ws")) {
            ws.timeout(Duration.ofSeconds(10)); // 100 times the ping interval; the 30 s idle timeout must not be what wakes it
            for (int i = 0; i < 3; i++) {
                WebSocketFrame f = ws.nextFrame();
                assertThat(f.opcode()).as("frame %d from a quiet connection", i).isEqualTo(WebSocketFrame.PING);
                ws.pong(f.payload());
            }
            assertThat(ws.close(1000, "").code()).isEqualTo(1000);
        }
    }

    @Test
    void aPeerThatAnswersPingsOutlivesTheIdleTimeout() {
        // Pings come 100 ms after each pong: eight of them span more than twice the 300 ms timeout.
        try (TestClient client = start(Duration.ofMillis(100), Duration.ofMillis(300)); WebSocketClient ws = client.webSocket("/ws")) {
            for (int i = 0; i < 8; i++) {
                WebSocketFrame f = ws.nextFrame();
                assertThat(f.opcode()).as("frame %d", i).isEqualTo(WebSocketFrame.PING);
                ws.pong(f.payload());
            }
            ws.send("still here");
            assertThat(ws.nextMessage().map(WebSocketClient.Message::text)).hasValue("still here");
            assertThat(ws.close(1000, "").code()).isEqualTo(1000);
            // while the server runs: a stop would cancel the onClose still queued
            await().atMost(Duration.ofSeconds(10)).until(() -> closes.size() == 1);
        }
        assertThat(closes.get(0).code()).isEqualTo(1000);
    }

    @Test
    void aPeerThatSendsNothingIsClosedWith1001() {
        try (TestClient client = start(Duration.ofMillis(50), Duration.ofMillis(300)); WebSocketClient ws = client.webSocket("/ws")) {
            WebSocketFrame f;
            int pings = 0;
            while ((f = ws.nextFrame()).opcode() == WebSocketFrame.PING) pings++; // never answered
            assertThat(pings).as("pinged before the timeout").isPositive();
            assertThat(f.opcode()).isEqualTo(WebSocketFrame.CLOSE);
            assertThat(ws.closeReceived().orElseThrow().code()).isEqualTo(WebSocket.GOING_AWAY);
            ws.sendFrame(WebSocketFrame.close(1001, ""), true);
            assertThat(ws.awaitClosed(Duration.ofSeconds(10))).as("then the server closes TCP").isTrue();
            await().atMost(Duration.ofSeconds(10)).until(() -> closes.size() == 1);
        }
        assertThat(closes.get(0).code()).isEqualTo(WebSocket.GOING_AWAY);
    }
}
