package dev.tidemill.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.Config;
import dev.tidemill.Tidemill;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestRequest;
import dev.tidemill.testing.TestResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The demo's MCP endpoint as the banner shows it (2025-11-25 basic/lifecycle, server/tools): an
 * anonymous agent lists get_item, search, create_user and post_message; with the development API
 * key (scope admin) admin_stats too; each call answers what the plain route answers.
 */
class DemoMcpTest {
    static final JsonMapper JSON = JsonMapper.builder().build();

    @TempDir
    Path dir;

    @Test
    void theDemoToolsAnswerAsTheirRoutes() throws Exception {
        Config base = TestClient.config().build();
        DemoIdentity.Setup identity = DemoIdentity.setup(base, dir.resolve("key.json"));
        Tidemill app = Demo.create(base.toBuilder().auth(identity.auth()).build());
        String key = "ApiKey " + identity.devApiKey().orElseThrow();
        try (TestClient client = TestClient.start(app)) {
            String anonymous = initialize(client, null);
            assertThat(toolNames(client, anonymous, null)).containsExactly("get_item", "search", "create_user", "post_message");
            String admin = initialize(client, key);
            assertThat(toolNames(client, admin, key)).containsExactly("get_item", "search", "create_user", "post_message", "admin_stats");
            assertThat(call(client, anonymous, null, "get_item", "{\"id\":7,\"tag\":[\"a\",\"b\"]}"))
                    .isEqualTo(client.get("/items/7?tag=a&tag=b").jsonTree());
            assertThat(call(client, anonymous, null, "search", "{\"q\":\"tide mill\",\"limit\":3}"))
                    .isEqualTo(client.get("/search?q=tide%20mill&limit=3").jsonTree());
            assertThat(call(client, anonymous, null, "create_user", "{\"name\":\"Ada\",\"age\":36}"))
                    .isEqualTo(client.postJson("/users", java.util.Map.of("name", "Ada", "age", 36)).jsonTree());
            JsonNode posted = call(client, anonymous, null, "post_message", "{\"room\":\"lobby\",\"text\":\"hi\"}");
            assertThat(posted.get("id").asString()).matches("\\d+-\\d+");
            JsonNode stats = call(client, admin, key, "admin_stats", "{}");
            assertThat(stats.has("uptimeSeconds")).isTrue();
            assertThat(stats.get("roomMessages").asLong()).isGreaterThanOrEqualTo(1);
            JsonNode invalid = callResult(client, anonymous, null, "create_user", "{\"name\":\"\",\"age\":200}");
            assertThat(invalid.get("isError").asBoolean()).isTrue();
            assertThat(invalid.at("/content/0/text").asString()).contains("422").contains("age").contains("name");
            assertThat(Demo.banner(app, client.server(), identity)).contains("/mcp", "tools/list", "tools/call", "Mcp-Session-Id");
            // 2025-11-25 basic/authorization "Protected Resource Metadata Discovery Requirements": the 401 names the metadata
            TestResponse unauthorized = client.send(TestRequest.of("POST", "/mcp").header("Accept", "application/json, text/event-stream")
                    .header("Mcp-Session-Id", anonymous).body("application/json", "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":"
                            + "\"tools/call\",\"params\":{\"name\":\"admin_stats\",\"arguments\":{}}}"));
            assertThat(unauthorized.status()).as("%s", unauthorized).isEqualTo(401);
            assertThat(unauthorized.header("WWW-Authenticate")).as("%s", unauthorized).isPresent();
            String metadata = "http://127.0.0.1:" + client.server().port() + "/.well-known/oauth-protected-resource/mcp";
            assertThat(unauthorized.header("WWW-Authenticate").orElseThrow()).startsWith("Bearer resource_metadata=\"" + metadata + "\"");
            JsonNode doc = client.send(TestRequest.get("/.well-known/oauth-protected-resource/mcp").header("Host", "127.0.0.1:"
                    + client.server().port())).jsonTree();
            assertThat(doc.get("resource").asString()).isEqualTo("http://127.0.0.1:" + client.server().port() + "/mcp");
            assertThat(doc.get("authorization_servers").get(0).asString()).isEqualTo(DemoIdentity.DEV_ISSUER);
            assertThat(doc.get("scopes_supported").toString()).isEqualTo("[\"admin\"]");
            assertThat(doc.get("bearer_methods_supported").toString()).isEqualTo("[\"header\"]");
            // "Scope Challenge Handling": a token without the tool's scope is refused with the scope it needs
            String bob = "Bearer " + DemoIdentity.devToken(dir.resolve("key.json"), "bob", List.of());
            String bobSession = initialize(client, bob);
            assertThat(toolNames(client, bobSession, bob)).doesNotContain("admin_stats");
            TestResponse forbidden = client.send(TestRequest.of("POST", "/mcp").header("Accept", "application/json, text/event-stream")
                    .header("Mcp-Session-Id", bobSession).header("Authorization", bob).body("application/json",
                            "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/call\",\"params\":{\"name\":\"admin_stats\",\"arguments\":{}}}"));
            assertThat(forbidden.status()).isEqualTo(403);
            assertThat(forbidden.header("WWW-Authenticate").orElseThrow()).startsWith("Bearer resource_metadata=\"" + metadata + "\"")
                    .contains("error=\"insufficient_scope\"", "scope=\"admin\"");
        }
    }

    static String initialize(TestClient client, String auth) {
        TestRequest r = TestRequest.of("POST", "/mcp").header("Accept", "application/json, text/event-stream")
                .body("application/json", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
                        + "\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"test\",\"version\":\"1\"}}}");
        if (auth != null) r = r.header("Authorization", auth);
        TestResponse init = client.send(r);
        assertThat(init.status()).as("%s", init).isEqualTo(200);
        return init.header("Mcp-Session-Id").orElseThrow();
    }

    static List<String> toolNames(TestClient client, String session, String auth) {
        JsonNode result = rpc(client, session, auth, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}").get("result");
        List<String> names = new ArrayList<>();
        result.get("tools").forEach(t -> names.add(t.get("name").asString()));
        return names;
    }

    static JsonNode call(TestClient client, String session, String auth, String tool, String args) {
        JsonNode result = callResult(client, session, auth, tool, args);
        assertThat(result.get("isError").asBoolean()).as("%s", result).isFalse();
        return result.get("structuredContent");
    }

    static JsonNode callResult(TestClient client, String session, String auth, String tool, String args) {
        return rpc(client, session, auth, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"" + tool
                + "\",\"arguments\":" + args + "}}").get("result");
    }

    static JsonNode rpc(TestClient client, String session, String auth, String body) {
        TestRequest r = TestRequest.of("POST", "/mcp").header("Accept", "application/json, text/event-stream")
                .header("Mcp-Session-Id", session).header("MCP-Protocol-Version", "2025-11-25").body("application/json", body);
        if (auth != null) r = r.header("Authorization", auth);
        TestResponse res = client.send(r);
        assertThat(res.status()).as("%s", res).isEqualTo(200);
        return res.jsonTree();
    }
}
