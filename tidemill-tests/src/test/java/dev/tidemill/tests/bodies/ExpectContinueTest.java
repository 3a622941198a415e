package dev.tidemill.tests.bodies;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.ExecutionMode;
import dev.tidemill.testing.Connection;
import dev.tidemill.testing.RawConnection;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestRequest;
import dev.tidemill.testing.TestResponse;
import dev.tidemill.tests.support.Setup;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@code Expect: 100-continue}: 100 only when the request will be read; final refusals instead of 100 otherwise. */
@Timeout(60)
class ExpectContinueTest {
    private static final Setup ONE = Setup.onDefaultTransport(ExecutionMode.LOOP);
    private static final int LIMIT = 1024;

    private final AtomicInteger handled = new AtomicInteger();
    private TestClient client;

    @BeforeEach
    void start() {
        client = ONE.start(b -> b.maxBodyBytes(LIMIT), app -> {
            app.post("/upload", req -> {
                handled.incrementAndGet();
                return "got " + req.body().length;
            });
            app.get("/hello", req -> "hello");
        });
    }

    @AfterEach
    void stop() {
        client.close();
    }

    private static TestRequest upload(String path, int size) {
        return TestRequest.of("POST", path).header("Expect", "100-continue")
                .body("application/octet-stream", new byte[size]);
    }

    @Test
    void acceptableRequestGets100ThenTheFinalResponse() {
        try (Connection c = client.connect()) {
            TestResponse r = c.send(upload("/upload", LIMIT));
            assertThat(r.interim()).as("%s", r).containsExactly(100);
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.text()).isEqualTo("got " + LIMIT);
            // Keep-alive continues after it.
            TestResponse again = c.send(upload("/upload", 5));
            assertThat(again.interim()).containsExactly(100);
            assertThat(again.text()).isEqualTo("got 5");
            assertThat(c.send(upload("/upload", 3)).text()).as("the connection still serves").isEqualTo("got 3");
        }
    }

    @Test
    void continueForAPipelinedRequestComesAfterTheResponsesBeforeIt() {
        try (RawConnection raw = client.raw()) {
            raw.write("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc"
                    + "POST /upload HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n");
            TestResponse first = raw.readResponse();
            assertThat(first.interim()).as("interim before the first response: %s", first).isEmpty();
            assertThat(first.text()).isEqualTo("got 3");
            raw.write("hello");
            TestResponse second = raw.readResponse();
            assertThat(second.interim()).as("%s", second).containsExactly(100);
            assertThat(second.text()).isEqualTo("got 5");
        }
    }

    /** RFC 9110 10.1.1: a server MUST ignore a 100-continue expectation received in an HTTP/1.0 request. */
    @Test
    void expectationInAnHttp10RequestIsIgnored() {
        try (RawConnection raw = client.raw()) {
            raw.write("POST /upload HTTP/1.0\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\nhello");
            TestResponse r = raw.readResponse();
            assertThat(r.interim()).as("interim responses to HTTP/1.0: %s", r).isEmpty();
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.text()).isEqualTo("got 5");
        }
    }

    @Test
    void unknownPathGets404Without100AndCloses() {
        try (Connection c = client.connect()) {
            TestResponse r = c.send(upload("/nope", 100));
            assertProblem(r, 404, null);
            assertThat(r.interim()).as("interim responses").isEmpty();
            assertThat(c.isClosedByServer(Duration.ofSeconds(5))).isTrue();
        }
        assertThat(handled).hasValue(0);
        assertThat(client.get("/hello").status()).isEqualTo(200);
    }

    @Test
    void declaredLengthOverTheLimitGets413Without100AndCloses() {
        try (Connection c = client.connect()) {
            TestResponse r = c.send(upload("/upload", LIMIT + 1));
            assertProblem(r, 413, "maxBodyBytes");
            assertThat(r.interim()).as("interim responses").isEmpty();
            assertThat(c.isClosedByServer(Duration.ofSeconds(5))).isTrue();
        }
        assertThat(handled).hasValue(0);
        assertThat(client.get("/hello").status()).isEqualTo(200);
    }

    @Test
    void anotherExpectationGets417() {
        try (RawConnection raw = client.raw()) {
            raw.write("POST /upload HTTP/1.1\r\nHost: x\r\nExpect: something-else\r\nContent-Length: 5\r\n\r\n");
            TestResponse r = raw.readResponse();
            assertProblem(r, 417, null);
            assertThat(r.interim()).isEmpty();
            assertThat(raw.awaitClosed(Duration.ofSeconds(5))).isTrue();
        }
        assertThat(handled).hasValue(0);
        assertThat(client.get("/hello").status()).isEqualTo(200);
    }

    static void assertProblem(TestResponse r, int status, String mentions) {
        assertThat(r.status()).as("%s", r).isEqualTo(status);
        assertThat(r.header("Content-Type")).as("%s", r).hasValue("application/problem+json");
        assertThat(r.jsonTree().get("status").asInt()).as("%s", r).isEqualTo(status);
        if (mentions != null) assertThat(r.text()).contains(mentions);
    }
}
