package dev.tidemill.tests.websocket;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.ExecutionMode;
import dev.tidemill.WebSocket;
import dev.tidemill.WebSocketHandler;
import dev.tidemill.WebSocketMessage;
import dev.tidemill.WebSocketOptions;
import dev.tidemill.tests.support.Setup;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.WebSocketClient;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Subprotocol negotiation (RFC 6455 4.2.2 item 5.4, 11.3.4): the first of the route's
 * subprotocols, in the route's order, that the client offered is agreed on, answered in
 * {@code Sec-WebSocket-Protocol} and readable as {@code ws.subprotocol()}; with none in common the
 * handshake still succeeds, without the header.
 */
class SubprotocolsTest {
    private static TestClient client;

    /** Tells the client which subprotocol it got, then echoes. */
    private static final WebSocketHandler TELLS = new WebSocketHandler() {
        @Override
        public void onOpen(WebSocket ws) {
            ws.send("subprotocol " + ws.subprotocol().orElse("none"));
        }

        @Override
        public void onMessage(WebSocket ws, WebSocketMessage m) {
            ws.send(m.text());
        }
    };

    @BeforeAll
    static void start() {
        client = Setup.onDefaultTransport(ExecutionMode.LOOP).start(app -> {
            app.ws("/chat", WebSocketOptions.builder().subprotocols("v2.chat", "v1.chat").build(), TELLS);
            app.ws("/plain", TELLS);
        });
    }

    @AfterAll
    static void stop() {
        client.close();
    }

    @Test
    void theRoutesFirstPreferenceThatTheClientOfferedIsAgreedOn() {
        assertThat(agree("/chat", "v1.chat, v2.chat")).hasValue("v2.chat");
        assertThat(agree("/chat", "v1.chat")).hasValue("v1.chat");
        assertThat(agree("/chat", "other, v1.chat")).hasValue("v1.chat");
    }

    @Test
    void withNothingInCommonTheHandshakeSucceedsWithoutASubprotocol() {
        assertThat(agree("/chat", "v3.chat")).isEmpty();
        assertThat(agree("/chat", null)).isEmpty();
        assertThat(agree("/plain", "v1.chat")).isEmpty();
    }

    /** @return the subprotocol of the 101, after checking the handler saw the same */
    private static Optional<String> agree(String path, String offer) {
        try (WebSocketClient ws = offer == null ? client.webSocket(path) : client.webSocket(path, "Sec-WebSocket-Protocol", offer)) {
            Optional<String> header = ws.handshake().header("Sec-WebSocket-Protocol");
            assertThat(ws.nextMessage().map(WebSocketClient.Message::text)).as("the handler's view, offer %s", offer)
                    .hasValue("subprotocol " + header.orElse("none"));
            assertThat(ws.close(1000, "").code()).isEqualTo(1000);
            return header;
        }
    }
}
