package dev.tidemill.tests.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidemill.ExecutionMode;
import dev.tidemill.Param;
import dev.tidemill.ParamType;
import dev.tidemill.RateLimit;
import dev.tidemill.Requirement;
import dev.tidemill.Response;
import dev.tidemill.Tidemill;
import dev.tidemill.ToolCall;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestRequest;
import dev.tidemill.testing.TestResponse;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;

/**
 * What a tool call inherits from its route, over a socket in the stateless revision (2026-07-28
 * server/tools): the route's rate limit (a 429 is an isError result naming the limit) and request
 * timeout (504), resources read through their routes (server/resources: text, blob, templates,
 * -32602 for an unknown URI), progress and log messages on an SSE answer (basic/utilities/progress,
 * server/utilities/logging) and none without a level, and the checks a tool's declaration gets at
 * start (a mirrored header on a body property or a number).
 */
@Timeout(60)
class McpToolCallsTest {
    static final Param<String> ID = Param.path("id");
    static final Param<Double> RATIO = Param.query("ratio", ParamType.DOUBLE);
    static TestClient client;

    @BeforeAll
    static void start() {
        Tidemill app = Tidemill.create(TestClient.config().workerLoops(1).ioThreads(1).build());
        // An app filter (it lets the MCP request itself by): a tool call passes through it as any request does, with the MCP request's fields.
        app.filter((req, next) -> req.header("X-Closed").isPresent() && !req.path().equals("/mcp")
                ? Response.status(409).json(Map.of("closed", req.header("X-Closed").get())) : next.proceed(req));
        app.get("/limited", req -> "ok").rateLimit(RateLimit.builder("tool-limit").requests(2).per(Duration.ofMinutes(1)).build())
                .requires(Requirement.anonymous()).tool("limited", "Twice a minute");
        app.get("/slow", req -> {
            Thread.sleep(5_000);
            return "late";
        }).mode(ExecutionMode.VIRTUAL).requestTimeout(Duration.ofMillis(200)).requires(Requirement.anonymous()).tool("slow", "Too slow");
        app.post("/work", req -> {
            Optional<ToolCall> call = ToolCall.of(req);
            call.ifPresent(c -> c.progress(1, 2, "half"));
            call.ifPresent(c -> c.log(ToolCall.Level.DEBUG, "detail"));
            call.ifPresent(c -> c.log(ToolCall.Level.WARNING, Map.of("note", "careful")));
            call.ifPresent(c -> c.progress(2, 2, null));
            return Map.of("done", true);
        }).mode(ExecutionMode.VIRTUAL).requires(Requirement.anonymous()).tool("work", "Reports while it works");
        app.get("/docs/readme", req -> Response.ok().text("read me")).requires(Requirement.anonymous())
                .summary("Readme").resource("docs://readme", "The readme");
        app.get("/docs/logo", req -> Response.ok().bytes(new byte[] {1, 2, 3}, "image/png")).requires(Requirement.anonymous())
                .resource("docs://logo", "The logo");
        app.get("/docs/items/{id}", req -> Map.of("id", req.param(ID))).params(ID).requires(Requirement.anonymous())
                .resource("docs://items/{id}", "An item");
        app.mcp();
        client = TestClient.start(app).timeout(Duration.ofSeconds(20));
    }

    @AfterAll
    static void stop() {
        if (client != null) client.close();
    }

    static final String META = "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
            + "\"io.modelcontextprotocol/clientCapabilities\":{}%s}";

    static TestResponse modern(String method, String name, String params, String extraMeta) {
        TestRequest r = TestRequest.of("POST", "/mcp").header("Accept", "application/json, text/event-stream")
                .header("MCP-Protocol-Version", "2026-07-28").header("Mcp-Method", method)
                .body("application/json", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"" + method + "\",\"params\":{" + params
                        + (params.isEmpty() ? "" : ",") + META.formatted(extraMeta) + "}}");
        if (name != null) r = r.header("Mcp-Name", name);
        return client.send(r);
    }

    static JsonNode call(String tool) {
        TestResponse r = modern("tools/call", tool, "\"name\":\"" + tool + "\",\"arguments\":{}", "");
        assertThat(r.status()).as("%s", r).isEqualTo(200);
        return r.jsonTree().get("result");
    }

