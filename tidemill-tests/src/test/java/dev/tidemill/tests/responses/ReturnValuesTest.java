package dev.tidemill.tests.responses;

import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.Response;
import dev.tidemill.testing.Connection;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestRequest;
import dev.tidemill.testing.TestResponse;
import dev.tidemill.tests.support.Setup;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What a handler returns becomes the response, in every execution mode: String, byte[], records and
 * collections, {@link Response}, null, and {@link CompletionStage}s of these, completed later or
 * failed.
 */
@Timeout(60)
class ReturnValuesTest {
    record Item(int id, String name) {}

    static final class Boom extends RuntimeException {
        Boom(String message) {
            super(message);
        }
    }

    private static TestClient start(Setup setup) {
        return setup.start(app -> {
            app.exception(Boom.class, (e, req) -> Response.status(418).text("mapped " + e.getMessage()));
            app.get("/string", req -> "héllo wörld");
            app.get("/empty-string", req -> "");
            app.get("/bytes", req -> new byte[] {0, 1, 2, (byte) 0xff});
            app.get("/record", req -> new Item(7, "pen"));
            app.get("/list", req -> List.of(new Item(1, "a"), new Item(2, "b")));
            app.get("/map", req -> {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("count", 2);
                m.put("names", List.of("a", "b"));
                m.put("nothing", null);
                return m;
            });
            app.post("/created", req -> Response.status(201).header("Location", "/items/8").json(new Item(8, "ink")));
            app.get("/html", req -> Response.ok().html("<p>hi</p>"));
            app.get("/text-response", req -> Response.status(202).text("accepted"));
            app.get("/custom-type", req -> Response.ok().header("Content-Type", "text/csv").text("a,b"));
            app.get("/bytes-response", req -> Response.ok().bytes("%PDF".getBytes(StandardCharsets.US_ASCII), "application/pdf"));
            app.get("/null", req -> null);
            app.get("/no-content", req -> Response.noContent());
            app.get("/later", req -> CompletableFuture.supplyAsync(() -> "later",
                    CompletableFuture.delayedExecutor(50, MILLISECONDS)));
            app.get("/later-record", req -> CompletableFuture.supplyAsync(() -> new Item(9, "async"),
                    CompletableFuture.delayedExecutor(50, MILLISECONDS)));
            app.get("/later-response", req -> CompletableFuture.supplyAsync(
                    () -> Response.status(201).header("X-Later", "yes").text("made"),
                    CompletableFuture.delayedExecutor(50, MILLISECONDS)));
            app.get("/later-null", req -> CompletableFuture.supplyAsync(() -> null,
                    CompletableFuture.delayedExecutor(50, MILLISECONDS)));
            app.get("/already-done", req -> CompletableFuture.completedFuture("done"));
            app.get("/failed-now", req -> CompletableFuture.failedFuture(new Boom("now")));
            app.get("/failed-later", req -> CompletableFuture.supplyAsync(() -> {
                throw new Boom("later");
            }, CompletableFuture.delayedExecutor(50, MILLISECONDS)));
            app.get("/failed-unmapped", req -> CompletableFuture.supplyAsync(() -> {
                throw new IllegalStateException("secret");
            }, CompletableFuture.delayedExecutor(50, MILLISECONDS)));
            app.get("/cookies", req -> Response.ok()
                    .addHeader("Set-Cookie", "a=1; Path=/")
                    .addHeader("Set-Cookie", "b=2; HttpOnly")
                    .header("X-Single", "one")
                    .header("x-single", "two")
                    .text("cookies"));
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modesAndProtocols")
    void stringIsUtf8Text(Setup setup) {
        try (TestClient client = start(setup)) {
            TestResponse r = client.get("/string");
            assertThat(r.status()).as("%s", r).isEqualTo(200);
            assertThat(r.header("Content-Type")).hasValue("text/plain; charset=utf-8");
            assertThat(r.header("Content-Length")).hasValue(Integer.toString("héllo wörld".getBytes(StandardCharsets.UTF_8).length));
            assertThat(r.text()).isEqualTo("héllo wörld");
            TestResponse empty = client.get("/empty-string");
            assertThat(empty.status()).isEqualTo(200);
            assertThat(empty.header("Content-Length")).hasValue("0");
            assertThat(empty.body()).isEmpty();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modesAndProtocols")
    void bytesAreAnOctetStream(Setup setup) {
        try (TestClient client = start(setup)) {
            TestResponse r = client.get("/bytes");
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.header("Content-Type")).hasValue("application/octet-stream");
            assertThat(r.body()).containsExactly(0, 1, 2, 0xff);
            TestResponse pdf = client.get("/bytes-response");
            assertThat(pdf.header("Content-Type")).hasValue("application/pdf");
            assertThat(pdf.text()).isEqualTo("%PDF");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modesAndProtocols")
    void recordsListsAndMapsAreJson(Setup setup) {
        try (TestClient client = start(setup)) {
            TestResponse record = client.get("/record");
            assertThat(record.header("Content-Type")).hasValue("application/json");
            assertThat(record.text()).isEqualTo("{\"id\":7,\"name\":\"pen\"}");
            TestResponse list = client.get("/list");
            assertThat(list.header("Content-Type")).hasValue("application/json");
            assertThat(list.text()).isEqualTo("[{\"id\":1,\"name\":\"a\"},{\"id\":2,\"name\":\"b\"}]");
            TestResponse map = client.get("/map");
            assertThat(map.header("Content-Type")).hasValue("application/json");
            assertThat(map.text()).isEqualTo("{\"count\":2,\"names\":[\"a\",\"b\"],\"nothing\":null}");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modesAndProtocols")
    void responseGivesFullControl(Setup setup) {
        try (TestClient client = start(setup)) {
            TestResponse created = client.send(TestRequest.of("POST", "/created"));
            assertThat(created.status()).isEqualTo(201);
            assertThat(created.header("Location")).hasValue("/items/8");
            assertThat(created.header("Content-Type")).hasValue("application/json");
            assertThat(created.text()).isEqualTo("{\"id\":8,\"name\":\"ink\"}");

            TestResponse html = client.get("/html");
            assertThat(html.status()).isEqualTo(200);
            assertThat(html.header("Content-Type")).hasValue("text/html; charset=utf-8");
            assertThat(html.text()).isEqualTo("<p>hi</p>");

            TestResponse text = client.get("/text-response");
            assertThat(text.status()).isEqualTo(202);
            assertThat(text.header("Content-Type")).hasValue("text/plain; charset=utf-8");
            assertThat(text.text()).isEqualTo("accepted");

            TestResponse csv = client.get("/custom-type");
            assertThat(csv.headers("Content-Type")).containsExactly("text/csv");
            assertThat(csv.text()).isEqualTo("a,b");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modesAndProtocols")
    void nullIs204WithoutABody(Setup setup) {
        try (TestClient client = start(setup)) {
            try (Connection c = client.connect()) {
                for (String path : List.of("/null", "/no-content", "/later-null")) {
                    TestResponse r = c.send(TestRequest.get(path));
                    assertThat(r.status()).as("%s -> %s", path, r).isEqualTo(204);
                    assertThat(r.body()).isEmpty();
                    assertThat(r.header("Content-Length")).as("%s", r).isEmpty();
                    assertThat(r.header("Transfer-Encoding")).as("%s", r).isEmpty();
                    assertThat(r.header("Content-Type")).as("%s", r).isEmpty();
                }
                // Nothing stray sits on the connection after a 204.
                assertThat(c.send(TestRequest.get("/string")).text()).isEqualTo("héllo wörld");
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modesAndProtocols")
    void aCompletionStageCompletedLaterByAnotherThreadGivesItsValue(Setup setup) {
        try (TestClient client = start(setup)) {
            try (Connection c = client.connect()) {
                TestResponse later = c.send(TestRequest.get("/later"));
                assertThat(later.status()).as("%s", later).isEqualTo(200);
                assertThat(later.header("Content-Type")).hasValue("text/plain; charset=utf-8");
                assertThat(later.text()).isEqualTo("later");

                TestResponse record = c.send(TestRequest.get("/later-record"));
                assertThat(record.header("Content-Type")).hasValue("application/json");
                assertThat(record.text()).isEqualTo("{\"id\":9,\"name\":\"async\"}");

                TestResponse response = c.send(TestRequest.get("/later-response"));
                assertThat(response.status()).isEqualTo(201);
                assertThat(response.header("X-Later")).hasValue("yes");
                assertThat(response.text()).isEqualTo("made");

                assertThat(c.send(TestRequest.get("/already-done")).text()).isEqualTo("done");
            }
            // Pipelined: answers stay in request order although the first one completes last.
            try (Connection c = client.connect()) {
                List<TestResponse> rs = c.pipeline(List.of(TestRequest.get("/later"), TestRequest.get("/string"),
                        TestRequest.get("/later-record")));
                assertThat(rs.get(0).text()).isEqualTo("later");
                assertThat(rs.get(1).text()).isEqualTo("héllo wörld");
                assertThat(rs.get(2).text()).isEqualTo("{\"id\":9,\"name\":\"async\"}");
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modesAndProtocols")
    @SuppressWarnings("unchecked")
    void aFailedCompletionStageIsMappedLikeAThrownException(Setup setup) {
        try (TestClient client = start(setup)) {
            try (Connection c = client.connect()) {
                for (String path : List.of("/failed-now", "/failed-later")) {
                    TestResponse r = c.send(TestRequest.get(path));
                    assertThat(r.status()).as("%s -> %s", path, r).isEqualTo(418);
                    assertThat(r.text()).isEqualTo("mapped " + path.substring("/failed-".length()));
                }
                TestResponse unmapped = c.send(TestRequest.get("/failed-unmapped"));
                assertThat(unmapped.status()).as("%s", unmapped).isEqualTo(500);
                assertThat(unmapped.header("Content-Type")).hasValue("application/problem+json");
                assertThat(unmapped.json(Map.class)).isEqualTo(
                        Map.of("type", "about:blank", "title", "Internal Server Error", "status", 500));
                assertThat(c.send(TestRequest.get("/string")).status()).isEqualTo(200);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modesAndProtocols")
    void addHeaderKeepsEveryValueAndHeaderReplaces(Setup setup) {
        try (TestClient client = start(setup)) {
            TestResponse r = client.get("/cookies");
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.headers("Set-Cookie")).containsExactly("a=1; Path=/", "b=2; HttpOnly");
            assertThat(r.headers("X-Single")).containsExactly("two");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modesAndProtocols")
    void headOfEveryKindOfValueHasTheGetLengthAndNoBody(Setup setup) {
        try (TestClient client = start(setup)) {
            try (Connection c = client.connect()) {
                for (String path : List.of("/string", "/bytes", "/record", "/html", "/later-record")) {
                    TestResponse get = c.send(TestRequest.get(path));
                    TestResponse head = c.send(TestRequest.of("HEAD", path));
                    assertThat(head.status()).as(path).isEqualTo(200);
                    assertThat(head.body()).isEmpty();
                    assertThat(head.header("Content-Length")).as(path).isEqualTo(get.header("Content-Length"));
                    assertThat(head.header("Content-Type")).as(path).isEqualTo(get.header("Content-Type"));
                }
                assertThat(c.send(TestRequest.get("/string")).text()).isEqualTo("héllo wörld");
            }
        }
    }
}
