package dev.tidemill.tests.limits;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.Config;
import dev.tidemill.ExecutionMode;
import dev.tidemill.testing.H2Fields;
import dev.tidemill.testing.H2Wire;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestRequest;
import dev.tidemill.testing.TestResponse;
import dev.tidemill.tests.support.Setup;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.json.JsonMapper;

/**
 * The request limits of {@link RequestLimitsTest} over cleartext HTTP/2, in every mode: the body
 * (413, a declared {@code content-length} over it refused before any DATA), per route and group,
 * the target (414, measured as the HTTP/1.1 request line the same request would have, so a target
 * is refused alike over both protocols), the header count and the header list (431). Each refusal
 * is a problem naming its limit, on its stream alone: the connection serves the next stream. A
 * header list past 1.25 times the limit is not decoded at all: GOAWAY, and the next client is served.
 */
@Timeout(120)
class RequestLimitsOverHttp2Test {
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final AtomicInteger handled = new AtomicInteger();

    static Stream<Setup> modes() {
        return Setup.modes().map(s -> s.over(TestClient.Protocol.H2C));
    }

    private TestClient start(Setup setup, Consumer<Config.Builder> tweak) {
        return setup.start(tweak, app -> RequestLimitsTest.routes(app, handled));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("modes")
    void bodyAtTheLimitPassesOnePastIs413DeclaredOrNot(Setup setup) {
        try (TestClient client = start(setup, b -> b.maxBodyBytes(1024))) {
            TestResponse ok = client.send(TestRequest.of("POST", "/upload").body("application/octet-stream", new byte[1024]));
            assertThat(ok.httpVersion()).isEqualTo("HTTP/2.0");
            assertThat(ok.status()).as("%s", ok).isEqualTo(200);
            assertThat(ok.text()).isEqualTo("got 1024");
            handled.set(0);
            assertProblem(client.send(TestRequest.of("POST", "/upload").body("application/octet-stream", new byte[1025])),
                    413, "maxBodyBytes");
            // No content-length: DATA frames, the body itself goes over.
            assertProblem(client.send(TestRequest.of("POST", "/upload").chunked(List.of(new byte[1024], new byte[1]))),
                    413, "maxBodyBytes");
            assertThat(handled).hasValue(0);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("modes")
    void aDeclaredLengthOverTheLimitIsRefusedBeforeAnyDataAndTheConnectionServesOn(Setup setup) {
        try (TestClient client = start(setup, b -> b.maxBodyBytes(1024));
                H2Wire wire = H2Wire.open(client.port())) {
            // Only the head: the 413 must come without waiting for a body.
            wire.headers(1, H2Wire.END_HEADERS, wire.hpack(":method", "POST", ":scheme", "http", ":path", "/upload",
                    ":authority", "127.0.0.1", "content-length", "1025"));
            assertWireProblem(wire, 1, 413, "maxBodyBytes");
            wire.request(3, "/hello");
            assertThat(wire.expectStatus(3)).as("the next stream on the same connection").isEqualTo(200);
            assertThat(new String(wire.expectBody(3), StandardCharsets.UTF_8)).isEqualTo("hello");
            assertThat(handled).hasValue(0);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("modes")
    void routeAndGroupLimitsOverrideTheAppLimit(Setup setup) {
        try (TestClient client = start(setup, b -> b.maxBodyBytes(1024))) {
            for (Map.Entry<String, Integer> c : List.of(Map.entry("/small", 10), Map.entry("/big", 4096),
                    Map.entry("/g/x", 20), Map.entry("/g/y", 30), Map.entry("/g/h/z", 20), Map.entry("/upload", 1024))) {
                String path = c.getKey();
                int limit = c.getValue();
                TestResponse ok = client.send(TestRequest.of("POST", path).body("application/octet-stream", new byte[limit]));
                assertThat(ok.status()).as("%s at %d: %s", path, limit, ok).isEqualTo(200);
                assertThat(ok.text()).isEqualTo("got " + limit);
                assertProblem(client.send(TestRequest.of("POST", path).body("application/octet-stream", new byte[limit + 1])),
                        413, limit + "-byte limit");
                assertProblem(client.send(TestRequest.of("POST", path).chunked(List.of(new byte[limit + 1]))),
                        413, limit + "-byte limit");
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("modes")
    void aTargetAtTheRequestLineLimitPassesOnePastIs414(Setup setup) {
        int limit = 100;
        try (TestClient client = start(setup, b -> b.maxRequestLineBytes(limit));
                H2Wire wire = H2Wire.open(client.port())) {
            // GET SP path SP HTTP/1.1: the path that makes the line exactly the limit.
            String path = "/" + "p".repeat(limit - "GET  HTTP/1.1".length() - 1);
            assertThat("GET " + path + " HTTP/1.1").hasSize(limit);
            TestResponse ok = client.get(path);
            assertThat(ok.status()).as("%s", ok).isEqualTo(200);
            assertThat(ok.text()).isEqualTo("path " + path.length());
            assertProblem(client.get(path + "p"), 414, "maxRequestLineBytes");
            wire.request(1, path + "p");
            assertWireProblem(wire, 1, 414, "maxRequestLineBytes");
            wire.request(3, path);
            assertThat(wire.expectStatus(3)).as("the next stream on the same connection").isEqualTo(200);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("modes")
    void headerFieldsPastTheCountAre431(Setup setup) {
        try (TestClient client = start(setup, b -> b.maxHeaderCount(5))) {
            // As over HTTP/1.1 the count includes Host, which :authority stands for; the other pseudo-header fields are
            // the request line's.
            TestRequest atLimit = TestRequest.get("/hello");
            for (int i = 0; i < 4; i++) atLimit = atLimit.header("x-h" + i, "v");
            assertThat(client.send(atLimit).status()).isEqualTo(200);
            assertProblem(client.send(atLimit.header("x-h4", "v")), 431, "maxHeaderCount");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("modes")
    void aHeaderListPastMaxHeaderBytesIs431AndTheConnectionServesOn(Setup setup) {
        try (TestClient client = start(setup, b -> b.maxHeaderBytes(1024));
                H2Wire wire = H2Wire.open(client.port())) {
            assertThat(wire.serverSettings()).as("announced").containsEntry(H2Wire.MAX_HEADER_LIST_SIZE, 1024L);
            // RFC 7541 4.1: a field counts its name, its value and 32 bytes. The pseudo-fields of GET /hello come to
            // 4 x 32 + 51 = 179 bytes, x-big's name and overhead to 37: a value of 808 bytes makes exactly 1,024.
            int atLimit = 1024 - 179 - 37;
            wire.headers(1, H2Wire.END_HEADERS | H2Wire.END_STREAM,
                    wire.hpack(H2Fields.with(H2Fields.get("/hello"), "x-big", "b".repeat(atLimit))));
            assertThat(wire.expectStatus(1)).as("a header list of exactly the limit").isEqualTo(200);
            wire.expectBody(1);
            wire.headers(3, H2Wire.END_HEADERS | H2Wire.END_STREAM,
                    wire.hpack(H2Fields.with(H2Fields.get("/hello"), "x-big", "b".repeat(atLimit + 1))));
            assertWireProblem(wire, 3, 431, "maxHeaderBytes");
            wire.request(5, "/hello");
            assertThat(wire.expectStatus(5)).as("the next stream on the same connection").isEqualTo(200);
            // Past 1.25 times the limit Netty stops decoding the block (an HPACK bomb inflates): the connection ends.
            try (H2Wire bomb = H2Wire.open(client.port())) {
                bomb.headers(1, H2Wire.END_HEADERS | H2Wire.END_STREAM,
                        bomb.hpack(H2Fields.with(H2Fields.get("/hello"), "x-big", "b".repeat(2 * 1024))));
                bomb.expectGoAway(H2Wire.PROTOCOL_ERROR);
            }
            assertThat(client.get("/hello").status()).as("the next client").isEqualTo(200);
        }
    }

    private static void assertProblem(TestResponse r, int status, String mentions) {
        assertThat(r.httpVersion()).isEqualTo("HTTP/2.0");
        assertThat(r.status()).as("%s", r).isEqualTo(status);
        assertThat(r.header("Content-Type")).as("%s", r).hasValue("application/problem+json");
        assertThat(r.jsonTree().get("status").asInt()).isEqualTo(status);
        assertThat(r.text()).contains(mentions);
    }

    private static void assertWireProblem(H2Wire wire, int stream, int status, String mentions) {
        Map<String, List<String>> head = wire.expectHeaders(stream);
        assertThat(head.get(":status")).as("%s", head).containsExactly(Integer.toString(status));
        assertThat(head.get("content-type")).as("%s", head).containsExactly("application/problem+json");
        byte[] body = wire.expectBody(stream);
        assertThat(JSON.readTree(body).get("status").asInt()).isEqualTo(status);
        assertThat(new String(body, StandardCharsets.UTF_8)).contains(mentions);
    }
}