    @Test
    void theRoutesRateLimitAndTimeoutApply() {
        assertThat(call("limited").get("isError").asBoolean()).isFalse();
        assertThat(call("limited").get("isError").asBoolean()).isFalse();
        JsonNode third = call("limited");
        assertThat(third.get("isError").asBoolean()).isTrue();
        assertThat(third.at("/content/0/text").asString()).contains("\"status\":429");
        JsonNode slow = call("slow");
        assertThat(slow.get("isError").asBoolean()).isTrue();
        assertThat(slow.at("/content/0/text").asString()).contains("\"status\":504").contains("requestTimeout");
    }

    @Test
    void theAppsFiltersRunAroundATool() {
        TestResponse r = client.send(TestRequest.of("POST", "/mcp").header("Accept", "application/json, text/event-stream")
                .header("MCP-Protocol-Version", "2026-07-28").header("Mcp-Method", "tools/call").header("Mcp-Name", "work")
                .header("X-Closed", "maintenance")
                .body("application/json", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"work\","
                        + "\"arguments\":{}," + META.formatted("") + "}}"));
        JsonNode result = r.jsonTree().get("result");
        assertThat(result.get("isError").asBoolean()).as("%s", r).isTrue();
        assertThat(result.at("/content/0/text").asString()).contains("maintenance");
    }

    @Test
    void resourcesAreReadThroughTheirRoutes() {
        JsonNode list = modern("resources/list", null, "", "").jsonTree().get("result");
        assertThat(list.get("resources")).hasSize(2);
        assertThat(list.at("/resources/0/uri").asString()).isEqualTo("docs://readme");
        assertThat(list.at("/resources/0/name").asString()).isEqualTo("Readme");
        JsonNode templates = modern("resources/templates/list", null, "", "").jsonTree().get("result");
        assertThat(templates.at("/resourceTemplates/0/uriTemplate").asString()).isEqualTo("docs://items/{id}");
        JsonNode text = modern("resources/read", "docs://readme", "\"uri\":\"docs://readme\"", "").jsonTree();
        assertThat(text.at("/result/contents/0/text").asString()).isEqualTo("read me");
        assertThat(text.at("/result/contents/0/mimeType").asString()).isEqualTo("text/plain");
        JsonNode blob = modern("resources/read", "docs://logo", "\"uri\":\"docs://logo\"", "").jsonTree();
        assertThat(blob.at("/result/contents/0/blob").asString()).isEqualTo("AQID");
        JsonNode item = modern("resources/read", "docs://items/a%20b", "\"uri\":\"docs://items/a%20b\"", "").jsonTree();
        assertThat(item.at("/result/contents/0/text").asString()).isEqualTo("{\"id\":\"a b\"}");
        assertThat(item.at("/result/contents/0/uri").asString()).isEqualTo("docs://items/a%20b");
        TestResponse unknown = modern("resources/read", "docs://nothing", "\"uri\":\"docs://nothing\"", "");
        assertThat(unknown.jsonTree().at("/error/code").asInt()).isEqualTo(-32602);
        assertThat(unknown.jsonTree().at("/error/data/uri").asString()).isEqualTo("docs://nothing");
    }

    @Test
    void progressAndLogMessagesComeOnAStreamWhenAskedFor() {
        TestResponse streamed = modern("tools/call", "work", "\"name\":\"work\",\"arguments\":{}",
                ",\"progressToken\":\"p1\",\"io.modelcontextprotocol/logLevel\":\"info\"");
        assertThat(streamed.status()).isEqualTo(200);
        assertThat(streamed.header("Content-Type").orElseThrow()).startsWith("text/event-stream");
        String body = streamed.text();
        int half = body.indexOf("\"progress\":1.0");
        int warning = body.indexOf("\"level\":\"warning\"");
        int done = body.indexOf("\"progress\":2.0");
        int result = body.indexOf("\"structuredContent\":{\"done\":true}");
        assertThat(half).as(body).isPositive();
        assertThat(warning).as("at or above the level").isGreaterThan(half);
        assertThat(done).isGreaterThan(warning);
        assertThat(result).as("the result ends the stream").isGreaterThan(done);
        assertThat(body).as("below the level").doesNotContain("detail").contains("\"progressToken\":\"p1\"");
        TestResponse plain = modern("tools/call", "work", "\"name\":\"work\",\"arguments\":{}", "");
        assertThat(plain.header("Content-Type").orElseThrow()).startsWith("application/json");
        assertThat(plain.text()).doesNotContain("notifications/");
    }

