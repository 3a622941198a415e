package dev.tidemill.tests.bodies;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.ExecutionMode;
import dev.tidemill.ProblemException;
import dev.tidemill.Request;
import dev.tidemill.RequestBody;
import dev.tidemill.testing.Connection;
import dev.tidemill.testing.RawConnection;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestRequest;
import dev.tidemill.testing.TestResponse;
import dev.tidemill.tests.support.Setup;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every fault of a streamed body, in every execution mode: past the limit (declared, and chunked
 * of unknown length), a stalled client, a client that leaves early, a handler that stops reading
 * or throws halfway, a compression bomb, a handler that neither reads nor answers. Each gets its
 * problem, the reader learns of it, and the server serves the next client.
 */
@Timeout(120)
class StreamedBodyFaultsTest {
    private static final long LIMIT = 8 << 20;
    private static final long DRAIN = 64 * 1024;

    /** What each handler's reading ended with: a byte count, or the status of the problem it met. */
    private final LinkedBlockingQueue<String> outcomes = new LinkedBlockingQueue<>();
    private final AtomicInteger handled = new AtomicInteger();
    /** A handler's first piece was read. */
    private final LinkedBlockingQueue<String> started = new LinkedBlockingQueue<>();

    private TestClient start(Setup setup) {
        return setup.start(b -> b.maxBodyBytes(LIMIT).maxDrainBytes(DRAIN).bodyStallTimeout(Duration.ofMillis(400))
                .requestTimeout(Duration.ofSeconds(2)), app -> {
            app.put("/read", req -> {
                handled.incrementAndGet();
                return read(req, setup.mode(), Long.MAX_VALUE);
            }).streamedBody();
            app.put("/read10", req -> read(req, setup.mode(), 10)).streamedBody(); // answers once 10 or more were read
            app.put("/throw", req -> {
                if (setup.mode() == ExecutionMode.IO) {
                    return req.bodyStream().read().thenApply(piece -> {
                        throw new IllegalStateException("halfway");
                    });
                }
                req.bodyStream().inputStream().readNBytes(10);
                throw new IllegalStateException("halfway");
            }).streamedBody();
            app.put("/idle", req -> new CompletableFuture<String>()).streamedBody();
            app.get("/hello", req -> "hello");
        });
    }

    /** Reads up to {@code max} bytes, recording how it ended; answers the count. */
    private Object read(Request req, ExecutionMode mode, long max) throws Exception {
        RequestBody body = req.bodyStream();
        if (mode == ExecutionMode.IO) {
            return pull(body, 0, max).whenComplete((n, e) -> outcomes.add(e == null ? String.valueOf(n) : status(e)))
                    .thenApply(n -> n >= max ? "stopped" : String.valueOf(n));
        }
        long n = 0;
        InputStream in = body.inputStream();
        try {
            byte[] buf = new byte[8192];
            for (int r; n < max && (r = in.read(buf, 0, (int) Math.min(buf.length, max - n))) > 0; ) {
                if (n == 0) started.add("started");
                n += r;
            }
            if (n >= max) {
                in.close(); // stop early: the rest is the server's to dispose of
                outcomes.add(String.valueOf(n));
                return "stopped";
            }
        } catch (IOException e) {
            outcomes.add(status(e));
            throw e;
        }
        outcomes.add(String.valueOf(n));
        return String.valueOf(n);
    }

    private CompletionStage<Long> pull(RequestBody body, long n, long max) {
        if (n >= max) return CompletableFuture.completedFuture(n);
        return body.read().thenCompose(p -> {
            if (p == null) return CompletableFuture.completedFuture(n);
            if (n == 0) started.add("started");
            return pull(body, n + p.remaining(), max);
        });
    }

    private static String status(Throwable t) {
        for (Throwable e = t; e != null; e = e.getCause()) {
            if (e instanceof ProblemException p) return "problem " + p.problem().status();
        }
        return t.getClass().getSimpleName();
    }

