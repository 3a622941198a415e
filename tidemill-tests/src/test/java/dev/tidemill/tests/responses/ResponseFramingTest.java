package dev.tidemill.tests.responses;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.ExecutionMode;
import dev.tidemill.Response;
import dev.tidemill.testing.RawConnection;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestResponse;
import dev.tidemill.tests.support.Setup;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The server owns response framing: 204 and 304 never carry a body or Content-Length, a handler's
 * own Content-Length or Transfer-Encoding cannot break the framing, and a header value with CR/LF
 * becomes a 500 rather than a split response. Every check reads a second response pipelined
 * behind the first: it only parses if the first was framed right.
 */
@Timeout(60)
class ResponseFramingTest {
    private static final Setup ONE = Setup.onDefaultTransport(ExecutionMode.LOOP);
    private static final String NEXT = "GET /ok HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";

    private TestClient client;

    @BeforeEach
    void start() {
        client = ONE.start(app -> {
            app.get("/ok", req -> "ok");
            app.get("/204", req -> Response.status(204).text("x"));
            app.get("/304", req -> Response.status(304).header("ETag", "\"v1\"").text("x"));
            app.get("/cl-too-big", req -> Response.ok().header("Content-Length", "1000").text("abc"));
            app.get("/cl-too-small", req -> Response.ok().header("Content-Length", "1").text("abc"));
            app.get("/te", req -> Response.ok().header("Transfer-Encoding", "chunked").text("abc"));
            app.get("/json-cl", req -> Response.ok().header("Content-Length", "2").json(Map.of("a", "b")));
            app.get("/stream-cl", req -> Response.stream("text/plain", s -> {
                s.write("abc");
                s.close();
            }).header("Content-Length", "10"));
            app.get("/status/{code}", req -> Response.status(Integer.parseInt(req.pathParam("code"))).text("x"));
            app.get("/crlf-value", req -> Response.ok().header("X-Evil", "a\r\nInjected: yes").text("x"));
            app.get("/lf-value", req -> Response.ok().header("X-Evil", "a\nInjected: yes").text("x"));
            app.get("/crlf-name", req -> Response.ok().header("X-Evil\r\nInjected", "yes").text("x"));
            app.get("/crlf-added", req -> Response.ok().addHeader("Set-Cookie", "a=b\r\n\r\nHTTP/1.1 200 OK").text("x"));
        });
    }

    @AfterEach
    void stop() {
        client.close();
    }

    @Test
    void noContentHasNoBodyAndNoContentLength() {
        TestResponse r = firstOfTwo("/204");
        assertThat(r.status()).isEqualTo(204);
        assertThat(r.header("Content-Length")).as("%s", r).isEmpty();
        assertThat(r.header("Transfer-Encoding")).as("%s", r).isEmpty();
    }

    @Test
    void notModifiedHasNoBodyAndNoContentLength() {
        TestResponse r = firstOfTwo("/304");
        assertThat(r.status()).isEqualTo(304);
        assertThat(r.header("ETag")).hasValue("\"v1\"");
        assertThat(r.header("Content-Length")).as("%s", r).isEmpty();
        assertThat(r.header("Transfer-Encoding")).as("%s", r).isEmpty();
    }

    @Test
    void handlerContentLengthDoesNotOverrideTheServersFraming() {
        for (String path : new String[] {"/cl-too-big", "/cl-too-small"}) {
            TestResponse r = firstOfTwo(path);
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.headers("Content-Length")).as("%s: %s", path, r).containsExactly("3");
            assertThat(r.text()).isEqualTo("abc");
        }
        TestResponse json = firstOfTwo("/json-cl");
        assertThat(json.text()).isEqualTo("{\"a\":\"b\"}");
        assertThat(json.headers("Content-Length")).containsExactly(String.valueOf(json.body().length));
    }

    @Test
    void handlerTransferEncodingDoesNotOverrideTheServersFraming() {
        TestResponse r = firstOfTwo("/te");
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.header("Transfer-Encoding")).as("%s", r).isEmpty();
        assertThat(r.headers("Content-Length")).containsExactly("3");
        assertThat(r.text()).isEqualTo("abc");
    }

    @Test
    void handlerContentLengthOnAStreamIsDropped() {
        TestResponse r = firstOfTwo("/stream-cl");
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.chunked()).isTrue();
        assertThat(r.header("Content-Length")).as("%s", r).isEmpty();
        assertThat(r.text()).isEqualTo("abc");
    }

    @Test
    void headerWithCrOrLfIsA500NeverASplitResponse() {
        for (String path : new String[] {"/crlf-value", "/lf-value", "/crlf-name", "/crlf-added"}) {
            TestResponse r = firstOfTwo(path);
            assertThat(r.status()).as("%s: %s", path, r).isEqualTo(500);
            assertThat(r.header("Content-Type")).hasValue("application/problem+json");
            assertThat(r.jsonTree().get("status").asInt()).isEqualTo(500);
            assertThat(r.header("Injected")).as("%s", r).isEmpty();
            assertThat(r.header("X-Evil")).as("%s", r).isEmpty();
        }
    }

    /**
     * A 1xx is never a final response: sent as the only answer, the client would take the next
     * response for this request's (or, for 101, switch protocols). The request must still get a
     * final response, and the connection must stay in step.
     */
    @ParameterizedTest(name = "status {0}")
    @ValueSource(ints = {100, 101, 103})
    void informationalStatusFromAHandlerIsNeverTheOnlyAnswer(int code) {
        try (RawConnection raw = client.raw()) {
            raw.write("GET /status/" + code + " HTTP/1.1\r\nHost: x\r\n\r\n" + NEXT);
            TestResponse first = raw.readResponse();
            assertThat(first.interim()).as("%s", first).isEmpty();
            assertThat(first.status()).as("%s", first).isGreaterThanOrEqualTo(200);
            assertThat(first.text()).as("%s", first).isNotEqualTo("ok");
            TestResponse second = raw.readResponse();
            assertThat(second.text()).as("%s", second).isEqualTo("ok");
        }
    }

    /** Sends GET path and GET /ok in one write; returns the first response after checking the second. */
    private TestResponse firstOfTwo(String path) {
        try (RawConnection raw = client.raw()) {
            raw.write("GET " + path + " HTTP/1.1\r\nHost: x\r\n\r\n" + NEXT);
            TestResponse first = raw.readResponse();
            TestResponse second = raw.readResponse();
            assertThat(second.status()).as("response after %s: %s", path, second).isEqualTo(200);
            assertThat(second.text()).isEqualTo("ok");
            assertThat(raw.awaitClosed(Duration.ofSeconds(5))).isTrue();
            assertThat(raw.readAllUntilClose()).as("stray bytes after the responses to %s", path).isEmpty();
            return first;
        }
    }
}
