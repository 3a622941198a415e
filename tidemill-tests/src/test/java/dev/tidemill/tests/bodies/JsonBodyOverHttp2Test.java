package dev.tidemill.tests.bodies;

import dev.tidemill.testing.TestClient;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.testing.TestRequest;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every case of {@link JsonBodyTest} (JSON and form bodies) again, with the client's requests over cleartext HTTP/2
 * (h2c, prior knowledge) instead of HTTP/1.1: the same app, the same assertions, a stream per
 * request. The cases that hold an HTTP/1.1 connection of their own ({@code client.connect()}) stay
 * on HTTP/1.1.
 */
class JsonBodyOverHttp2Test extends JsonBodyTest {
    @BeforeAll
    static void overHttp2() {
        client.protocol(TestClient.Protocol.H2C);
    }

    @Test
    void theRequestsGoOverHttp2() {
        assertThat(client.send(TestRequest.get("/no-such-route")).httpVersion()).isEqualTo("HTTP/2.0");
    }
}
