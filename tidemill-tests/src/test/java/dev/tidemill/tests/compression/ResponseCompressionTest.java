package dev.tidemill.tests.compression;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.ExecutionMode;
import dev.tidemill.Response;
import dev.tidemill.testing.RawConnection;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestRequest;
import dev.tidemill.testing.TestResponse;
import dev.tidemill.tests.support.Decoders;
import dev.tidemill.tests.support.Setup;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Full bodies are compressed as {@code Accept-Encoding} asks (br > zstd > gzip on ties, q-values,
 * {@code *}, 406 when nothing is acceptable), decoded here by the real decoders to the bytes the
 * handler returned; what must never be compressed is not; {@code Vary} is merged. Every
 * execution mode: the compressor runs on the handler's thread, whichever that is.
 */
@Timeout(120)
class ResponseCompressionTest {
    record Row(int id, String name, String note) {}

    /** Compressible text of exactly {@code n} bytes. */
    static String text(int n) {
        StringBuilder sb = new StringBuilder(n + 32);
        for (int i = 0; sb.length() < n; i++) sb.append("row ").append(i).append(": the tide mills grind slowly. ");
        return sb.substring(0, n);
    }

    static final String PAGE = text(16 * 1024);

    private static TestClient start(Setup setup) {
        return setup.start(app -> {
            app.get("/page", req -> Response.ok().html(PAGE));
            app.get("/text/{n}", req -> text(Integer.parseInt(req.pathParam("n"))));
            app.get("/json", req -> List.of(new Row(1, "tide", text(400)), new Row(2, "mill", text(400))));
            app.get("/image", req -> Response.ok().bytes(PAGE.getBytes(StandardCharsets.UTF_8), "image/png"));
            app.get("/svg", req -> Response.ok().bytes(PAGE.getBytes(StandardCharsets.UTF_8), "image/svg+xml"));
            app.get("/font", req -> Response.ok().bytes(PAGE.getBytes(StandardCharsets.UTF_8), "font/woff2"));
            app.get("/video", req -> Response.ok().bytes(PAGE.getBytes(StandardCharsets.UTF_8), "video/mp4"));
            app.get("/audio", req -> Response.ok().bytes(PAGE.getBytes(StandardCharsets.UTF_8), "audio/ogg"));
            app.get("/zip", req -> Response.ok().bytes(PAGE.getBytes(StandardCharsets.UTF_8), "application/zip"));
            app.get("/encoded", req -> Response.ok().header("Content-Encoding", "gzip")
                    .bytes(gzip(PAGE.getBytes(StandardCharsets.UTF_8)), "text/html; charset=utf-8"));
            app.get("/no-transform", req -> Response.ok().header("Cache-Control", "public, no-transform").text(PAGE));
            app.get("/vary", req -> Response.ok().header("Vary", "Origin").text(PAGE));
            app.get("/etag", req -> Response.ok().header("ETag", "\"v1\"").text(PAGE));
            app.get("/vary-already", req -> Response.ok().header("Vary", "accept-encoding, Origin").text(PAGE));
            app.get("/random", req -> {
                byte[] b = new byte[8192];
                ThreadLocalRandom.current().nextBytes(b);
                return Response.ok().bytes(b, "text/plain");
            });
            app.get("/empty", req -> null);
            app.get("/not-modified", req -> Response.status(304).header("ETag", "\"1\"").text(PAGE));
            app.get("/missing", req -> Response.status(404).text(PAGE));
            app.get("/off", req -> PAGE).compress(false);
            app.get("/large", req -> text(200 * 1024));
        });
    }

