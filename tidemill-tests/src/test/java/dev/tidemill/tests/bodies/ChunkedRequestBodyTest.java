package dev.tidemill.tests.bodies;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.ExecutionMode;
import dev.tidemill.testing.Connection;
import dev.tidemill.testing.RawConnection;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestRequest;
import dev.tidemill.testing.TestResponse;
import dev.tidemill.tests.support.Setup;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Chunked request bodies: assembled whole, extensions and trailers accepted, limit enforced, malformed framing refused. */
@Timeout(60)
class ChunkedRequestBodyTest {
    private static final Setup ONE = Setup.onDefaultTransport(ExecutionMode.LOOP);
    private static final int LIMIT = 10;

    private final AtomicInteger handled = new AtomicInteger();

    private TestClient start(Setup setup) {
        return setup.start(app -> {
            app.post("/echo", req -> {
                handled.incrementAndGet();
                return req.body();
            });
            app.post("/limited", req -> {
                handled.incrementAndGet();
                return "got " + req.body().length;
            }).maxBodyBytes(LIMIT);
            app.get("/hello", req -> {
                handled.incrementAndGet();
                return "hello";
            });
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#transports")
    void chunksAreAssembledIntoOneBody(Setup setup) {
        try (TestClient client = start(setup); Connection c = client.connect()) {
            TestResponse small = c.send(TestRequest.of("POST", "/echo").header("Content-Type", "text/plain")
                    .chunked(List.of(bytes("Hello"), bytes(", "), bytes("World"))));
            assertThat(small.status()).as("%s", small).isEqualTo(200);
            assertThat(small.text()).isEqualTo("Hello, World");

            // Many chunks, some bigger than a TCP segment, on the same keep-alive connection.
            List<byte[]> chunks = new ArrayList<>();
            byte[] expected = new byte[0];
            for (int i = 0; i < 200; i++) {
                byte[] chunk = new byte[1 + (i * 997) % 3000];
                Arrays.fill(chunk, (byte) ('a' + i % 26));
                chunks.add(chunk);
                byte[] grown = Arrays.copyOf(expected, expected.length + chunk.length);
                System.arraycopy(chunk, 0, grown, expected.length, chunk.length);
                expected = grown;
            }
            TestResponse big = c.send(TestRequest.of("POST", "/echo").chunked(chunks));
            assertThat(big.status()).isEqualTo(200);
            assertThat(big.body()).isEqualTo(expected);
            assertThat(c.send(TestRequest.get("/hello")).status()).as("the connection still serves").isEqualTo(200);
        }
    }

    @Test
    void chunkExtensionsAndTrailersAreAccepted() {
        try (TestClient client = start(ONE); RawConnection raw = client.raw()) {
            raw.write("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + "5;name=value\r\nhello\r\n"
                    + "3;a;b=\"quoted\"\r\nabc\r\n"
                    + "0;last\r\nTrailer-A: 1\r\nTrailer-B: two\r\n\r\n");
            TestResponse r = raw.readResponse();
            assertThat(r.status()).as("%s", r).isEqualTo(200);
            assertThat(r.text()).isEqualTo("helloabc");
            // The framing stayed intact: the connection serves the next request.
            raw.write("GET /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
            assertThat(raw.readResponse().text()).isEqualTo("hello");
            assertThat(raw.awaitClosed(Duration.ofSeconds(5))).isTrue();
        }
    }

    @Test
    void chunkedBodyAtTheRouteLimitIsAccepted() {
        try (TestClient client = start(ONE); Connection c = client.connect()) {
            TestResponse r = c.send(TestRequest.of("POST", "/limited").chunked(List.of(bytes("12345"), bytes("67890"))));
            assertThat(r.status()).as("%s", r).isEqualTo(200);
            assertThat(r.text()).isEqualTo("got 10");
            assertThat(c.send(TestRequest.get("/hello")).status()).as("the connection still serves").isEqualTo(200);
        }
    }

    @Test
    void chunkedBodyOverTheRouteLimitIs413AndCloses() {
        try (TestClient client = start(ONE)) {
            try (RawConnection raw = client.raw()) {
                raw.write("POST /limited HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                        + "5\r\n12345\r\n6\r\n678901\r\n0\r\n\r\n"
                        + "GET /hello HTTP/1.1\r\nHost: x\r\n\r\n");
                TestResponse r = raw.readResponse();
                assertProblem(r, 413, "maxBodyBytes");
                assertThat(raw.awaitClosed(Duration.ofSeconds(5))).isTrue();
            }
            assertThat(handled).as("handler runs (the refused one and the one after it)").hasValue(0);
            assertThat(client.get("/hello").status()).isEqualTo(200);
        }
    }

    @ParameterizedTest(name = "chunk-size line \"{0}\"")
    @ValueSource(strings = {"zz", "-5", "5 5", "0x5", "fffffffffffffffffff"})
    void malformedChunkSizeIs400AndCloses(String sizeLine) {
        try (TestClient client = start(ONE)) {
            try (RawConnection raw = client.raw()) {
                raw.write("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                        + sizeLine + "\r\nhello\r\n0\r\n\r\n"
                        + "GET /hello HTTP/1.1\r\nHost: x\r\n\r\n");
                TestResponse r = raw.readResponse();
                assertProblem(r, 400, null);
                assertThat(raw.awaitClosed(Duration.ofSeconds(5))).isTrue();
            }
            assertThat(handled).as("handler runs").hasValue(0);
            assertThat(client.get("/hello").status()).isEqualTo(200);
        }
    }

    @Test
    void chunkDataLongerThanItsSizeIs400AndCloses() {
        try (TestClient client = start(ONE)) {
            try (RawConnection raw = client.raw()) {
                raw.write("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                        + "5\r\nhelloEXTRA\r\n0\r\n\r\n"
                        + "GET /hello HTTP/1.1\r\nHost: x\r\n\r\n");
                TestResponse r = raw.readResponse();
                assertProblem(r, 400, null);
                assertThat(raw.awaitClosed(Duration.ofSeconds(5))).isTrue();
            }
            assertThat(handled).as("handler runs").hasValue(0);
            assertThat(client.get("/hello").status()).isEqualTo(200);
        }
    }

    static void assertProblem(TestResponse r, int status, String mentions) {
        assertThat(r.status()).as("%s", r).isEqualTo(status);
        assertThat(r.header("Content-Type")).as("%s", r).hasValue("application/problem+json");
        assertThat(r.jsonTree().get("status").asInt()).as("%s", r).isEqualTo(status);
        if (mentions != null) assertThat(r.text()).contains(mentions);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
