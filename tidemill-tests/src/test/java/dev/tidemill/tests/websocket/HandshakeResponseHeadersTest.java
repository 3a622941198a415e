package dev.tidemill.tests.websocket;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.tidemill.ExecutionMode;
import dev.tidemill.Problem;
import dev.tidemill.Response;
import dev.tidemill.WebSocket;
import dev.tidemill.WebSocketHandler;
import dev.tidemill.WebSocketMessage;
import dev.tidemill.tests.support.Setup;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestResponse;
import dev.tidemill.testing.WebSocketClient;
import org.junit.jupiter.api.Test;

/**
 * A handler that returns {@code Response.webSocket(...)}: the headers it sets appear on the 101;
 * the connection's {@code request()} is the handshake request (path parameters, headers); the
 * handler can refuse instead with a problem; a plain GET of such a route is still 426.
 */
class HandshakeResponseHeadersTest {
    private static final WebSocketHandler ROOM = new WebSocketHandler() {
        @Override
        public void onOpen(WebSocket ws) {
            ws.send("room " + ws.request().pathParam("room") + " for " + ws.request().header("X-Client").orElse("?"));
        }

        @Override
        public void onMessage(WebSocket ws, WebSocketMessage m) {
            ws.send(m.text());
        }
    };

    private static TestClient start() {
        return Setup.onDefaultTransport(ExecutionMode.LOOP).start(app -> app.get("/rooms/{room}/ws", req -> {
            if (req.pathParam("room").equals("closed")) throw Problem.of(404, "Not Found", "no such room").toException();
            return Response.webSocket(ROOM).header("X-Room", req.pathParam("room")).header("Set-Cookie", "seen=1; HttpOnly");
        }));
    }

    @Test
    void headersSetOnTheResponseAppearOnThe101AndTheRequestStaysReadable() {
        try (TestClient client = start(); WebSocketClient ws = client.webSocket("/rooms/42/ws", "X-Client", "tests")) {
            TestResponse r = ws.handshake();
            assertThat(r.status()).isEqualTo(101);
            assertThat(r.header("X-Room")).hasValue("42");
            assertThat(r.header("Set-Cookie")).hasValue("seen=1; HttpOnly");
            assertThat(ws.nextMessage().map(WebSocketClient.Message::text)).hasValue("room 42 for tests");
            ws.send("still echoing");
            assertThat(ws.nextMessage().map(WebSocketClient.Message::text)).hasValue("still echoing");
            assertThat(ws.close(1000, "").code()).isEqualTo(1000);
        }
    }

    @Test
    void theHandlerCanRefuseTheHandshakeWithAProblem() {
        try (TestClient client = start()) {
            WebSocketClient.HandshakeException e = catchThrowableOfType(WebSocketClient.HandshakeException.class,
                    () -> client.webSocket("/rooms/closed/ws").close());
            assertThat(e).isNotNull();
            assertThat(e.response().status()).isEqualTo(404);
            assertThat(e.response().jsonTree().get("detail").asString()).isEqualTo("no such room");
        }
    }

    @Test
    void aPlainGetOfTheRouteIs426() {
        try (TestClient client = start()) {
            TestResponse r = client.get("/rooms/42/ws");
            assertThat(r.status()).isEqualTo(426);
            assertThat(r.header("Upgrade")).hasValue("websocket");
            assertThat(r.header("Sec-WebSocket-Version")).hasValue("13");
            assertThat(r.header("X-Room")).as("the handler's headers belong to the 101 only").isEmpty();
        }
    }
}
