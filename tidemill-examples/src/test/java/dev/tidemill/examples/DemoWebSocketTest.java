package dev.tidemill.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestResponse;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The demo's WebSocket routes, driven by the JDK's own WebSocket client ({@code java.net.http}),
 * an implementation independent of ours: echo, the chat room (WebSocket and HTTP publishers, one
 * topic), a message the room cannot read, and a plain GET on a WebSocket route.
 */
@Timeout(60)
class DemoWebSocketTest {
    private static TestClient client;
    private static HttpClient http;

    @BeforeAll
    static void start() {
        client = TestClient.start(Demo.create(TestClient.config().build()));
        http = HttpClient.newHttpClient();
    }

    @AfterAll
    static void stop() {
        if (client != null) client.close();
        if (http != null) http.close();
    }

    /** Collects what a JDK WebSocket receives: text messages (joined across parts), binary ones, and the close. */
    static final class Received implements WebSocket.Listener {
        final BlockingQueue<Object> messages = new LinkedBlockingQueue<>();
        final CompletableFuture<Integer> closed = new CompletableFuture<>();
        private final StringBuilder text = new StringBuilder();
        private java.io.ByteArrayOutputStream binary = new java.io.ByteArrayOutputStream();

        @Override
        public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
            text.append(data);
            if (last) {
                messages.add(text.toString());
                text.setLength(0);
            }
            ws.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onBinary(WebSocket ws, ByteBuffer data, boolean last) {
            byte[] b = new byte[data.remaining()];
            data.get(b);
            binary.writeBytes(b);
            if (last) {
                messages.add(binary.toByteArray());
                binary = new java.io.ByteArrayOutputStream();
            }
            ws.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onClose(WebSocket ws, int statusCode, String reason) {
            closed.complete(statusCode);
            return null;
        }

        Object next() throws InterruptedException {
            Object m = messages.poll(10, TimeUnit.SECONDS);
            assertThat(m).as("a message within 10 s").isNotNull();
            return m;
        }
    }

    private WebSocket open(String path, Received listener) {
        URI uri = URI.create("ws://127.0.0.1:" + client.port() + path);
        return http.newWebSocketBuilder().connectTimeout(Duration.ofSeconds(10)).buildAsync(uri, listener).join();
    }

    @Test
    void echoReturnsTextAndBinaryAsSent() throws Exception {
        Received in = new Received();
        WebSocket ws = open("/ws/echo", in);
        ws.sendText("hello", true).join();
        assertThat(in.next()).isEqualTo("hello");
        ws.sendBinary(ByteBuffer.wrap(new byte[] {0, 1, 2, (byte) 0xff}), true).join();
        assertThat((byte[]) in.next()).containsExactly(0, 1, 2, 0xff);
        ws.sendText("part one, ", false).join();
        ws.sendText("part two", true).join();
        assertThat(in.next()).isEqualTo("part one, part two");
        String big = "x".repeat(200_000);
        ws.sendText(big, true).join();
        assertThat(in.next()).isEqualTo(big);
        ws.sendClose(WebSocket.NORMAL_CLOSURE, "bye").join();
        assertThat(in.closed.get(10, TimeUnit.SECONDS)).isEqualTo(1000);
    }

    @Test
    void aRoomHearsItsWebSocketAndHttpMembers() throws Exception {
        Received alice = new Received();
        Received bob = new Received();
        WebSocket a = open("/rooms/ws-test/ws", alice);
        open("/rooms/ws-test/ws", bob);
        a.sendText("{\"text\":\"hi from a socket\"}", true).join();
        assertThat((String) alice.next()).contains("\"text\":\"hi from a socket\"");
        assertThat((String) bob.next()).contains("\"text\":\"hi from a socket\"");
        TestResponse posted = client.postJson("/rooms/ws-test/messages", java.util.Map.of("text", "hi from HTTP"));
        assertThat(posted.status()).isEqualTo(202);
        assertThat((String) bob.next()).contains("\"text\":\"hi from HTTP\"");
    }

    @Test
    void aMessageTheRoomCannotReadClosesWith1007() throws Exception {
        Received in = new Received();
        WebSocket ws = open("/rooms/ws-bad/ws", in);
        ws.sendText("not json", true).join();
        assertThat(in.closed.get(10, TimeUnit.SECONDS)).isEqualTo(1007);
    }

    @Test
    void aPlainGetOnAWebSocketRouteIs426() {
        TestResponse r = client.get("/ws/echo");
        assertThat(r.status()).isEqualTo(426);
        assertThat(r.header("Upgrade")).hasValue("websocket");
        assertThat(r.header("Sec-WebSocket-Version")).hasValue("13");
        assertThat(r.header("Content-Type")).hasValue("application/problem+json");
    }
}
