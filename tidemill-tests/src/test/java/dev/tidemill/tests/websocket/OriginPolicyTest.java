package dev.tidemill.tests.websocket;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.tidemill.ExecutionMode;
import dev.tidemill.WebSocketHandler;
import dev.tidemill.WebSocketOptions;
import dev.tidemill.tests.support.Setup;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestResponse;
import dev.tidemill.testing.WebSocketClient;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The {@code Origin} check of the handshake (RFC 6455 4.2.2 item 4, 10.2): same origin by
 * default, an allow-list, or any origin; a refused handshake is a 403 problem and no handler runs;
 * a handshake without {@code Origin} (not from a browser) is allowed.
 */
class OriginPolicyTest {
    private final AtomicInteger opened = new AtomicInteger();

    private final WebSocketHandler echo = new WebSocketHandler() {
        @Override
        public void onOpen(dev.tidemill.WebSocket ws) {
            opened.incrementAndGet();
        }

        @Override
        public void onMessage(dev.tidemill.WebSocket ws, dev.tidemill.WebSocketMessage m) {
            ws.send(m.text());
        }
    };

    @Test
    void sameOriginIsTheDefault() {
        try (TestClient client = start(WebSocketOptions.DEFAULTS)) {
            String self = "http://127.0.0.1:" + client.port();
            echoes(client, "Origin", self);
            echoes(client, "Origin", "https://127.0.0.1:" + client.port()); // host and port compared, as the route's doc says
            echoes(client); // no Origin: not a browser
            refused(client, "http://evil.example");
            refused(client, "http://127.0.0.1:" + (client.port() == 65_535 ? 1 : client.port() + 1));
            refused(client, "null");
            refused(client, "http://localhost:" + client.port()); // the same machine, another host name
            assertThat(opened).as("handlers opened: only the three accepted").hasValue(3);
        }
    }

    @Test
    void anAllowListAdmitsExactlyItsOrigins() {
        try (TestClient client = start(WebSocketOptions.builder().allowOrigins("https://app.example", "http://localhost:3000").build())) {
            echoes(client, "Origin", "https://app.example");
            echoes(client, "Origin", "HTTPS://APP.EXAMPLE");
            echoes(client, "Origin", "http://localhost:3000");
            refused(client, "http://app.example");
            refused(client, "https://app.example:8443");
            refused(client, "https://evil.example");
            refused(client, "http://127.0.0.1:" + client.port()); // same origin, but not listed
            echoes(client);
        }
    }

    @Test
    void anyOriginAdmitsEveryOrigin() {
        try (TestClient client = start(WebSocketOptions.builder().anyOrigin().build())) {
            echoes(client, "Origin", "http://evil.example");
            echoes(client, "Origin", "null");
            echoes(client);
        }
    }

    private TestClient start(WebSocketOptions options) {
        return Setup.onDefaultTransport(ExecutionMode.LOOP).start(app -> app.ws("/ws", options, echo));
    }

    private static void echoes(TestClient client, String... headers) {
        try (WebSocketClient ws = client.webSocket("/ws", headers)) {
            ws.send("hi");
            assertThat(ws.nextMessage().map(WebSocketClient.Message::text)).as("echo with %s", String.join(" ", headers)).hasValue("hi");
            assertThat(ws.close(1000, "").code()).isEqualTo(1000);
        }
    }

    private static void refused(TestClient client, String origin) {
        WebSocketClient.HandshakeException e = catchThrowableOfType(WebSocketClient.HandshakeException.class,
                () -> client.webSocket("/ws", "Origin", origin).close());
        assertThat(e).as("Origin %s refused", origin).isNotNull();
        TestResponse r = e.response();
        assertThat(r.status()).as("Origin %s", origin).isEqualTo(403);
        assertThat(r.header("Content-Type")).hasValue("application/problem+json");
    }
}
