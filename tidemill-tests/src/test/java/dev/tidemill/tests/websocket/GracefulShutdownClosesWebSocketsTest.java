package dev.tidemill.tests.websocket;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemill.WebSocket;
import dev.tidemill.WebSocketHandler;
import dev.tidemill.WebSocketMessage;
import dev.tidemill.tests.support.Setup;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.WebSocketClient;
import dev.tidemill.testing.WebSocketFrame;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A graceful stop closes every open WebSocket with 1001 (going away; CASES.md SHD-03), waits for
 * the peers' close frames within the grace period, runs each {@code onClose} once, and ends without
 * waiting out the grace when the peers answer.
 */
class GracefulShutdownClosesWebSocketsTest {
    private final List<WebSocket.CloseStatus> closes = new CopyOnWriteArrayList<>();

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modesAndProtocols")
    void aStopClosesOpenConnectionsWith1001(Setup setup) throws Exception {
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
        TestClient client = setup.start(app -> app.ws("/ws", echo));
        try (client; WebSocketClient a = client.webSocket("/ws"); WebSocketClient b = client.webSocket("/ws")) {
            for (WebSocketClient ws : List.of(a, b)) {
                ws.send("open");
                assertThat(ws.nextMessage().map(WebSocketClient.Message::text)).hasValue("open");
            }
            Thread stopper = Thread.ofVirtual().start(() -> client.server().stop(Duration.ofSeconds(30)));
            for (WebSocketClient ws : List.of(a, b)) {
                assertThat(ws.awaitClose().code()).as("going away").isEqualTo(WebSocket.GOING_AWAY);
                ws.sendFrame(WebSocketFrame.close(WebSocket.GOING_AWAY, ""), true);
                assertThat(ws.awaitClosed(Duration.ofSeconds(10))).as("then TCP closes").isTrue();
            }
            stopper.join(TimeUnit.SECONDS.toMillis(20));
            assertThat(stopper.isAlive()).as("the stop ended once the peers answered, well inside its 30 s grace").isFalse();
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> closes.size() == 2);
        assertThat(closes).extracting(WebSocket.CloseStatus::code).containsExactly(1001, 1001);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modesAndProtocols")
    void aPeerThatNeverAnswersIsClosedAnyway(Setup setup) throws Exception {
        TestClient client = setup.start(app -> app.ws("/ws", new WebSocketHandler() {
            @Override
            public void onMessage(WebSocket ws, WebSocketMessage m) {
                ws.send(m.text());
            }

            @Override
            public void onClose(WebSocket ws, WebSocket.CloseStatus s) {
                closes.add(s);
            }
        }));
        try (client; WebSocketClient ws = client.webSocket("/ws")) {
            ws.send("open");
            assertThat(ws.nextMessage()).isPresent();
            Thread stopper = Thread.ofVirtual().start(() -> client.server().stop(Duration.ofSeconds(2)));
            assertThat(ws.awaitClose().code()).isEqualTo(WebSocket.GOING_AWAY);
            // no answer: the server closes TCP after its close timeout or the grace, whichever first
            assertThat(ws.awaitClosed(Duration.ofSeconds(15))).isTrue();
            stopper.join(TimeUnit.SECONDS.toMillis(20));
            assertThat(stopper.isAlive()).isFalse();
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> !closes.isEmpty()); // a stop must not lose an onClose
        assertThat(closes).hasSize(1);
        assertThat(closes.get(0).code()).isEqualTo(WebSocket.GOING_AWAY);
    }
}