    private String outcome() throws InterruptedException {
        String o = outcomes.poll(20, TimeUnit.SECONDS);
        assertThat(o).as("the handler's reading ended").isNotNull();
        return o;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modesAndProtocols")
    void aBodyPastTheLimitIs413EvenChunkedAndTheReaderLearnsOfIt(Setup setup) throws Exception {
        try (TestClient client = start(setup)) {
            // Declared over the limit: refused before the handler runs.
            try (Connection c = client.connect()) {
                TestResponse r = c.send(TestRequest.of("PUT", "/read").body("application/octet-stream", new byte[(int) LIMIT + 1]));
                assertThat(r.status()).isEqualTo(413);
                assertThat(handled.get()).isZero();
            }
            // Chunked, of unknown length: 413 once it passes the limit, while the handler reads it.
            try (RawConnection raw = client.raw()) {
                raw.write("PUT /read HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n");
                byte[] chunk = new byte[32 * 1024];
                String size = Integer.toHexString(chunk.length) + "\r\n";
                for (int i = 0; i < 300; i++) {
                    raw.write(size);
                    raw.write(chunk);
                    raw.write("\r\n");
                }
                TestResponse r = raw.readResponse();
                assertThat(r.status()).as("%s", r).isEqualTo(413);
                assertThat(r.text()).contains("maxBodyBytes");
                assertThat(r.header("Connection")).hasValue("close");
            }
            assertThat(outcome()).isEqualTo("problem 413");
            assertThat(client.get("/hello").text()).isEqualTo("hello");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modesAndProtocols")
    void aClientThatStallsGets408(Setup setup) throws Exception {
        try (TestClient client = start(setup); RawConnection raw = client.raw()) {
            raw.write("PUT /read HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n");
            raw.write(new byte[100]);
            TestResponse r = raw.readResponse();
            assertThat(r.status()).isEqualTo(408);
            assertThat(r.text()).contains("bodyStallTimeout");
            assertThat(outcome()).isEqualTo("problem 408");
            assertThat(client.get("/hello").text()).isEqualTo("hello");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modesAndProtocols")
    void aClientThatLeavesEarlyEndsTheReadWith400(Setup setup) throws Exception {
        try (TestClient client = start(setup)) {
            try (RawConnection raw = client.raw()) {
                raw.write("PUT /read HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n");
                raw.write(new byte[5000]);
                assertThat(started.poll(20, TimeUnit.SECONDS)).as("the handler reads").isNotNull();
            }
            assertThat(outcome()).isEqualTo("problem 400");
            try (RawConnection raw = client.raw()) {
                raw.write("PUT /read HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n10\r\n0123456789abcdef\r\n");
                assertThat(started.poll(20, TimeUnit.SECONDS)).as("the handler reads").isNotNull();
                raw.shutdownOutput(); // a FIN halfway through the chunks
                raw.readResponseOrClose();
            }
            assertThat(outcome()).isEqualTo("problem 400");
            assertThat(client.get("/hello").text()).isEqualTo("hello");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modesAndProtocols")
    void aHandlerThatStopsEarlyLeavesTheRestDrainedOrTheConnectionClosed(Setup setup) throws Exception {
        try (TestClient client = start(setup)) {
            try (Connection c = client.connect()) {
                // The rest is within maxDrainBytes: read and discarded, the connection serves on.
                TestResponse r = c.send(TestRequest.of("PUT", "/read10").body("application/octet-stream", new byte[(int) DRAIN]));
                assertThat(r.status()).isEqualTo(200);
                assertThat(r.text()).isEqualTo("stopped");
                assertThat(r.header("Connection")).isEmpty();
                assertThat(c.send(TestRequest.get("/hello")).text()).isEqualTo("hello");
                // Past it (and past what the stream holds, so it cannot all be in already): the answer, then the
                // connection closes.
                r = c.send(TestRequest.of("PUT", "/read10").body("application/octet-stream", new byte[(int) LIMIT]));
                assertThat(r.text()).isEqualTo("stopped");
                assertThat(c.isClosedByServer(Duration.ofSeconds(10))).isTrue();
            }
            try (Connection c = client.connect()) {
                TestResponse r = c.send(TestRequest.of("PUT", "/throw").body("application/octet-stream", new byte[1000]));
                assertThat(r.status()).isEqualTo(500);
                assertThat(c.send(TestRequest.get("/hello")).text()).as("drained: keep-alive holds").isEqualTo("hello");
                r = c.send(TestRequest.of("PUT", "/throw").body("application/octet-stream", new byte[(int) LIMIT]));
                assertThat(r.status()).isEqualTo(500);
                assertThat(c.isClosedByServer(Duration.ofSeconds(10))).isTrue();
            }
            assertThat(client.get("/hello").text()).isEqualTo("hello");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modesAndProtocols")
    void aCompressionBombStopsAtTheLimit(Setup setup) throws Exception {
        ByteArrayOutputStream gz = new ByteArrayOutputStream();
        try (GZIPOutputStream out = new GZIPOutputStream(gz)) {
            out.write(new byte[(int) (8 * LIMIT)]);
        }
        assertThat(gz.size()).isLessThan((int) LIMIT / 16);
        try (TestClient client = start(setup); Connection c = client.connect()) {
            TestResponse r = c.send(TestRequest.of("PUT", "/read").header("Content-Encoding", "gzip")
                    .body("application/octet-stream", gz.toByteArray()));
            assertThat(r.status()).isEqualTo(413);
            assertThat(r.text()).contains("gzip-decoded").contains("maxBodyBytes");
            assertThat(outcome()).isEqualTo("problem 413");
            assertThat(client.get("/hello").text()).isEqualTo("hello");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modesAndProtocols")
    void aHandlerThatNeitherReadsNorAnswersTimesOut(Setup setup) throws Exception {
        try (TestClient client = start(setup); Connection c = client.connect()) {
            TestResponse r = c.send(TestRequest.of("PUT", "/idle").body("application/octet-stream", new byte[10_000]));
            assertThat(r.status()).isEqualTo(504);
            assertThat(client.get("/hello").text()).isEqualTo("hello");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modesAndProtocols")
    void pipelinedRequestsAfterAStreamedBodyAreServedInOrder(Setup setup) throws Exception {
        try (TestClient client = start(setup); Connection c = client.connect()) {
            List<TestResponse> rs = c.pipeline(List.of(
                    TestRequest.of("PUT", "/read").body("application/octet-stream", new byte[300_000]),
                    TestRequest.get("/hello"),
                    TestRequest.of("PUT", "/read").body("application/octet-stream", new byte[5]).chunked(List.of(new byte[7])),
                    TestRequest.get("/hello")));
            assertThat(rs).extracting(TestResponse::text).containsExactly("300000", "hello", "7", "hello");
        }
    }
}
