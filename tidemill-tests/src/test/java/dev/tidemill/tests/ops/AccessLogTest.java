package dev.tidemill.tests.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemill.ExecutionMode;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestRequest;
import dev.tidemill.testing.TestResponse;
import dev.tidemill.tests.support.CapturingLogs;
import dev.tidemill.tests.support.Setup;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Isolated;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The access log ({@code tidemill.access}, captured by {@link CapturingLogs}): off by default;
 * on, one JSON object per request with method, route pattern, status, duration, body bytes and
 * request id, none for operational routes; {@code X-Request-Id} taken when valid, else generated,
 * echoed either way; {@code traceparent} handed to the handler only when valid, and its trace id
 * logged.
 */
@Isolated // reads the process-wide captured lines
@Timeout(60)
class AccessLogTest {
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String TRACEPARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

    /** @return the lines logged since {@code from}, each parsed: every one must be a JSON object */
    private static List<JsonNode> linesSince(int from) {
        return CapturingLogs.ACCESS.subList(from, CapturingLogs.ACCESS.size()).stream().map(line -> {
            JsonNode n = JSON.readTree(line);
            assertThat(n.isObject()).as(line).isTrue();
            return n;
        }).toList();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modes")
    void oneJsonLinePerRequestWithTheIdItEchoes(Setup setup) {
        try (TestClient client = setup.start(b -> b.accessLog(true), app -> app.get("/x/{id}", req -> "item " + req.pathParam("id")))) {
            long began = System.nanoTime(); // no request here can have taken longer than the test
            int from = CapturingLogs.ACCESS.size();
            TestResponse given = client.send(TestRequest.get("/x/7").header("X-Request-Id", "abc-123_X.y"));
            assertThat(given.header("X-Request-Id")).hasValue("abc-123_X.y");
            TestResponse invalid = client.send(TestRequest.get("/x/8").header("X-Request-Id", "has space"));
            String generated = invalid.header("X-Request-Id").orElseThrow();
            assertThat(generated).matches("[0-9a-f]{16}");
            TestResponse tooLong = client.send(TestRequest.get("/x/9").header("X-Request-Id", "a".repeat(201)));
            assertThat(tooLong.header("X-Request-Id").orElseThrow()).matches("[0-9a-f]{16}");
            assertThat(client.send(TestRequest.get("/x/1").header("X-Request-Id", "b".repeat(200))).header("X-Request-Id"))
                    .hasValue("b".repeat(200));
            client.send(TestRequest.get("/nope").header("traceparent", TRACEPARENT));
            client.get("/livez");
            client.get("/readyz");
            client.get("/metrics");

            await("five lines").atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(CapturingLogs.ACCESS.size() - from).isEqualTo(5));
            List<JsonNode> lines = linesSince(from);
            JsonNode first = lines.get(0);
            assertThat(first.get("method").asString()).isEqualTo("GET");
            assertThat(first.get("route").asString()).isEqualTo("/x/{id}");
            assertThat(first.get("status").asInt()).isEqualTo(200);
            assertThat(first.get("bytes").asLong()).isEqualTo("item 7".length());
            assertThat(first.get("duration_us").asLong()).as("within the test's own run")
                    .isBetween(0L, (System.nanoTime() - began) / 1_000);
            assertThat(first.get("request_id").asString()).isEqualTo("abc-123_X.y");
            assertThat(first.has("trace_id")).isFalse();
            assertThat(lines.get(1).get("request_id").asString()).isEqualTo(generated);
            JsonNode unmatched = lines.get(4);
            assertThat(unmatched.get("route").asString()).isEqualTo("unmatched");
            assertThat(unmatched.get("status").asInt()).isEqualTo(404);
            assertThat(unmatched.get("trace_id").asString()).isEqualTo("4bf92f3577b34da6a3ce929d0e0e4736");
            assertThat(lines).as("operational routes are not logged").allSatisfy(l ->
                    assertThat(l.get("route").asString()).isNotIn("/livez", "/readyz", "/metrics"));
        }
    }

    @Test
    void offByDefaultAndTheIdEchoedOnlyWhenKnown() {
        try (TestClient client = Setup.onDefaultTransport(ExecutionMode.LOOP).start(app -> {
            app.get("/plain", req -> "plain");
            app.get("/id", req -> req.requestId());
        })) {
            int from = CapturingLogs.ACCESS.size();
            assertThat(client.get("/plain").header("X-Request-Id")).as("nobody asked: nothing generated").isEmpty();
            assertThat(client.send(TestRequest.get("/plain").header("X-Request-Id", "given-1")).header("X-Request-Id")).hasValue("given-1");
            TestResponse asked = client.get("/id");
            assertThat(asked.header("X-Request-Id")).hasValue(asked.text());
            assertThat(asked.text()).matches("[0-9a-f]{16}");
            assertThat(client.send(TestRequest.get("/id").header("X-Request-Id", "given-2")).text()).isEqualTo("given-2");
            assertThat(CapturingLogs.ACCESS.size()).as("nothing logged").isEqualTo(from);
        }
    }

    @Test
    void traceparentReachesTheHandlerOnlyWhenValid() {
        try (TestClient client = Setup.onDefaultTransport(ExecutionMode.LOOP).start(app -> app.get("/trace", req -> req.traceParent()
                .map(t -> t.traceId() + " " + t.parentId() + " " + t.flags() + " " + t.sampled() + " " + t)
                .orElse("none")))) {
            assertThat(client.send(TestRequest.get("/trace").header("traceparent", TRACEPARENT)).text())
                    .isEqualTo("4bf92f3577b34da6a3ce929d0e0e4736 00f067aa0ba902b7 01 true " + TRACEPARENT);
            // A later version may append fields after a dash; version 00 may not.
            assertThat(client.send(TestRequest.get("/trace").header("traceparent", "01" + TRACEPARENT.substring(2) + "-what-comes-next")).text())
                    .startsWith("4bf92f3577b34da6a3ce929d0e0e4736 00f067aa0ba902b7 01 true");
            assertThat(client.send(TestRequest.get("/trace").header("traceparent", TRACEPARENT.replace("-01", "-00"))).text())
                    .endsWith(" 00 false " + TRACEPARENT.replace("-01", "-00"));
            for (String bad : List.of(
                    TRACEPARENT + "-extra",                                           // version 00 is exactly 55 characters
                    "ff" + TRACEPARENT.substring(2),                                  // version ff is invalid
                    TRACEPARENT.toUpperCase(java.util.Locale.ROOT),                   // upper-case hex
                    "00-00000000000000000000000000000000-00f067aa0ba902b7-01",        // all-zero trace id
                    "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",        // all-zero parent id
                    "00-4bf92f3577b34da6a3ce929d0e0e473-00f067aa0ba902b7-01",         // trace id one digit short
                    "00_4bf92f3577b34da6a3ce929d0e0e4736_00f067aa0ba902b7_01",        // wrong separators
                    "01" + TRACEPARENT.substring(2) + "x")) {                         // later version, no dash after the flags
                assertThat(client.send(TestRequest.get("/trace").header("traceparent", bad)).text()).as(bad).isEqualTo("none");
            }
            assertThat(client.send(TestRequest.get("/trace").header("traceparent", TRACEPARENT).header("traceparent", TRACEPARENT)).text())
                    .as("two traceparent fields").isEqualTo("none");
            assertThat(client.get("/trace").text()).isEqualTo("none");
        }
    }
}
