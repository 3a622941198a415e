package dev.tidemill.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidemill.Config;
import dev.tidemill.Response;
import dev.tidemill.Tidemill;
import java.io.UncheckedIOException;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** TestClient's lifecycle against a real Tidemill server: start on port 0, talk, stop on close. */
@Timeout(60)
class TestClientTidemillTest {

    @Test
    void startsOnAFreePortTalksAndStopsTheServerOnClose() {
        Tidemill app = Tidemill.create(TestClient.config().build());
        app.get("/hello", req -> "Hello");
        app.post("/echo", req -> Response.ok().bytes(req.body(), req.header("Content-Type").orElse("text/plain")));
        int port;
        try (TestClient client = TestClient.start(app).timeout(Duration.ofSeconds(10))) {
            port = client.port();
            assertThat(port).isPositive().isEqualTo(client.server().port());
            assertThat(client.uri("/hello").toString()).isEqualTo("http://127.0.0.1:" + port + "/hello");

            TestResponse hello = client.get("/hello");
            assertThat(hello.status()).as("%s", hello).isEqualTo(200);
            assertThat(hello.text()).isEqualTo("Hello");

            assertThat(client.post("/echo", "text/plain", "ping").text()).isEqualTo("ping");

            try (Connection c = client.connect()) {
                assertThat(c.send(TestRequest.get("/hello")).text()).isEqualTo("Hello");
                assertThat(c.send(TestRequest.get("/hello")).text()).isEqualTo("Hello");
            }
        }
        try (TestClient after = TestClient.connectTo("127.0.0.1", port).timeout(Duration.ofSeconds(2))) {
            assertThatThrownBy(() -> after.get("/hello")).as("the server is stopped").isInstanceOf(UncheckedIOException.class);
        }
    }

    @Test
    void anEventStreamThatOnlyPingsTimesOutWaitingForAnEvent() {
        // Pings every 50 ms, no event ever: each read gets bytes, but next() waits for an event and must give up.
        Tidemill app = Tidemill.create(TestClient.config()
                .timeouts(dev.tidemill.Timeouts.builder().ssePing(Duration.ofMillis(50)).build()).build());
        app.get("/quiet", req -> Response.sse(stream -> { }));
        try (TestClient client = TestClient.start(app).timeout(Duration.ofMillis(500));
                EventStream events = client.events(TestRequest.get("/quiet"))) {
            assertThatThrownBy(events::next).isInstanceOf(UncheckedIOException.class).hasMessageContaining("no event within");
            assertThat(events.nextComment()).as("the pings that came meanwhile").hasValue("ping");
        }
    }

    @Test
    void refusesAnAppOnAFixedPort() {
        Tidemill app = Tidemill.create(Config.builder().port(8080).build());
        assertThatThrownBy(() -> TestClient.start(app)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("port 0").hasMessageContaining("TestClient.config()");
    }
}
