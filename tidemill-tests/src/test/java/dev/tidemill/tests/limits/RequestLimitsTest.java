package dev.tidemill.tests.limits;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.Config;
import dev.tidemill.ExecutionMode;
import dev.tidemill.RouteGroup;
import dev.tidemill.Tidemill;
import dev.tidemill.testing.Connection;
import dev.tidemill.testing.RawConnection;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestRequest;
import dev.tidemill.testing.TestResponse;
import dev.tidemill.tests.support.Setup;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Request-size limits at their boundaries: request line (414), header block (431), header count
 * (431), body (413, a declared length refused before the body is sent), per route and per group.
 *
 * <p>Definitions used: the request line is {@code method SP target SP version} without its CRLF;
 * the header block is the header field lines without their CRLFs; the header count includes
 * {@code Host}.
 */
@Timeout(120)
class RequestLimitsTest {
    private static final Setup ONE = Setup.onDefaultTransport(ExecutionMode.LOOP);

    private final AtomicInteger handled = new AtomicInteger();

    private TestClient start(Consumer<Config.Builder> tweak) {
        return ONE.start(tweak, app -> routes(app, handled));
    }

    /** The routes both protocols' limit tests use; {@code handled} counts what reached a counting handler. */
    static void routes(Tidemill app, AtomicInteger handled) {
        app.get("/hello", req -> "hello");
        app.get("/{*rest}", req -> {
            handled.incrementAndGet();
            return "path " + req.path().length();
        });
        app.post("/upload", req -> {
            handled.incrementAndGet();
            return "got " + req.body().length;
        });
        app.post("/small", req -> "got " + req.body().length).maxBodyBytes(10);
        app.post("/big", req -> "got " + req.body().length).maxBodyBytes(4096);
        RouteGroup g = app.group("/g").maxBodyBytes(20);
        g.post("/x", req -> "got " + req.body().length);
        g.post("/y", req -> "got " + req.body().length).maxBodyBytes(30);
        g.group("/h").post("/z", req -> "got " + req.body().length);
    }

    // ------------------------------------------------------------------ request line

    @Test
    void requestLineAtTheLimitPassesOnePastIs414() {
        int limit = 100;
        try (TestClient client = start(b -> b.maxRequestLineBytes(limit))) {
            String atLimit = requestLine(limit);
            assertThat(atLimit).hasSize(limit);
            try (RawConnection raw = client.raw()) {
                raw.write(atLimit + "\r\nHost: x\r\n\r\n");
                TestResponse r = raw.readResponse();
                assertThat(r.status()).as("%s", r).isEqualTo(200);
                raw.write("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n");
                assertThat(raw.readResponse().status()).as("the next request on the same connection").isEqualTo(200);
            }
            assertRefused(client, requestLine(limit + 1) + "\r\nHost: x\r\n\r\n", 414, "maxRequestLineBytes");
        }
    }

    @Test
    void defaultRequestLineTakes8000ByteUrisAndRefusesOver8KiB() {
        try (TestClient client = start(b -> { })) {
            String uri = "/" + "u".repeat(7999);
            TestResponse ok = client.get(uri);
            assertThat(ok.status()).as("%s", ok).isEqualTo(200);
            assertThat(ok.text()).isEqualTo("path 8000");
            try (RawConnection raw = client.raw()) {
                raw.write(requestLine(8192) + "\r\nHost: x\r\nConnection: close\r\n\r\n");
                TestResponse r = raw.readResponse();
                assertThat(r.status()).as("request line of exactly 8192 bytes: %s", r).isEqualTo(200);
            }
            assertRefused(client, requestLine(8192 + 1) + "\r\nHost: x\r\n\r\n", 414, "maxRequestLineBytes");
            assertRefused(client, "GET /" + "u".repeat(20_000) + " HTTP/1.1\r\nHost: x\r\n\r\n", 414, "maxRequestLineBytes");
        }
    }

    // ------------------------------------------------------------------ header block

    @Test
    void headerBlockAtTheLimitPassesOnePastIs431() {
        int limit = 512;
        try (TestClient client = start(b -> b.maxHeaderBytes(limit))) {
            try (RawConnection raw = client.raw()) {
                raw.write("GET /hello HTTP/1.1\r\n" + headerBlock(limit) + "\r\n");
                TestResponse r = raw.readResponse();
                assertThat(r.status()).as("%s", r).isEqualTo(200);
            }
            assertRefused(client, "GET /hello HTTP/1.1\r\n" + headerBlock(limit + 1) + "\r\n", 431, "maxHeaderBytes");
        }
    }

