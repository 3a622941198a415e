package dev.tidemill.tests.hardening;

import static dev.tidemill.tests.hardening.Cases.answered;
import static dev.tidemill.tests.hardening.Cases.post;
import static dev.tidemill.tests.hardening.Cases.refused;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.testing.Connection;
import dev.tidemill.testing.RawConnection;
import dev.tidemill.testing.TestRequest;
import dev.tidemill.testing.TestResponse;
import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Categories 8 and 9: {@code Expect: 100-continue}, responses that must never carry a body (HEAD,
 * 204, 304), and handlers that try to put CR LF into a response header: they get a 500, never a
 * split response.
 */
class ResponseFramingTest extends CaseTable {
    static final String EXPECT = "8 expect-continue and response framing";
    static final String INJECTION = "9 response header injection";
    static Stream<HostileCase> cases() {
        return Stream.of(
                refused(EXPECT, "Expect: 100-continue with an oversized declared body", "RFC 9110 10.1.1: final status instead of 100",
                        post("Expect: 100-continue\r\nContent-Length: " + (dev.tidemill.Limits.DEFAULTS.maxBodyBytes() + 1) + "\r\n", ""),
                        413),
                refused(EXPECT, "Expect with an unknown expectation", "RFC 9110 10.1.1: 417",
                        post("Expect: teapot\r\nContent-Length: 5\r\n", "hello"), 417),
                refused(EXPECT, "Expect: 100-continue on a route that does not exist", "RFC 9110 10.1.1: a final status "
                        + "instead of 100, then close (the client may or may not send the body)",
                        "POST /nowhere HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\nhello", 404),
                answered(INJECTION, "CR LF in a response header value", "CWE-113; RFC 9110 5.5",
                        "GET /inject/value HTTP/1.1\r\nHost: x\r\n\r\n", 500),
                answered(INJECTION, "CR LF in a response header name", "CWE-113; RFC 9110 5.1",
                        "GET /inject/name HTTP/1.1\r\nHost: x\r\n\r\n", 500));
    }

    @Test
    void anInjectedHeaderNeverReachesTheWire() {
        for (String path : new String[] {"/inject/value", "/inject/name"}) {
            try (RawConnection raw = server().client.raw()) {
                raw.write("GET " + path + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
                String wire = new String(raw.readAllUntilClose(), StandardCharsets.ISO_8859_1);
                assertThat(wire).as(path).startsWith("HTTP/1.1 500").doesNotContainIgnoringCase("set-cookie").doesNotContain("never");
            }
        }
    }

    @Test
    void noBodyForHead204Or304EvenWhenTheHandlerGivesOne() {
        // Each answer is followed by a GET /ok on the same connection: a stray body would be read as the next response.
        try (RawConnection raw = server().client.raw()) {
            raw.write("HEAD /echo HTTP/1.1\r\nHost: x\r\n\r\nGET /ok HTTP/1.1\r\nHost: x\r\n\r\n");
            TestResponse head = raw.readResponse("HEAD");
            assertThat(head.status()).isEqualTo(200);
            assertThat(head.body()).isEmpty();
            assertThat(raw.readResponse().text()).isEqualTo("ok");
        }
        for (int status : new int[] {204, 304}) {
            try (RawConnection raw = server().client.raw()) {
                raw.write("GET /status/" + status + " HTTP/1.1\r\nHost: x\r\n\r\nGET /ok HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
                String wire = new String(raw.readAllUntilClose(), StandardCharsets.ISO_8859_1);
                assertThat(wire).as("%d", status).startsWith("HTTP/1.1 " + status).doesNotContain("a body the status must not carry");
                String head = wire.split("\r\n\r\n", 2)[0];
                assertThat(head).as("%d head", status).doesNotContainIgnoringCase("transfer-encoding");
                if (status == 204) assertThat(head).as("RFC 9110 8.6: no Content-Length on a 204").doesNotContainIgnoringCase("content-length");
                assertThat(wire).as("%d then the next response", status).contains("\r\n\r\nHTTP/1.1 200").endsWith("ok");
            }
        }
    }

    @Test
    void expectContinueGetsOneInterimThenTheAnswer() {
        // The client sends the head, and the body only once the 100 has arrived (positive signal);
        // had the server sent none, the client would send the body after a second and see no interim.
        try (Connection c = server().client.connect()) {
            TestResponse r = c.send(TestRequest.of("POST", "/echo").header("Expect", "100-continue").body("text/plain", "hello"));
            assertThat(r.interim()).containsExactly(100);
            assertThat(r.text()).isEqualTo("hello");
        }
    }
}
