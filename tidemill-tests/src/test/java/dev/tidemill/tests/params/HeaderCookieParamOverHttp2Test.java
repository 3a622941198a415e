package dev.tidemill.tests.params;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestRequest;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every case of {@link HeaderCookieParamTest} again, with the client's requests over cleartext
 * HTTP/2 (h2c, prior knowledge): header names lower-case on the wire, and several {@code cookie}
 * fields, as HTTP/2 may split them (RFC 9113 8.2.3).
 */
class HeaderCookieParamOverHttp2Test extends HeaderCookieParamTest {
    @BeforeAll
    static void overHttp2() {
        client.protocol(TestClient.Protocol.H2C);
    }

    @Test
    void theRequestsGoOverHttp2() {
        assertThat(client.send(TestRequest.get("/limit").header("X-Limit", "1")).httpVersion()).isEqualTo("HTTP/2.0");
    }
}
