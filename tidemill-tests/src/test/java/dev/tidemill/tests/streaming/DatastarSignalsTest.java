package dev.tidemill.tests.streaming;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.Response;
import dev.tidemill.Tidemill;
import dev.tidemill.datastar.Datastar;
import dev.tidemill.datastar.SignalLimits;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestRequest;
import dev.tidemill.testing.TestResponse;
import dev.tidemill.tests.support.Setup;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Reading a request's Datastar signals over real sockets, in every execution mode: from the
 * {@code datastar} query parameter on GET and DELETE, from the body otherwise (and from a DELETE's
 * body, where the beta.11 client puts them); typed and as a tree; none at all; and the refusals,
 * each an {@code application/problem+json} naming what was wrong, after which the server serves on.
 */
class DatastarSignalsTest {
    record Todo(String text, int count, boolean done) {}

    private static final SignalLimits SMALL = new SignalLimits(100, 3);

    private static void routes(Tidemill app) {
        for (String m : new String[] {"GET", "POST", "PUT", "PATCH", "DELETE"}) {
            app.route(m, "/todo", req -> Datastar.readSignals(req, Todo.class));
            app.route(m, "/tree", req -> Datastar.readSignals(req));
            app.route(m, "/small", req -> Datastar.readSignals(req, Map.class, SMALL));
        }
        app.get("/is-datastar", req -> Response.ok().text(Boolean.toString(Datastar.isDatastarRequest(req))));
    }

    private static String query(String json) {
        return "?datastar=" + URLEncoder.encode(json, StandardCharsets.UTF_8);
    }

    private static TestResponse send(TestClient client, String method, String path, String json) {
        return client.send(TestRequest.of(method, path).header("Datastar-Request", "true").body("application/json", json));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modesAndProtocols")
    void signalsAreReadWhereEachMethodCarriesThem(Setup setup) {
        String todo = "{\"text\":\"milk & <eggs>\",\"count\":2,\"done\":true,\"extra\":{\"ignored\":[1,2]}}";
        try (TestClient client = setup.start(DatastarSignalsTest::routes)) {
            for (String m : new String[] {"GET", "DELETE"}) {
                TestResponse r = client.send(TestRequest.of(m, "/todo" + query(todo)));
                assertThat(r.status()).as(m).isEqualTo(200);
                assertThat(r.text()).as(m).isEqualTo("{\"text\":\"milk & <eggs>\",\"count\":2,\"done\":true}");
            }
            for (String m : new String[] {"POST", "PUT", "PATCH", "DELETE"}) {
                TestResponse r = send(client, m, "/todo", todo);
                assertThat(r.status()).as(m).isEqualTo(200);
                assertThat(r.text()).as(m).isEqualTo("{\"text\":\"milk & <eggs>\",\"count\":2,\"done\":true}");
            }
            assertThat(client.get("/tree" + query(todo)).text()).as("a tree keeps everything")
                    .isEqualTo("{\"text\":\"milk & <eggs>\",\"count\":2,\"done\":true,\"extra\":{\"ignored\":[1,2]}}");
            assertThat(client.get("/tree").text()).as("GET without signals").isEqualTo("{}");
            assertThat(send(client, "POST", "/tree", "").text()).as("POST without a body").isEqualTo("{}");
            assertThat(send(client, "POST", "/tree", " \r\n").text()).as("a blank body").isEqualTo("{}");
            assertThat(client.delete("/tree").text()).as("DELETE with neither").isEqualTo("{}");
            assertThat(client.get("/tree" + query("{\"q\":\"é ü 😀\"}")).text()).isEqualTo("{\"q\":\"é ü 😀\"}");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modesAndProtocols")
    void badSignalsAreProblemsThatNameTheProblem(Setup setup) {
        try (TestClient client = setup.start(DatastarSignalsTest::routes)) {
            problem(send(client, "POST", "/todo", "{\"text\":"), 400, "Invalid Datastar signals", "");
            problem(client.get("/todo" + query("{nope}")), 400, "Invalid Datastar signals", "");
            problem(send(client, "POST", "/tree", "[1,2]"), 400, "Invalid Datastar signals", "a JSON object, not an array");
            problem(send(client, "POST", "/tree", "\"text\""), 400, "Invalid Datastar signals", "not a string");
            problem(send(client, "POST", "/tree", "null"), 400, "Invalid Datastar signals", "not null");
            problem(send(client, "POST", "/todo", "{\"count\":\"many\"}"), 400, "Invalid Datastar signals", "");
            String deep = "{\"a\":".repeat(65) + "1" + "}".repeat(65);
            problem(send(client, "POST", "/tree", deep), 400, "Invalid Datastar signals", "deeper than 64 levels (SignalLimits.maxDepth)");
            String ok = "{\"a\":".repeat(64) + "1" + "}".repeat(64);
            assertThat(send(client, "POST", "/tree", ok).status()).as("64 levels are fine").isEqualTo(200);
            assertThat(send(client, "POST", "/tree", "{\"s\":\"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\\\"\"}").status())
                    .as("brackets inside a string, and an escaped quote, do not nest").isEqualTo(200);
            problem(send(client, "POST", "/small", "{\"a\":{\"b\":{\"c\":{}}}}"), 400, "Invalid Datastar signals",
                    "deeper than 3 levels");
            String big = "{\"s\":\"" + "x".repeat(100) + "\"}";
            problem(send(client, "POST", "/small", big), 413, "Content Too Large", "the limit is 100 (SignalLimits.maxBytes)");
            problem(client.get("/small" + query(big)), 413, "Content Too Large", "the limit is 100");
            problem(client.send(TestRequest.of("DELETE", "/small").body("application/json", big)), 413, "Content Too Large", "");
            String overDefault = "{\"s\":\"" + "x".repeat(1 << 20) + "\"}";
            problem(send(client, "POST", "/tree", overDefault), 413, "Content Too Large", "the limit is 1048576");
            String underDefault = "{\"s\":\"" + "x".repeat((1 << 20) - 8) + "\"}";
            assertThat(send(client, "POST", "/tree", underDefault).status()).as("exactly 1 MiB").isEqualTo(200);
            assertThat(client.get("/tree" + query("{\"after\":true}")).text()).as("the server serves on").isEqualTo("{\"after\":true}");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modesAndProtocols")
    void theDatastarRequestHeaderIsDetected(Setup setup) {
        try (TestClient client = setup.start(DatastarSignalsTest::routes)) {
            assertThat(client.send(TestRequest.get("/is-datastar").header("Datastar-Request", "true")).text()).isEqualTo("true");
            // HTTP/1.1 trims the optional whitespace around a value; HTTP/2 refuses a value that has any (RFC 9113 8.2.1)
            String loud = setup.protocol() == TestClient.Protocol.HTTP_1_1 ? " TRUE " : "TRUE";
            assertThat(client.send(TestRequest.get("/is-datastar").header("datastar-request", loud)).text()).isEqualTo("true");
            assertThat(client.send(TestRequest.get("/is-datastar").header("Datastar-Request", "false")).text()).isEqualTo("false");
            assertThat(client.get("/is-datastar").text()).isEqualTo("false");
        }
    }

    private static void problem(TestResponse r, int status, String title, String detailContains) {
        assertThat(r.status()).as(r.text()).isEqualTo(status);
        assertThat(r.header("Content-Type")).hasValue("application/problem+json");
        assertThat(r.text()).contains("\"title\":\"" + title + "\"").contains(detailContains);
    }
}
