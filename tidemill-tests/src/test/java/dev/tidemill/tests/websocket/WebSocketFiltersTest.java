package dev.tidemill.tests.websocket;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.tidemill.ExecutionMode;
import dev.tidemill.Problem;
import dev.tidemill.WebSocket;
import dev.tidemill.WebSocketHandler;
import dev.tidemill.WebSocketMessage;
import dev.tidemill.tests.support.Setup;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.WebSocketClient;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Filters wrap WebSocket routes as they wrap HTTP ones (auth on a WebSocket route with the same
 * filter as on HTTP): a filter that refuses answers the handshake itself (401 here) and
 * no upgrade happens; one that lets it through can leave attributes the connection's handler reads
 * from {@code ws.request()}. In every execution mode.
 */
class WebSocketFiltersTest {
    private final AtomicInteger opened = new AtomicInteger();

    private TestClient start(Setup setup) {
        WebSocketHandler greet = new WebSocketHandler() {
            @Override
            public void onOpen(WebSocket ws) {
                opened.incrementAndGet();
                ws.send("hello " + ws.request().attribute("user").orElse("nobody"));
            }

            @Override
            public void onMessage(WebSocket ws, WebSocketMessage m) {
                ws.send(m.text());
            }
        };
        return setup.start(app -> {
            app.filter((req, next) -> {
                if (!req.header("Authorization").equals(Optional.of("Bearer let-me-in"))) {
                    throw Problem.of(401, "Unauthorized", "a bearer token is required").toException();
                }
                req.attribute("user", "alice");
                return next.proceed(req);
            });
            app.ws("/private/ws", greet);
            app.get("/private/http", req -> "hello " + req.attribute("user").orElse("nobody"));
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modesAndProtocols")
    void aFilterRefusesTheHandshakeBeforeAnyUpgrade(Setup setup) {
        try (TestClient client = start(setup)) {
            WebSocketClient.HandshakeException e = catchThrowableOfType(WebSocketClient.HandshakeException.class,
                    () -> client.webSocket("/private/ws").close());
            assertThat(e).isNotNull();
            assertThat(e.response().status()).isEqualTo(401);
            assertThat(e.response().header("Upgrade")).as("no upgrade").isEmpty();
            assertThat(client.get("/private/http").status()).as("the same filter on HTTP").isEqualTo(401);
            assertThat(opened).as("no handler ran").hasValue(0);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modesAndProtocols")
    void aFilterThatLetsTheHandshakeThroughPassesItsAttributesOn(Setup setup) {
        try (TestClient client = start(setup); WebSocketClient ws = client.webSocket("/private/ws", "Authorization", "Bearer let-me-in")) {
            assertThat(ws.nextMessage().map(WebSocketClient.Message::text)).hasValue("hello alice");
            ws.send("echo");
            assertThat(ws.nextMessage().map(WebSocketClient.Message::text)).hasValue("echo");
            assertThat(ws.close(1000, "").code()).isEqualTo(1000);
            assertThat(opened).hasValue(1);
        }
    }
}