    @Test
    void aSessionsStreamedAnswerIsResumedAfterTheLastEventItGot() {
        TestResponse init = client.send(TestRequest.of("POST", "/mcp").header("Accept", "application/json, text/event-stream")
                .body("application/json", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
                        + "\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}"));
        String session = init.header("Mcp-Session-Id").orElseThrow();
        TestResponse streamed = client.send(TestRequest.of("POST", "/mcp").header("Accept", "application/json, text/event-stream")
                .header("Mcp-Session-Id", session).body("application/json", "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\","
                        + "\"params\":{\"name\":\"work\",\"arguments\":{},\"_meta\":{\"progressToken\":7}}}"));
        String body = streamed.text();
        java.util.List<String> ids = new java.util.ArrayList<>();
        for (String line : body.split("\n")) if (line.startsWith("id:")) ids.add(line.substring(3).strip());
        assertThat(ids).as(body).hasSize(4); // priming, two progress notifications, the result
        String stream = ids.get(0).substring(0, ids.get(0).lastIndexOf('-'));
        assertThat(ids).containsExactly(stream + "-0", stream + "-1", stream + "-2", stream + "-3");
        // 2025-11-25 basic/transports "Resumability and Redelivery": GET with Last-Event-ID replays what came after it
        TestResponse resumed = client.send(TestRequest.get("/mcp").header("Accept", "text/event-stream").header("Mcp-Session-Id", session)
                .header("Last-Event-ID", stream + "-1"));
        assertThat(resumed.status()).isEqualTo(200);
        String again = resumed.text();
        assertThat(again).doesNotContain("id: " + stream + "-1\n").contains("id: " + stream + "-2", "id: " + stream + "-3")
                .contains("\"structuredContent\":{\"done\":true}");
        assertThat(client.send(TestRequest.get("/mcp").header("Mcp-Session-Id", session).header("Last-Event-ID", "nope-1")).status())
                .isEqualTo(404);
        assertThat(client.send(TestRequest.get("/mcp").header("Mcp-Session-Id", session)).status()).as("no stream of its own").isEqualTo(405);
    }

    @Test
    void aMirroredHeaderMustNameAStringIntegerOrBooleanParameter() {
        Tidemill number = Tidemill.create(TestClient.config().build());
        number.get("/n", req -> "n").params(RATIO).requires(Requirement.anonymous()).tool("n", "N").toolHeader("ratio", "Ratio");
        number.mcp();
        assertThatThrownBy(number::start).hasMessageContaining("tool n").hasMessageContaining("not number");
        Tidemill missing = Tidemill.create(TestClient.config().build());
        missing.get("/m", req -> "m").requires(Requirement.anonymous()).tool("m", "M").toolHeader("region", "Region");
        missing.mcp();
        assertThatThrownBy(missing::start).hasMessageContaining("names no path or query parameter");
        assertThatThrownBy(() -> Tidemill.create().get("/x", req -> "x").toolHeader("a", "Bad Header"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void bearerTokensWithoutAnAudienceAreRefusedForAnMcpEndpoint() {
        // 2025-11-25 basic/authorization "Token Audience Binding and Validation": only tokens issued for this server
        java.net.URI keys = java.net.URI.create("https://issuer.example/jwks");
        Tidemill anyAudience = Tidemill.create(TestClient.config()
                .auth(dev.tidemill.Auth.bearer(dev.tidemill.BearerTokens.builder().issuer("https://issuer.example").jwksUri(keys).build())).build());
        assertThatThrownBy(anyAudience::mcp).hasMessageContaining("BearerTokens.audience");
        Tidemill bound = Tidemill.create(TestClient.config().auth(dev.tidemill.Auth.bearer(dev.tidemill.BearerTokens.builder()
                .issuer("https://issuer.example").audience("http://127.0.0.1/mcp").jwksUri(keys).build())).build());
        bound.mcp(); // accepted
    }
}