    @Test
    void defaultHeaderBlockIs16KiB() {
        try (TestClient client = start(b -> { })) {
            try (RawConnection raw = client.raw()) {
                raw.write("GET /hello HTTP/1.1\r\n" + headerBlock(16 * 1024) + "\r\n");
                TestResponse r = raw.readResponse();
                assertThat(r.status()).as("%s", r).isEqualTo(200);
            }
            assertRefused(client, "GET /hello HTTP/1.1\r\n" + headerBlock(16 * 1024 + 1) + "\r\n", 431, "maxHeaderBytes");
        }
    }

    // ------------------------------------------------------------------ header count

    @Test
    void hundredHeadersPassAHundredAndOneAre431() {
        try (TestClient client = start(b -> { })) {
            try (RawConnection raw = client.raw()) {
                raw.write("GET /hello HTTP/1.1\r\n" + headers(100) + "\r\n");
                TestResponse r = raw.readResponse();
                assertThat(r.status()).as("%s", r).isEqualTo(200);
            }
            assertRefused(client, "GET /hello HTTP/1.1\r\n" + headers(101) + "\r\n", 431, "maxHeaderCount");
        }
    }

    @Test
    void configuredHeaderCountIsExact() {
        try (TestClient client = start(b -> b.maxHeaderCount(5))) {
            try (RawConnection raw = client.raw()) {
                raw.write("GET /hello HTTP/1.1\r\n" + headers(5) + "\r\n");
                assertThat(raw.readResponse().status()).isEqualTo(200);
            }
            assertRefused(client, "GET /hello HTTP/1.1\r\n" + headers(6) + "\r\n", 431, "maxHeaderCount");
        }
    }

    // ------------------------------------------------------------------ body

