package dev.tidemill.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.Config;
import dev.tidemill.Tidemill;
import dev.tidemill.testing.TestClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The official TypeScript SDK's client ({@code @modelcontextprotocol/sdk} 1.32.2, Streamable HTTP,
 * protocol 2025-11-25) against the demo over a socket: it initializes, lists every tool page by page,
 * calls every demo tool, and ends its session with DELETE; each result's structured content is what
 * the plain HTTP route answers (2025-11-25 server/tools, "Structured Content").
 */
@Timeout(300)
class McpTypeScriptClientTest {
    static final JsonMapper JSON = JsonMapper.builder().build();

    @TempDir
    Path dir;

    @Test
    void theSdkClientListsAndCallsEveryDemoTool() throws Exception {
        Config base = TestClient.config().build();
        DemoIdentity.Setup identity = DemoIdentity.setup(base, dir.resolve("key.json"));
        Tidemill app = Demo.create(base.toBuilder().auth(identity.auth()).build());
        String key = "ApiKey " + identity.devApiKey().orElseThrow();
        try (TestClient client = TestClient.start(app)) {
            String url = "http://127.0.0.1:" + client.server().port() + "/mcp";
            List<Map<String, Object>> calls = List.of(
                    Map.of("name", "get_item", "arguments", Map.of("id", 7, "verbose", true)),
                    Map.of("name", "search", "arguments", Map.of("q", "mill", "limit", 2)),
                    Map.of("name", "create_user", "arguments", Map.of("name", "Ada", "age", 36)),
                    Map.of("name", "post_message", "arguments", Map.of("room", "lobby", "text", "from the SDK")),
                    Map.of("name", "admin_stats", "arguments", Map.of()));
            JsonNode out = JSON.readTree(McpNode.run(List.of("node", "sdk-client.mjs", url, key), JSON.writeValueAsBytes(calls), 120));
            assertThat(out.get("protocolVersion").asString()).isEqualTo("2025-11-25");
            assertThat(out.get("sessionId").isString()).isTrue();
            assertThat(out.get("tools").toString()).isEqualTo("[\"get_item\",\"search\",\"create_user\",\"post_message\",\"admin_stats\"]");
            JsonNode results = out.get("results");
            for (JsonNode r : results) assertThat(r.get("isError").asBoolean()).as("%s", r).isFalse();
            assertThat(results.get(0).get("structuredContent")).isEqualTo(client.get("/items/7?verbose=true").jsonTree());
            assertThat(results.get(1).get("structuredContent")).isEqualTo(client.get("/search?q=mill&limit=2").jsonTree());
            assertThat(results.get(2).get("structuredContent"))
                    .isEqualTo(client.postJson("/users", Map.of("name", "Ada", "age", 36)).jsonTree());
            assertThat(results.get(3).at("/structuredContent/id").asString()).matches("\\d+-\\d+");
            assertThat(results.get(4).at("/structuredContent/roomMessages").asLong()).isGreaterThanOrEqualTo(1);
            assertThat(JSON.readTree(results.get(0).at("/content/0/text").asString().getBytes(StandardCharsets.UTF_8)))
                    .isEqualTo(results.get(0).get("structuredContent"));
        }
    }
}
