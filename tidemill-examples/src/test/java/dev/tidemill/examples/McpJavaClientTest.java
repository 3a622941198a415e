package dev.tidemill.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.Config;
import dev.tidemill.Tidemill;
import dev.tidemill.testing.TestClient;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.modern.client.transport.HttpClientMcpTransport;
import io.modelcontextprotocol.modern.client.transport.McpHttpRequestCustomizer;
import io.modelcontextprotocol.spec.McpSchema;
import java.net.http.HttpRequest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The MCP Java SDK's clients ({@code io.modelcontextprotocol.sdk:mcp-core} 2.2.0) against the demo
 * over a socket, in both eras: its session client (Streamable HTTP, 2025-11-25: initialize, a
 * session, tools/list, tools/call) and its stateless client (2026-07-28: server/discover, then every
 * request with its own {@code _meta} and mirrored headers). Every demo tool is listed and called,
 * and each result's structured content is what the plain HTTP route answers.
 */
@Timeout(120)
class McpJavaClientTest {
    static final JsonMapper JSON = JsonMapper.builder().build();

    @TempDir
    Path dir;

    @Test
    void theSessionClientListsAndCallsEveryDemoTool() throws Exception {
        Config base = TestClient.config().build();
        DemoIdentity.Setup identity = DemoIdentity.setup(base, dir.resolve("key.json"));
        Tidemill app = Demo.create(base.toBuilder().auth(identity.auth()).build());
        String key = "ApiKey " + identity.devApiKey().orElseThrow();
        try (TestClient client = TestClient.start(app)) {
            var transport = HttpClientStreamableHttpTransport.builder("http://127.0.0.1:" + client.server().port()).endpoint("/mcp")
                    .requestBuilder(HttpRequest.newBuilder().header("Authorization", key)).build();
            try (McpSyncClient mcp = McpClient.sync(transport).requestTimeout(Duration.ofSeconds(20)).build()) {
                McpSchema.InitializeResult init = mcp.initialize();
                assertThat(init.protocolVersion()).isEqualTo("2025-11-25");
                assertThat(init.serverInfo().name()).isEqualTo("tidemill-demo");
                assertThat(mcp.listTools().tools()).extracting(McpSchema.Tool::name)
                        .containsExactly("get_item", "search", "create_user", "post_message", "admin_stats");
                assertThat(tree(mcp.callTool(new McpSchema.CallToolRequest("get_item", Map.of("id", 7)))))
                        .isEqualTo(client.get("/items/7").jsonTree());
                assertThat(tree(mcp.callTool(new McpSchema.CallToolRequest("search", Map.of("q", "x", "since", "2026-01-02")))))
                        .isEqualTo(client.get("/search?q=x&since=2026-01-02").jsonTree());
                assertThat(tree(mcp.callTool(new McpSchema.CallToolRequest("create_user", Map.of("name", "Lin", "age", 9)))))
                        .isEqualTo(client.postJson("/users", Map.of("name", "Lin", "age", 9)).jsonTree());
                assertThat(tree(mcp.callTool(new McpSchema.CallToolRequest("post_message", Map.of("room", "r1", "text", "hey"))))
                        .get("id").asString()).matches("\\d+-\\d+");
                assertThat(tree(mcp.callTool(new McpSchema.CallToolRequest("admin_stats", Map.of()))).has("uptimeSeconds")).isTrue();
                McpSchema.CallToolResult invalid = mcp.callTool(new McpSchema.CallToolRequest("create_user", Map.of("name", "", "age", 9)));
                assertThat(invalid.isError()).isTrue();
            }
        }
    }

    @Test
    void theStatelessClientListsAndCallsEveryDemoTool() throws Exception {
        Config base = TestClient.config().build();
        DemoIdentity.Setup identity = DemoIdentity.setup(base, dir.resolve("key.json"));
        Tidemill app = Demo.create(base.toBuilder().auth(identity.auth()).build());
        String key = "ApiKey " + identity.devApiKey().orElseThrow();
        try (TestClient client = TestClient.start(app)) {
            var transport = HttpClientMcpTransport.builder("http://127.0.0.1:" + client.server().port() + "/mcp")
                    .requestCustomizer(McpHttpRequestCustomizer.fromSync((request, headers, context) -> headers.set("Authorization", key)))
                    .build();
            var mcp = io.modelcontextprotocol.modern.client.McpClient.sync(transport).callTimeout(Duration.ofSeconds(20)).build();
            assertThat(mcp.discover().supportedVersions()).contains("2026-07-28");
            assertThat(mcp.listTools().list().tools()).extracting(io.modelcontextprotocol.modern.McpSchema.Tool::name)
                    .containsExactly("get_item", "search", "create_user", "post_message", "admin_stats");
            assertThat(tree(mcp.tool("get_item").arguments(Map.of("id", 3)).call().structuredContent()))
                    .isEqualTo(client.get("/items/3").jsonTree());
            assertThat(tree(mcp.tool("search").arguments(Map.of("q", "y", "limit", 4)).call().structuredContent()))
                    .isEqualTo(client.get("/search?q=y&limit=4").jsonTree());
            assertThat(tree(mcp.tool("create_user").arguments(Map.of("name", "Max", "age", 40)).call().structuredContent()))
                    .isEqualTo(client.postJson("/users", Map.of("name", "Max", "age", 40)).jsonTree());
            assertThat(tree(mcp.tool("post_message").arguments(Map.of("room", "r2", "text", "x")).call().structuredContent())
                    .get("id").asString()).matches("\\d+-\\d+");
            assertThat(tree(mcp.tool("admin_stats").arguments(Map.of()).call().structuredContent()).has("roomMessages")).isTrue();
        }
    }

    static JsonNode tree(McpSchema.CallToolResult r) {
        assertThat(r.isError()).as("%s", r).isFalse();
        return tree(r.structuredContent());
    }

    static JsonNode tree(Object structured) {
        return JSON.valueToTree(structured);
    }
}