    @Test
    void bodyAtTheLimitPassesOnePastIs413() {
        try (TestClient client = start(b -> b.maxBodyBytes(1024))) {
            try (Connection c = client.connect()) {
                TestResponse ok = c.send(TestRequest.of("POST", "/upload").body("application/octet-stream", new byte[1024]));
                assertThat(ok.status()).as("%s", ok).isEqualTo(200);
                assertThat(ok.text()).isEqualTo("got 1024");
                assertThat(c.send(TestRequest.get("/hello")).text()).as("the connection still serves").isEqualTo("hello");
            }
            handled.set(0);
            // Declared and sent.
            assertRefused(client, "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 1025\r\n\r\n"
                    + "b".repeat(1025), 413, "maxBodyBytes");
            // Chunked: no declared length, the body itself goes over.
            assertRefused(client, "POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + "400\r\n" + "b".repeat(1024) + "\r\n1\r\nb\r\n0\r\n\r\n", 413, "maxBodyBytes");
            assertThat(handled).hasValue(0);
        }
    }

    @Test
    void declaredLengthOverTheLimitIsRefusedBeforeTheBodyIsSent() {
        try (TestClient client = start(b -> b.maxBodyBytes(1024))) {
            // Only the head is written: the 413 must come without waiting for a body.
            assertRefused(client, "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 1025\r\n\r\n", 413, "maxBodyBytes");
            assertThat(handled).hasValue(0);
        }
    }

    @Test
    void defaultBodyLimitIs16MiB() {
        int mib16 = 16 * 1024 * 1024;
        try (TestClient client = start(b -> { })) {
            TestResponse ok = client.post("/upload", "application/octet-stream", new byte[mib16]);
            assertThat(ok.status()).as("%s", ok).isEqualTo(200);
            assertThat(ok.text()).isEqualTo("got " + mib16);
            handled.set(0);
            assertRefused(client, "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: " + (mib16 + 1) + "\r\n\r\n",
                    413, "maxBodyBytes");
            // Huge declared lengths are refused from the head alone, nothing allocated for them.
            assertRefused(client, "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000000000000\r\n\r\n",
                    413, "maxBodyBytes");
            assertRefused(client, "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: " + Long.MAX_VALUE + "\r\n\r\n",
                    413, "maxBodyBytes");
            assertThat(handled).hasValue(0);
        }
    }

    @Test
    void routeAndGroupLimitsOverrideTheAppLimit() {
        try (TestClient client = start(b -> b.maxBodyBytes(1024))) {
            for (var c : List.of(
                    new Object[] {"/small", 10}, new Object[] {"/big", 4096}, new Object[] {"/g/x", 20},
                    new Object[] {"/g/y", 30}, new Object[] {"/g/h/z", 20}, new Object[] {"/upload", 1024})) {
                String path = (String) c[0];
                int limit = (Integer) c[1];
                TestResponse ok = client.post(path, "application/octet-stream", new byte[limit]);
                assertThat(ok.status()).as("%s at %d: %s", path, limit, ok).isEqualTo(200);
                assertThat(ok.text()).isEqualTo("got " + limit);
                assertRefused(client, "POST " + path + " HTTP/1.1\r\nHost: x\r\nContent-Length: " + (limit + 1)
                        + "\r\n\r\n", 413, limit + "-byte limit");
                assertRefused(client, "POST " + path + " HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                        + Integer.toHexString(limit + 1) + "\r\n" + "c".repeat(limit + 1) + "\r\n0\r\n\r\n",
                        413, limit + "-byte limit");
            }
        }
    }

    @Test
    void refusedRequestBodyIsDrainedUpToMaxDrainBytesThenTheConnectionCloses() {
        try (TestClient client = start(b -> b.maxDrainBytes(100))) {
            try (RawConnection raw = client.raw()) {
                // Refused (405: only GET matches /nowhere) with a body within maxDrainBytes: drained, the connection stays usable.
                raw.write("POST /nowhere HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n" + "d".repeat(100));
                TestResponse r = raw.readResponse();
                assertThat(r.status()).as("%s", r).isEqualTo(405);
                assertThat(r.header("Connection")).isEmpty();
                raw.write("POST /nowhere HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                        + "32\r\n" + "d".repeat(50) + "\r\n0\r\n\r\n");
                assertThat(raw.readResponse().status()).isEqualTo(405);
                raw.write("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n");
                assertThat(raw.readResponse().text()).isEqualTo("hello");
            }
            // Declared over maxDrainBytes: answered with Connection: close, then closed.
            try (RawConnection raw = client.raw()) {
                raw.write("POST /nowhere HTTP/1.1\r\nHost: x\r\nContent-Length: 101\r\n\r\n");
                TestResponse r = raw.readResponse();
                assertThat(r.status()).isEqualTo(405);
                assertThat(r.header("Connection")).hasValueSatisfying(v -> assertThat(v).isEqualToIgnoringCase("close"));
                assertThat(raw.awaitClosed(Duration.ofSeconds(5))).isTrue();
            }
            // Chunked past maxDrainBytes: closed once the drained bytes exceed it.
            try (RawConnection raw = client.raw()) {
                raw.write("POST /nowhere HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                        + "65\r\n" + "d".repeat(101) + "\r\n0\r\n\r\nGET /hello HTTP/1.1\r\nHost: x\r\n\r\n");
                assertThat(raw.readResponse().status()).isEqualTo(405);
                assertThat(raw.awaitClosed(Duration.ofSeconds(5))).isTrue();
                assertThat(raw.readAllUntilClose()).as("a response after the undrained body").isEmpty();
            }
            assertThat(client.get("/hello").status()).isEqualTo(200);
        }
    }

    // ------------------------------------------------------------------ helpers

    /** Sends the bytes on a fresh connection; expects the problem, the close, and the next client served. */
    private static void assertRefused(TestClient client, String request, int status, String mentions) {
        try (RawConnection raw = client.raw()) {
            raw.write(request);
            TestResponse r = raw.readResponse();
            assertThat(r.status()).as("%s", r).isEqualTo(status);
            assertThat(r.header("Content-Type")).as("%s", r).hasValue("application/problem+json");
            assertThat(r.jsonTree().get("status").asInt()).isEqualTo(status);
            assertThat(r.text()).contains(mentions);
            assertThat(raw.awaitClosed(Duration.ofSeconds(5))).as("closed after %d", status).isTrue();
        }
        assertThat(client.get("/hello").status()).as("next client").isEqualTo(200);
    }

    /** @return {@code GET /xxx HTTP/1.1} of exactly {@code length} bytes */
    private static String requestLine(int length) {
        int path = length - "GET  HTTP/1.1".length();
        return "GET /" + "r".repeat(path - 1) + " HTTP/1.1";
    }

    /** @return {@code Host: x} and padding, field lines of exactly {@code bytes} bytes without CRLFs, each line ended by CRLF */
    private static String headerBlock(int bytes) {
        StringBuilder s = new StringBuilder("Host: x\r\n");
        int left = bytes - "Host: x".length();
        int i = 0;
        while (left > 0) {
            String name = "X-Pad-" + i++ + ": ";
            int value = Math.min(left - name.length(), 4000);
            if (value < 1) { // too little room for another field: lengthen the previous one
                throw new IllegalStateException("choose another size");
            }
            s.append(name).append("p".repeat(value)).append("\r\n");
            left -= name.length() + value;
        }
        return s.toString();
    }

    /** @return {@code count} header fields, Host included */
    private static String headers(int count) {
        StringBuilder s = new StringBuilder("Host: x\r\n");
        for (int i = 1; i < count; i++) s.append("X-H").append(i).append(": v\r\n");
        return s.toString();
    }
}
