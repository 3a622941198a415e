package dev.tidemill.tests.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidemill.ApiKeys;
import dev.tidemill.Auth;
import dev.tidemill.Mcp;
import dev.tidemill.Param;
import dev.tidemill.ParamType;
import dev.tidemill.ProblemException;
import dev.tidemill.Problem;
import dev.tidemill.Requirement;
import dev.tidemill.Response;
import dev.tidemill.Tidemill;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestRequest;
import dev.tidemill.testing.TestResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The MCP endpoint over a socket, in both protocol eras, against an app whose tools are ordinary
 * routes: the session-based revisions (2025-11-25 basic/lifecycle "Initialization" and
 * basic/transports "Session Management": initialize, Mcp-Session-Id, 400 without it, 404 for an
 * unknown one, DELETE), the stateless one (2026-07-28 server/discover, transports/streamable-http
 * "Server Validation" and "Protocol Version Header"), tools from routes (inputSchema from the
 * parameters and body, structuredContent wrapped when not an object, a route's 404 and 422 as
 * isError results), and who may call what (tools/list filtered by the caller; a missing scope is
 * HTTP 403 with insufficient_scope, 2025-11-25 basic/authorization "Scope Challenge Handling"), and
 * the Origin check (2025-11-25 basic/transports "Security Warning").
 */
@Timeout(60)
class McpEndpointTest {
    static final JsonMapper JSON = JsonMapper.builder().build();
    static final ApiKeys.Generated ADMIN = ApiKeys.generate("ops", Set.of("admin"));
    static final ApiKeys.Generated USER = ApiKeys.generate("reader", Set.of("read"));
    static final Param<Long> ID = Param.path("id", ParamType.LONG);
    static final Param<String> Q = Param.query("q");
    static final Param<Integer> LIMIT = Param.query("limit", ParamType.INT).withDefault(10);
    static TestClient client;

    record Item(long id, String name) {}

    record NewUser(String name, int age) {}

    record User(long id, String name, int age) {}

    static Tidemill app() {
        Tidemill app = Tidemill.create(TestClient.config().workerLoops(1).ioThreads(1)
                .auth(Auth.apiKeys(ApiKeys.of(List.of(ADMIN.entry(), USER.entry())))).build());
        app.get("/items/{id}", req -> {
            long id = req.param(ID);
            if (id > 100) throw new ProblemException(Problem.of(404, "Not Found", "no item " + id));
            return new Item(id, "item " + id);
        }).params(ID).returns(Item.class).requires(Requirement.anonymous()).tool("get_item", "One item by its id");
        app.get("/search", req -> List.of(new Item(1, req.param(Q)), new Item(2, "limit " + req.param(LIMIT))))
                .params(Q, LIMIT).returns(Item[].class).requires(Requirement.anonymous()).tool("search", "Items matching q");
        app.post("/users", req -> {
            NewUser u = req.body(NewUser.class);
            return Response.status(201).json(new User(7, u.name(), u.age()));
        }).body(NewUser.class).returns(201, User.class).requires(Requirement.anonymous()).tool("create_user", "Adds a user");
        app.get("/admin/stats", req -> Map.of("requests", 42)).requires(Requirement.scope("admin"))
                .tool("admin_stats", "Server statistics");
        app.get("/plain", req -> "not a tool").requires(Requirement.anonymous());
        app.mcp(Mcp.builder().name("tidemill-test").pageSize(2).build());
        return app;
    }

    @BeforeAll
    static void start() {
        client = TestClient.start(app()).timeout(Duration.ofSeconds(20));
    }

    @AfterAll
    static void stop() {
        if (client != null) client.close();
    }

    static TestResponse post(String body, String... headers) {
        TestRequest r = TestRequest.of("POST", "/mcp").body("application/json", body).header("Accept", "application/json, text/event-stream");
        for (int i = 0; i < headers.length; i += 2) r = r.header(headers[i], headers[i + 1]);
        return client.send(r);
    }

