package dev.tidemill.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidemill.Response;
import dev.tidemill.Tidemill;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * TestClient over cleartext HTTP/2 ({@code protocol(H2C)}): the same calls a test makes over
 * HTTP/1.1 go out as HTTP/2 streams with prior knowledge and come back as the same
 * {@link TestResponse}, {@link StreamingResponse} and {@link EventStream}; the server sees HTTP/2.
 */
@Timeout(60)
class TestClientHttp2Test {

    private static Tidemill app() {
        Tidemill app = Tidemill.create(TestClient.config().build());
        app.get("/hello", req -> "Hello");
        app.get("/header", req -> req.header("Last-Event-ID").orElse("absent"));
        app.post("/echo", req -> Response.ok().bytes(req.body(), req.header("Content-Type").orElse("text/plain")));
        app.get("/stream", req -> Response.stream("text/plain", s -> {
            s.write("one ".getBytes(StandardCharsets.UTF_8));
            s.write("two".getBytes(StandardCharsets.UTF_8));
            s.close(Map.of("x-checksum", "42"));
        }));
        app.get("/events", req -> Response.sse(s -> {
            s.send("first");
            s.send("second");
            s.close();
        }));
        return app;
    }

    @Test
    void requestsAndBodiesGoOverHttp2() {
        try (TestClient client = TestClient.start(app()).timeout(Duration.ofSeconds(10)).protocol(TestClient.Protocol.H2C)) {
            TestResponse hello = client.get("/hello");
            assertThat(hello.httpVersion()).isEqualTo("HTTP/2.0");
            assertThat(hello.status()).isEqualTo(200);
            assertThat(hello.text()).isEqualTo("Hello");
            assertThat(hello.header("content-type")).hasValueSatisfying(v -> assertThat(v).startsWith("text/plain"));
            assertThat(client.head("/hello").body()).isEmpty();
            assertThat(client.send(TestRequest.get("/header").header("Last-Event-ID", "3")).text())
                    .as("a field is found whatever the case it is asked for in").isEqualTo("3");
            assertThat(client.get("/nowhere").status()).isEqualTo(404);

            byte[] big = new byte[300_000]; // past the connection's first window (64 KiB) and many frames
            for (int i = 0; i < big.length; i++) big[i] = (byte) (i * 31);
            TestResponse echoed = client.post("/echo", "application/octet-stream", big);
            assertThat(echoed.status()).isEqualTo(200);
            assertThat(Arrays.equals(echoed.body(), big)).as("300,000 bytes echoed intact").isTrue();

            TestResponse chunked = client.send(TestRequest.of("POST", "/echo").header("Content-Type", "text/plain")
                    .chunked(List.of("ab".getBytes(StandardCharsets.UTF_8), "cd".getBytes(StandardCharsets.UTF_8))));
            assertThat(chunked.text()).as("a chunked body goes as DATA frames").isEqualTo("abcd");
        }
    }

    @Test
    void streamsTrailersAndEventsGoOverHttp2() {
        try (TestClient client = TestClient.start(app()).timeout(Duration.ofSeconds(10)).protocol(TestClient.Protocol.H2C)) {
            TestResponse whole = client.get("/stream");
            assertThat(whole.text()).isEqualTo("one two");
            assertThat(whole.trailer("x-checksum")).hasValue("42");

            try (StreamingResponse s = client.stream(TestRequest.get("/stream"))) {
                assertThat(s.status()).isEqualTo(200);
                StringBuilder b = new StringBuilder();
                for (var c = s.nextChunk(); c.isPresent(); c = s.nextChunk()) b.append(new String(c.get(), StandardCharsets.UTF_8));
                assertThat(b.toString()).isEqualTo("one two");
                assertThat(s.ended()).isTrue();
                assertThat(s.trailers()).contains(Map.entry("x-checksum", "42"));
            }

            try (EventStream events = client.events(TestRequest.get("/events"))) {
                assertThat(events.next().orElseThrow().data()).isEqualTo("first");
                assertThat(events.next().orElseThrow().data()).isEqualTo("second");
            }
        }
    }

    @Test
    void h2cNeedsThePlainPort() {
        try (TestClient memory = TestClient.inMemory(app())) {
            assertThatThrownBy(() -> memory.protocol(TestClient.Protocol.H2C)).isInstanceOf(UnsupportedOperationException.class);
        }
    }
}
