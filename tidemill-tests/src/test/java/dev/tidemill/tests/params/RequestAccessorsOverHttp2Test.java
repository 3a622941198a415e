package dev.tidemill.tests.params;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestRequest;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every case of {@link RequestAccessorsTest} (headers, cookies, query, body bytes and text, the raw
 * path, the client's address) again, with the requests over cleartext HTTP/2 (h2c, prior knowledge): the same
 * app and assertions, a stream per request (several Cookie fields, as HTTP/2 may split them). The cases that
 * hold an HTTP/1.1 connection of their own ({@code client.connect()}) stay on HTTP/1.1.
 */
class RequestAccessorsOverHttp2Test extends RequestAccessorsTest {
    @BeforeAll
    static void overHttp2() {
        client.protocol(TestClient.Protocol.H2C);
    }

    @Test
    void theRequestsGoOverHttp2() {
        assertThat(client.send(TestRequest.get("/method")).httpVersion()).isEqualTo("HTTP/2.0");
    }
}