    static String session(String version) {
        TestResponse init = post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"" + version
                + "\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}");
        assertThat(init.status()).as("%s", init).isEqualTo(200);
        assertThat(init.jsonTree().at("/result/protocolVersion").asString()).isEqualTo(version);
        String id = init.header("Mcp-Session-Id").orElseThrow();
        assertThat(id).matches("[\\x21-\\x7e]{40,}");
        assertThat(post("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}", "Mcp-Session-Id", id,
                "MCP-Protocol-Version", version).status()).isEqualTo(202);
        return id;
    }

    static JsonNode call(String session, String tool, String args, String... auth) {
        String[] headers = new String[4 + auth.length];
        headers[0] = "Mcp-Session-Id";
        headers[1] = session;
        headers[2] = "MCP-Protocol-Version";
        headers[3] = "2025-11-25";
        System.arraycopy(auth, 0, headers, 4, auth.length);
        TestResponse r = post("{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":{\"name\":\"" + tool
                + "\",\"arguments\":" + args + "}}", headers);
        assertThat(r.status()).as("%s", r).isEqualTo(200);
        return r.jsonTree().get("result");
    }

    /** 2025-11-25 basic/transports "Session Management" (ids of visible ASCII; 400 without one, 404 for an unknown or ended one; DELETE) and "Listening for Messages from the Server" (GET: a stream or 405). */
    @Test
    void aSessionIsOpenedUsedAndEnded() {
        String id = session("2025-11-25");
        TestResponse ping = post("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}", "Mcp-Session-Id", id);
        assertThat(ping.jsonTree().get("result").toString()).isEqualTo("{}");
        TestResponse missing = post("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"}");
        assertThat(missing.status()).as("no session id: 400").isEqualTo(400);
        TestResponse unknown = post("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"}", "Mcp-Session-Id", "nope");
        assertThat(unknown.status()).as("unknown session: 404").isEqualTo(404);
        TestResponse notFound = post("{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"prompts/list\"}", "Mcp-Session-Id", id);
        assertThat(notFound.jsonTree().at("/error/code").asInt()).isEqualTo(-32601);
        assertThat(client.send(TestRequest.of("DELETE", "/mcp").header("Mcp-Session-Id", id)).status()).isEqualTo(204);
        assertThat(post("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"}", "Mcp-Session-Id", id).status()).as("ended: 404").isEqualTo(404);
        assertThat(client.get("/mcp").status()).as("no GET stream").isEqualTo(405);
    }

    /** 2025-11-25 basic/lifecycle "Version Negotiation": a version the server does not speak is answered with the one it does. */
    @Test
    void anUnknownVersionIsAnsweredWithTheNewestSessionVersion() {
        TestResponse init = post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2024-01-01\","
                + "\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}");
        assertThat(init.jsonTree().at("/result/protocolVersion").asString()).isEqualTo("2025-11-25");
        assertThat(init.jsonTree().at("/result/serverInfo/name").asString()).isEqualTo("tidemill-test");
        assertThat(init.jsonTree().at("/result/capabilities/tools").isObject()).isTrue();
    }

    /** 2025-03-26 basic/transports "Sending Messages to the Server" (a batch is allowed) against 2025-06-18 changelog (batching removed). */
    @Test
    void batchesOnlyOnA20250326Session() {
        String old = session("2025-03-26");
        TestResponse batch = post("[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"},{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}]",
                "Mcp-Session-Id", old);
        assertThat(batch.status()).isEqualTo(200);
        assertThat(batch.jsonTree().size()).isEqualTo(2);
        String current = session("2025-11-25");
        assertThat(post("[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]", "Mcp-Session-Id", current).status()).isEqualTo(400);
    }

    /** 2025-11-25 server/tools "Listing Tools", "Output Schema" and "Tool Annotations"; server/utilities/pagination (an opaque cursor, -32602 for a bad one). */
    @Test
    void toolsAreListedWithSchemasFromTheirRoutesInPages() {
        String id = session("2025-11-25");
        TestResponse first = post("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}", "Mcp-Session-Id", id);
        JsonNode page = first.jsonTree().get("result");
        assertThat(page.get("tools")).hasSize(2);
        assertThat(page.get("tools").get(0).get("name").asString()).isEqualTo("get_item");
        JsonNode getItem = page.get("tools").get(0);
        assertThat(getItem.at("/inputSchema/properties/id/type").asString()).isEqualTo("integer");
        assertThat(getItem.at("/inputSchema/required").toString()).isEqualTo("[\"id\"]");
        assertThat(getItem.at("/annotations/readOnlyHint").asBoolean()).isTrue();
        assertThat(getItem.at("/outputSchema/properties/name/type").toString()).contains("string");
        JsonNode search = page.get("tools").get(1);
        assertThat(search.at("/outputSchema/properties/result/type").asString()).as("an array answer is wrapped").isEqualTo("array");
        String cursor = page.get("nextCursor").asString();
        JsonNode second = post("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/list\",\"params\":{\"cursor\":\"" + cursor + "\"}}",
                "Mcp-Session-Id", id).jsonTree().get("result");
        assertThat(second.get("tools")).as("admin_stats is hidden from an anonymous caller").hasSize(1);
        JsonNode create = second.get("tools").get(0);
        assertThat(create.get("name").asString()).isEqualTo("create_user");
        assertThat(create.at("/inputSchema/properties/age/type").asString()).as("the body's properties are arguments").isEqualTo("integer");
        assertThat(second.has("nextCursor")).isFalse();
        JsonNode bad = post("{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/list\",\"params\":{\"cursor\":\"zz!\"}}", "Mcp-Session-Id", id)
                .jsonTree();
        assertThat(bad.at("/error/code").asInt()).isEqualTo(-32602);
    }

    /** 2025-11-25 server/tools "Calling Tools", "Structured Content" and "Error Handling" (route problems are isError results; an unknown tool -32602). */
    @Test
    void aCallRunsTheRealRoute() {
        String id = session("2025-11-25");
        JsonNode item = call(id, "get_item", "{\"id\":5}");
        assertThat(item.get("isError").asBoolean()).isFalse();
        assertThat(item.get("structuredContent").toString()).isEqualTo("{\"id\":5,\"name\":\"item 5\"}");
        assertThat(JSON.readTree(item.at("/content/0/text").asString())).isEqualTo(item.get("structuredContent"));
        JsonNode search = call(id, "search", "{\"q\":\"a b/c\"}");
        assertThat(search.at("/structuredContent/result/0/name").asString()).isEqualTo("a b/c");
        assertThat(search.at("/structuredContent/result/1/name").asString()).as("the default applies").isEqualTo("limit 10");
        JsonNode created = call(id, "create_user", "{\"name\":\"Ada\",\"age\":36}");
        assertThat(created.get("structuredContent").toString()).isEqualTo("{\"id\":7,\"name\":\"Ada\",\"age\":36}");
        JsonNode missing = call(id, "get_item", "{\"id\":500}");
        assertThat(missing.get("isError").asBoolean()).isTrue();
        assertThat(missing.at("/content/0/text").asString()).contains("\"status\":404").contains("no item 500");
        JsonNode invalid = call(id, "get_item", "{\"id\":\"five\"}");
        assertThat(invalid.get("isError").asBoolean()).isTrue();
        assertThat(invalid.at("/content/0/text").asString()).contains("\"status\":422").contains("id");
        JsonNode unknownArg = call(id, "get_item", "{\"id\":1,\"color\":\"red\"}");
        assertThat(unknownArg.get("isError").asBoolean()).isTrue();
        TestResponse noTool = post("{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/call\",\"params\":{\"name\":\"plain\"}}",
                "Mcp-Session-Id", id);
        assertThat(noTool.jsonTree().at("/error/code").asInt()).isEqualTo(-32602);
    }

    /** 2025-11-25 basic/authorization "Scope Challenge Handling"; basic/security_best_practices "Session Hijacking" (a session is its caller's). */
    @Test
    void aToolNeedingAScopeIsForbiddenWithAChallengeAndListedForWhoHasIt() {
        String anonymous = session("2025-11-25");
        TestResponse forbidden = post("{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":{\"name\":\"admin_stats\"}}",
                "Mcp-Session-Id", anonymous);
        assertThat(forbidden.status()).as("%s", forbidden).isEqualTo(401);
        TestResponse init = client.send(TestRequest.of("POST", "/mcp").header("Accept", "application/json, text/event-stream")
                .header("X-API-Key-Ignored", "x").header("Authorization", "ApiKey " + USER.key())
                .body("application/json", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
                        + "\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}"));
        String reader = init.header("Mcp-Session-Id").orElseThrow();
        TestResponse scoped = post("{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":{\"name\":\"admin_stats\"}}",
                "Mcp-Session-Id", reader, "Authorization", "ApiKey " + USER.key());
        assertThat(scoped.status()).as("%s", scoped).isEqualTo(403);
        assertThat(post("{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"ping\"}", "Mcp-Session-Id", reader).status())
                .as("a session belongs to the caller that opened it").isEqualTo(404);
        TestResponse adminInit = client.send(TestRequest.of("POST", "/mcp").header("Accept", "application/json")
                .header("Authorization", "ApiKey " + ADMIN.key())
                .body("application/json", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
                        + "\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}"));
        String admin = adminInit.header("Mcp-Session-Id").orElseThrow();
        JsonNode stats = call(admin, "admin_stats", "{}", "Authorization", "ApiKey " + ADMIN.key());
        assertThat(stats.get("structuredContent").toString()).isEqualTo("{\"requests\":42}");
    }

    /** 2026-07-28 server/discover; basic/transports/streamable-http "Server Validation" (-32020), "Protocol Version Header" (-32022, 404 with -32601) and "Earlier Streamable HTTP Revisions" (no session, DELETE 405); basic/index "_meta"; server/utilities/caching. */
    @Test
    void theStatelessEraNeedsMatchingHeadersAndKeepsNothing() {
        String meta = "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\",\"io.modelcontextprotocol/clientInfo\":"
                + "{\"name\":\"t\",\"version\":\"1\"},\"io.modelcontextprotocol/clientCapabilities\":{}}";
        TestResponse discover = post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"server/discover\",\"params\":{" + meta + "}}",
                "MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "server/discover");
        assertThat(discover.status()).as("%s", discover).isEqualTo(200);
        assertThat(discover.jsonTree().at("/result/supportedVersions/0").asString()).isEqualTo("2026-07-28");
        assertThat(discover.header("Mcp-Session-Id")).isEmpty();
        TestResponse call = post("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"get_item\","
                + "\"arguments\":{\"id\":3}," + meta + "}}", "MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "tools/call",
                "Mcp-Name", "get_item");
        assertThat(call.jsonTree().at("/result/structuredContent/id").asInt()).isEqualTo(3);
        TestResponse wrongName = post("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"get_item\","
                + "\"arguments\":{\"id\":3}," + meta + "}}", "MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "tools/call",
                "Mcp-Name", "=?base64?c2VhcmNo?=");
        assertThat(wrongName.status()).isEqualTo(400);
        assertThat(wrongName.jsonTree().at("/error/code").asInt()).isEqualTo(-32020);
        TestResponse noMethod = post("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\",\"params\":{" + meta + "}}",
                "MCP-Protocol-Version", "2026-07-28");
        assertThat(noMethod.jsonTree().at("/error/code").asInt()).isEqualTo(-32020);
        TestResponse unsupported = post("{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"ping\",\"params\":{\"_meta\":"
                + "{\"io.modelcontextprotocol/protocolVersion\":\"1900-01-01\",\"io.modelcontextprotocol/clientCapabilities\":{}}}}",
                "MCP-Protocol-Version", "1900-01-01", "Mcp-Method", "ping");
        assertThat(unsupported.status()).isEqualTo(400);
        assertThat(unsupported.jsonTree().at("/error/code").asInt()).isEqualTo(-32022);
        assertThat(unsupported.jsonTree().at("/error/data/supported").toString()).contains("2026-07-28");
        TestResponse unknown = post("{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"prompts/list\",\"params\":{" + meta + "}}",
                "MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "prompts/list");
        assertThat(unknown.status()).isEqualTo(404);
        assertThat(unknown.jsonTree().at("/error/code").asInt()).isEqualTo(-32601);
        assertThat(client.send(TestRequest.of("DELETE", "/mcp").header("MCP-Protocol-Version", "2026-07-28")).status()).isEqualTo(405);
        TestResponse noCapabilities = post("{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"tools/list\",\"params\":{\"_meta\":"
                + "{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\"}}}", "MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "tools/list");
        assertThat(noCapabilities.status()).as("basic/index _meta: clientCapabilities is required").isEqualTo(400);
        assertThat(noCapabilities.jsonTree().at("/error/code").asInt()).isEqualTo(-32602);
        TestResponse ping = post("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"ping\",\"params\":{" + meta + "}}",
                "MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "ping");
        assertThat(ping.status()).as("changelog: ping is removed").isEqualTo(404);
        TestResponse list = post("{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"tools/list\",\"params\":{" + meta + "}}",
                "MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "tools/list");
        assertThat(list.jsonTree().at("/result/cacheScope").asString()).as("server/utilities/caching").isEqualTo("private");
        assertThat(list.jsonTree().at("/result/ttlMs").asLong()).isPositive();
    }

    /** 2025-11-25 basic/transports "Security Warning": Origin validated, 403 (DNS rebinding, with Host). */
    @Test
    void aForeignOriginIsForbidden() {
        TestResponse r = post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-11-25\"}}",
                "Origin", "http://evil.example");
        assertThat(r.status()).isEqualTo(403);
        assertThat(r.jsonTree().at("/error").isObject()).isTrue();
        assertThat(r.jsonTree().get("id").isNull()).isTrue();
        // DNS rebinding: a page whose name resolves to 127.0.0.1 sends its own name as Host and Origin, consistently
        TestResponse rebound = post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
                + "\"2025-11-25\"}}", "Host", "evil.example:" + client.server().port(), "Origin", "http://evil.example:" + client.server().port());
        assertThat(rebound.status()).isEqualTo(403);
        assertThat(post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-11-25\"}}",
                "Host", "127.evil.example").status()).isEqualTo(403);
        TestResponse local = post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
                + "\"2025-11-25\"}}", "Host", "localhost:" + client.server().port(), "Origin", "http://localhost:3000");
        assertThat(local.status()).as("a page on the loopback itself").isEqualTo(200);
    }

    /** 2025-11-25 server/tools "Tool Names"; a tool exposed without an auth decision is refused at start. */
    @Test
    void aToolWithoutAnAuthDecisionFailsTheStart() {
        Tidemill app = Tidemill.create(TestClient.config().build());
        app.get("/open", req -> "x").tool("open", "Anything");
        app.mcp();
        assertThatThrownBy(app::start).hasMessageContaining("tool open").hasMessageContaining("no auth decision");
        Tidemill twice = Tidemill.create(TestClient.config().build());
        twice.get("/a", req -> "a").requires(Requirement.anonymous()).tool("same", "A");
        twice.get("/b", req -> "b").requires(Requirement.anonymous()).tool("same", "B");
        twice.mcp();
        assertThatThrownBy(twice::start).hasMessageContaining("tool same is declared twice");
        assertThatThrownBy(() -> Tidemill.create().get("/c", req -> "c").tool("bad name", "x"))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
