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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code onClose} runs exactly once, with how the connection ended, however it ends: the peer
 * closes, the peer drops, the handler closes (even twice), a callback throws (1011); and
 * {@code closed()} completes with the same status. In every execution mode.
 */
class OnCloseExactlyOnceTest {
    /** How long onClose may take after the connection ended: on loopback it is milliseconds. */
    private static final Duration BOUND = Duration.ofSeconds(5);

    private final List<WebSocket.CloseStatus> closes = new CopyOnWriteArrayList<>();
    private final CompletableFuture<WebSocket> connection = new CompletableFuture<>();

    private TestClient start(Setup setup) {
        WebSocketHandler handler = new WebSocketHandler() {
            @Override
            public void onOpen(WebSocket ws) {
                connection.complete(ws);
                if (ws.request().path().endsWith("/open-throws")) throw new IllegalStateException("onOpen fails");
            }

            @Override
            public void onMessage(WebSocket ws, WebSocketMessage m) {
                switch (m.text()) {
                    case "close" -> {
                        ws.close(4000, "done");
                        ws.close(4001, "again"); // only the first call counts
                    }
                    case "throw" -> throw new IllegalStateException("onMessage fails");
                    default -> ws.send(m.text());
                }
            }

            @Override
            public void onClose(WebSocket ws, WebSocket.CloseStatus s) {
                closes.add(s);
            }
        };
        return setup.start(app -> {
            app.ws("/ws", handler);
            app.ws("/ws/open-throws", handler);
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modesAndProtocols")
    void thePeerCloses(Setup setup) throws Exception {
        try (TestClient client = start(setup); WebSocketClient ws = client.webSocket("/ws")) {
            ws.send("hi");
            assertThat(ws.nextMessage()).isPresent();
            assertThat(ws.close(1000, "bye").code()).as("our code echoed").isEqualTo(1000);
            onCloseOnce(new WebSocket.CloseStatus(1000, "bye"));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modesAndProtocols")
    void thePeerDrops(Setup setup) throws Exception {
        try (TestClient client = start(setup); WebSocketClient ws = client.webSocket("/ws")) {
            ws.send("hi");
            assertThat(ws.nextMessage()).isPresent();
            ws.close(); // no close frame: the socket just goes
            onCloseOnce(new WebSocket.CloseStatus(WebSocket.ABNORMAL, ""));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modesAndProtocols")
    void theHandlerClosesTwice(Setup setup) throws Exception {
        try (TestClient client = start(setup); WebSocketClient ws = client.webSocket("/ws")) {
            ws.send("close");
            assertThat(ws.awaitClose()).isEqualTo(new WebSocketClient.Close(4000, "done"));
            ws.sendFrame(WebSocketFrame.close(4000, ""), true);
            assertThat(ws.awaitClosed(Duration.ofSeconds(10))).isTrue();
            await().atMost(BOUND).until(() -> !closes.isEmpty());
            assertThat(closes.get(0).code()).isEqualTo(4000);
            onCloseOnce(closes.get(0));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modesAndProtocols")
    void onMessageThrows(Setup setup) throws Exception {
        try (TestClient client = start(setup); WebSocketClient ws = client.webSocket("/ws")) {
            ws.send("throw");
            assertThat(ws.awaitClose().code()).isEqualTo(WebSocket.INTERNAL_ERROR);
            ws.sendFrame(WebSocketFrame.close(WebSocket.INTERNAL_ERROR, ""), true);
            await().atMost(BOUND).until(() -> !closes.isEmpty());
            assertThat(closes.get(0).code()).isEqualTo(WebSocket.INTERNAL_ERROR);
            onCloseOnce(closes.get(0));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modesAndProtocols")
    void onOpenThrows(Setup setup) throws Exception {
        try (TestClient client = start(setup); WebSocketClient ws = client.webSocket("/ws/open-throws")) {
            assertThat(ws.awaitClose().code()).isEqualTo(WebSocket.INTERNAL_ERROR);
            ws.sendFrame(WebSocketFrame.close(WebSocket.INTERNAL_ERROR, ""), true);
            await().atMost(BOUND).until(() -> !closes.isEmpty());
            onCloseOnce(closes.get(0));
        }
    }

    /** Waits for onClose, checks it ran once with {@code expected}, that closed() agrees, and that a late send fails. */
    private void onCloseOnce(WebSocket.CloseStatus expected) throws Exception {
        await().atMost(BOUND).until(() -> !closes.isEmpty());
        WebSocket ws = connection.get(10, TimeUnit.SECONDS);
        assertThat(ws.closed().toCompletableFuture().get(10, TimeUnit.SECONDS)).isEqualTo(expected);
        assertThat(closes).containsExactly(expected);
        assertThat(ws.isOpen()).isFalse();
        assertThat(ws.send("late").toCompletableFuture()).isCompletedExceptionally();
        ws.close(1000, "after the end"); // a close after the end changes nothing
        assertThat(closes).as("exactly once").containsExactly(expected);
    }
}
