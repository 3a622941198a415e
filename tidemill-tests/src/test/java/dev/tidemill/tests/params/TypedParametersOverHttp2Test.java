package dev.tidemill.tests.params;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestRequest;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every case of {@link TypedParametersTest} (typed path and query parameters, the 422 that lists
 * them) again, with the client's requests over cleartext HTTP/2 (h2c, prior knowledge): the same
 * app and assertions, a stream per request, the path and query from {@code :path}. The cases that
 * hold an HTTP/1.1 connection of their own ({@code client.connect()}) stay on HTTP/1.1.
 */
class TypedParametersOverHttp2Test extends TypedParametersTest {
    @BeforeAll
    static void overHttp2() {
        client.protocol(TestClient.Protocol.H2C);
    }

    @Test
    void theRequestsGoOverHttp2() {
        assertThat(client.send(TestRequest.get("/int/1")).httpVersion()).isEqualTo("HTTP/2.0");
    }
}
