package dev.tidemill.tests.responses;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.Response;
import dev.tidemill.testing.H2Wire;
import dev.tidemill.testing.RawConnection;
import dev.tidemill.testing.TestClient;
import dev.tidemill.tests.support.Setup;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Trailer fields on a streamed response ({@code ResponseStream.close(Map)}): after the last chunk
 * on HTTP/1.1, as a final HEADERS frame that ends the stream on HTTP/2, in every execution mode; a
 * field that cannot be a trailer is refused by name, and the response still ends.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ResponseTrailersTest {
    static final AtomicReference<Throwable> REFUSED = new AtomicReference<>();

    private static TestClient start(Setup setup) {
        return setup.start(app -> {
            app.get("/digest", req -> Response.stream("text/plain", s -> s.write("part one, ")
                    .thenCompose(v -> s.write("part two"))
                    .whenComplete((v, e) -> {
                        Map<String, String> t = new LinkedHashMap<>();
                        t.put("X-Checksum", "sha256=abc123");
                        t.put("grpc-status", "0");
                        s.close(t);
                    })));
            app.get("/bad", req -> Response.stream("text/plain", s -> s.write("body").whenComplete((v, e) -> {
                try {
                    s.close(Map.of("Content-Length", "4"));
                } catch (IllegalArgumentException refused) {
                    REFUSED.set(refused);
                    s.close();
                }
            })));
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modesAndProtocols")
    void trailersFollowTheLastChunkOnHttp11(Setup setup) {
        try (TestClient client = start(setup); RawConnection raw = client.raw()) {
            raw.write("GET /digest HTTP/1.1\r\nHost: x\r\nTE: trailers\r\nConnection: close\r\n\r\n");
            String all = new String(raw.readAllUntilClose(), StandardCharsets.ISO_8859_1);
            assertThat(all).startsWith("HTTP/1.1 200").endsWith("\r\n0\r\nx-checksum: sha256=abc123\r\ngrpc-status: 0\r\n\r\n");
            assertThat(all.toLowerCase()).contains("transfer-encoding: chunked");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modesAndProtocols")
    void trailersAreAFinalHeadersFrameOnHttp2(Setup setup) {
        try (TestClient client = start(setup); H2Wire w = H2Wire.open(client.port())) {
            w.request(1, "/digest");
            assertThat(w.expectStatus(1)).isEqualTo(200);
            assertThat(new String(w.expectBody(1), StandardCharsets.UTF_8)).isEqualTo("part one, part two");
            assertThat(w.trailers()).containsEntry("x-checksum", List.of("sha256=abc123")).containsEntry("grpc-status", List.of("0"));
            assertThat(w.trailers().keySet()).noneMatch(k -> k.startsWith(":"));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modesAndProtocols")
    void aFieldThatCannotBeATrailerIsRefusedByNameAndTheResponseStillEnds(Setup setup) throws Exception {
        REFUSED.set(null);
        try (TestClient client = start(setup)) {
            assertThat(client.get("/bad").text()).isEqualTo("body");
            assertThat(REFUSED.get()).hasMessageContaining("content-length cannot be a trailer");
        }
    }
}