    private static TestResponse get(TestClient c, String path, String acceptEncoding) {
        TestRequest r = TestRequest.get(path);
        return c.send(acceptEncoding == null ? r : r.header("Accept-Encoding", acceptEncoding));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modesAndProtocols")
    void everyCodingDecodesToTheOriginalBytes(Setup setup) {
        try (TestClient c = start(setup)) {
            byte[] page = PAGE.getBytes(StandardCharsets.UTF_8);
            for (String coding : List.of("br", "zstd", "gzip")) {
                TestResponse r = get(c, "/page", coding);
                assertThat(r.status()).isEqualTo(200);
                assertThat(r.header("Content-Encoding")).as(coding).hasValue(coding);
                assertThat(r.header("Vary")).as(coding).hasValue("Accept-Encoding");
                assertThat(r.header("Content-Length")).as(coding).hasValue(String.valueOf(r.body().length));
                assertThat(r.body().length).as(coding).isLessThan(page.length / 4);
                assertThat(Decoders.decode(coding, r.body())).as(coding).isEqualTo(page);
                assertThat(r.header("Content-Type")).as(coding).hasValue("text/html; charset=utf-8");

                TestResponse json = get(c, "/json", coding);
                assertThat(json.header("Content-Encoding")).as(coding).hasValue(coding);
                assertThat(new String(Decoders.decode(coding, json.body()), StandardCharsets.UTF_8))
                        .as(coding).startsWith("[{\"id\":1,\"name\":\"tide\"");
            }
        }
    }

    /** The negotiation table on the wire; the parser's corner cases are AcceptEncodingTest's. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modesAndProtocols")
    void negotiationPicksWhatTheClientPrefers(Setup setup) {
        Map<String, Optional<String>> table = new java.util.LinkedHashMap<>();
        table.put("gzip, deflate, br, zstd", Optional.of("br"));
        table.put("gzip, zstd", Optional.of("zstd"));
        table.put("br;q=0.5, zstd;q=0.5, gzip;q=0.5", Optional.of("br"));
        table.put("br;q=0.2, zstd;q=0.5, gzip;q=0.8", Optional.of("gzip"));
        table.put("*", Optional.of("br"));
        table.put("br;q=0, *;q=0.5", Optional.of("zstd"));
        table.put("gzip;q=0.5, identity", Optional.empty());
        table.put("identity", Optional.empty());
        table.put("deflate", Optional.empty());
        table.put("gzip;q=2", Optional.empty()); // malformed: identity, not an error
        table.put("gzip;;", Optional.empty());
        table.put("identity;q=0, gzip", Optional.of("gzip"));
        try (TestClient c = start(setup)) {
            for (Map.Entry<String, Optional<String>> row : table.entrySet()) {
                TestResponse r = get(c, "/page", row.getKey());
                assertThat(r.status()).as(row.getKey()).isEqualTo(200);
                assertThat(r.header("Content-Encoding")).as(row.getKey()).isEqualTo(row.getValue());
                assertThat(r.header("Vary")).as(row.getKey()).hasValue("Accept-Encoding");
                byte[] body = row.getValue().map(coding -> Decoders.decode(coding, r.body())).orElse(r.body());
                assertThat(new String(body, StandardCharsets.UTF_8)).as(row.getKey()).isEqualTo(PAGE);
            }
            TestResponse none = get(c, "/page", null);
            assertThat(none.header("Content-Encoding")).as("no Accept-Encoding").isEmpty();
            assertThat(none.text()).isEqualTo(PAGE);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modesAndProtocols")
    void nothingAcceptableIs406AndTheConnectionServesTheNextRequest(Setup setup) {
        try (TestClient c = start(setup); RawConnection raw = c.raw()) {
            for (String refusal : List.of("identity;q=0", "*;q=0", "identity;q=0, deflate", "*;q=0, gzip;q=0")) {
                raw.write("GET /page HTTP/1.1\r\nHost: x\r\nAccept-Encoding: " + refusal + "\r\n\r\n");
                TestResponse r = raw.readResponse();
                assertThat(r.status()).as(refusal).isEqualTo(406);
                assertThat(r.header("Content-Type")).as(refusal).hasValue("application/problem+json");
                assertThat(r.header("Content-Encoding")).as(refusal).isEmpty();
                assertThat(r.header("Vary")).as(refusal).hasValue("Accept-Encoding");
            }
            raw.write("GET /page HTTP/1.1\r\nHost: x\r\nAccept-Encoding: *;q=0, identity\r\n\r\n");
            TestResponse ok = raw.readResponse();
            assertThat(ok.status()).isEqualTo(200);
            assertThat(ok.text()).isEqualTo(PAGE);
            // An error status is never turned into a 406: the client gets the error.
            assertThat(get(c, "/missing", "identity;q=0").status()).isEqualTo(404);
            // A small body the client refuses as it is gets compressed whatever its size.
            TestResponse small = get(c, "/text/20", "identity;q=0, gzip");
            assertThat(small.header("Content-Encoding")).hasValue("gzip");
            assertThat(new String(Decoders.decode("gzip", small.body()), StandardCharsets.UTF_8)).isEqualTo(text(20));
        }
    }

    /** The I/O loop compresses at most 64 KiB per response; a worker or virtual thread any size. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modesAndProtocols")
    void aLargeBodyIsCompressedOffTheIoLoopOnly(Setup setup) {
        try (TestClient c = start(setup)) {
            TestResponse r = get(c, "/large", "zstd");
            assertThat(r.header("Vary")).hasValue("Accept-Encoding");
            if (setup.mode() == ExecutionMode.IO) {
                assertThat(r.header("Content-Encoding")).isEmpty();
                assertThat(r.text()).isEqualTo(text(200 * 1024));
            } else {
                assertThat(r.header("Content-Encoding")).hasValue("zstd");
                assertThat(new String(Decoders.decode("zstd", r.body()), StandardCharsets.UTF_8)).isEqualTo(text(200 * 1024));
            }
            // the page (under the bound) is compressed in every mode
            assertThat(get(c, "/page", "zstd").header("Content-Encoding")).hasValue("zstd");
        }
    }

    @Test
    void theMinimumSizeIsInclusive() {
        try (TestClient c = start(Setup.onDefaultTransport(ExecutionMode.LOOP))) {
            TestResponse below = get(c, "/text/511", "gzip");
            assertThat(below.header("Content-Encoding")).isEmpty();
            assertThat(below.header("Vary")).isEmpty();
            assertThat(below.text()).isEqualTo(text(511));
            TestResponse at = get(c, "/text/512", "gzip");
            assertThat(at.header("Content-Encoding")).hasValue("gzip");
            assertThat(at.header("Vary")).hasValue("Accept-Encoding");
            assertThat(new String(Decoders.decode("gzip", at.body()), StandardCharsets.UTF_8)).isEqualTo(text(512));
        }
        try (TestClient c = Setup.onDefaultTransport(ExecutionMode.LOOP).start(b -> b.compressionMinBytes(2048),
                app -> app.get("/text/{n}", req -> text(Integer.parseInt(req.pathParam("n")))))) {
            assertThat(get(c, "/text/2047", "br").header("Content-Encoding")).isEmpty();
            assertThat(get(c, "/text/2048", "br").header("Content-Encoding")).hasValue("br");
        }
    }

    @Test
    void whatIsAlreadyCompressedOrMustNotBeTransformedGoesAsItIs() {
        try (TestClient c = start(Setup.onDefaultTransport(ExecutionMode.LOOP))) {
            for (String path : List.of("/image", "/font", "/video", "/audio", "/zip", "/no-transform", "/off")) {
                TestResponse r = get(c, path, "br, zstd, gzip");
                assertThat(r.status()).as(path).isEqualTo(200);
                assertThat(r.header("Content-Encoding")).as(path).isEmpty();
                assertThat(r.header("Vary")).as(path).isEmpty();
                assertThat(r.text()).as(path).isEqualTo(PAGE);
            }
            TestResponse svg = get(c, "/svg", "gzip");
            assertThat(svg.header("Content-Encoding")).as("SVG is text").hasValue("gzip");
            // Random bytes do not shrink: sent as they are, but the choice still depended on the header.
            TestResponse random = get(c, "/random", "gzip");
            assertThat(random.header("Content-Encoding")).isEmpty();
            assertThat(random.body()).hasSize(8192);
            assertThat(random.header("Vary")).hasValue("Accept-Encoding");
        }
    }

    @Test
    void aBodyTheHandlerEncodedIsNotCompressedTwice() {
        try (TestClient c = start(Setup.onDefaultTransport(ExecutionMode.LOOP))) {
            for (String ae : List.of("br", "zstd", "gzip", "br, gzip")) {
                TestResponse r = get(c, "/encoded", ae);
                assertThat(r.headers("Content-Encoding")).as(ae).containsExactly("gzip");
                assertThat(new String(Decoders.decode("gzip", r.body()), StandardCharsets.UTF_8)).as(ae).isEqualTo(PAGE);
            }
        }
    }

    @Test
    void varyIsMergedIntoTheHandlersVary() {
        try (TestClient c = start(Setup.onDefaultTransport(ExecutionMode.LOOP))) {
            TestResponse r = get(c, "/vary", "gzip");
            assertThat(r.headers("Vary")).containsExactly("Origin, Accept-Encoding");
            assertThat(r.header("Content-Encoding")).hasValue("gzip");
            TestResponse already = get(c, "/vary-already", "gzip");
            assertThat(already.headers("Vary")).containsExactly("accept-encoding, Origin");
            assertThat(get(c, "/vary", null).headers("Vary")).containsExactly("Origin, Accept-Encoding");
        }
    }

    @Test
    void aStrongEtagBecomesWeakWhenTheBodyIsCompressed() {
        try (TestClient c = start(Setup.onDefaultTransport(ExecutionMode.LOOP))) {
            assertThat(get(c, "/etag", "gzip").header("ETag")).hasValue("W/\"v1\"");
            assertThat(get(c, "/etag", null).header("ETag")).hasValue("\"v1\"");
        }
    }

    @Test
    void headAnd204And304AreNeverCompressed() {
        try (TestClient c = start(Setup.onDefaultTransport(ExecutionMode.LOOP)); RawConnection raw = c.raw()) {
            raw.write("HEAD /page HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\n\r\n"
                    + "GET /empty HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\n\r\n"
                    + "GET /not-modified HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\n\r\n"
                    + "GET /text/600 HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\n\r\n");
            TestResponse head = raw.readResponse("HEAD");
            assertThat(head.status()).isEqualTo(200);
            assertThat(head.header("Content-Encoding")).isEmpty();
            assertThat(head.header("Content-Length")).hasValue(String.valueOf(PAGE.length()));
            assertThat(head.body()).isEmpty();
            TestResponse empty = raw.readResponse();
            assertThat(empty.status()).isEqualTo(204);
            assertThat(empty.header("Content-Encoding")).isEmpty();
            TestResponse notModified = raw.readResponse();
            assertThat(notModified.status()).isEqualTo(304);
            assertThat(notModified.header("Content-Encoding")).isEmpty();
            assertThat(notModified.body()).isEmpty();
            // The response after them parses: nothing was left on the wire.
            TestResponse next = raw.readResponse();
            assertThat(next.header("Content-Encoding")).hasValue("gzip");
            assertThat(new String(Decoders.decode("gzip", next.body()), StandardCharsets.UTF_8)).isEqualTo(text(600));
        }
    }

    @Test
    void turnedOffForTheAppNothingIsCompressed() {
        try (TestClient c = Setup.onDefaultTransport(ExecutionMode.LOOP).start(b -> b.compression(false), app -> {
            app.get("/page", req -> PAGE);
            app.get("/on", req -> PAGE).compress(true);
        })) {
            TestResponse r = get(c, "/page", "br, zstd, gzip");
            assertThat(r.header("Content-Encoding")).isEmpty();
            assertThat(r.header("Vary")).isEmpty();
            assertThat(r.text()).isEqualTo(PAGE);
            // With compression off, identity;q=0 is not the server's business: no 406.
            assertThat(get(c, "/page", "identity;q=0").status()).isEqualTo(200);
            assertThat(get(c, "/on", "zstd").header("Content-Encoding")).hasValue("zstd");
        }
    }

    private static byte[] gzip(byte[] bytes) {
        var out = new java.io.ByteArrayOutputStream();
        try (var gz = new java.util.zip.GZIPOutputStream(out)) {
            gz.write(bytes);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return out.toByteArray();
    }
}
