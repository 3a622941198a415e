package dev.tidemill.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.OpenApi;
import dev.tidemill.Param;
import dev.tidemill.ParamType;
import dev.tidemill.Requirement;
import dev.tidemill.Response;
import dev.tidemill.Tidemill;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestRequest;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The demo's items, search and users routes are controllers now ({@link ItemsController},
 * {@link UsersController}): their OpenAPI operations, schemas and MCP tools are equal to those of
 * the lambda-API routes they replaced, written out here as they were.
 */
class DemoControllersTest {
    static final Param<Integer> ITEM_ID = Param.path("id", ParamType.INT);
    static final Param<Boolean> VERBOSE = Param.query("verbose", ParamType.BOOLEAN).withDefault(false);
    static final Param<List<String>> TAGS = Param.queryList("tag", ParamType.STRING);
    static final Param<String> Q = Param.query("q");
    static final Param<Integer> LIMIT = Param.query("limit", ParamType.INT).withDefault(10);
    static final Param<Optional<LocalDate>> SINCE = Param.query("since", ParamType.LOCAL_DATE).optional();

    /** The routes as the demo wrote them before they moved to controllers. */
    static Tidemill lambdaVersion() {
        Tidemill app = Tidemill.create(TestClient.config().build());
        app.get("/items/{id}", req -> new Demo.Item(req.param(ITEM_ID), req.param(VERBOSE), req.param(TAGS)))
                .params(ITEM_ID, VERBOSE, TAGS).returns(Demo.Item.class)
                .requires(Requirement.anonymous()).tool("get_item", "An item by its id, with the query options echoed back");
        app.get("/search", req -> Map.of("q", req.param(Q), "limit", req.param(LIMIT),
                        "since", req.param(SINCE).map(LocalDate::toString).orElse("any")))
                .params(Q, LIMIT, SINCE)
                .requires(Requirement.anonymous()).tool("search", "Searches for q: at most limit results, since a date if given");
        app.post("/users", req -> {
            Demo.NewUser u = req.body(Demo.NewUser.class);
            return Response.status(201).json(new Demo.User(1, u.name(), u.age()));
        }).body(Demo.NewUser.class).returns(201, Demo.User.class).summary("Create a user").tags("users")
                .requires(Requirement.anonymous()).tool("create_user", "Creates a user from a name and an age (0 to 150)");
        app.openApi(OpenApi.builder().title("Tidemill demo").version("0.1.0").build());
        app.mcp();
        return app;
    }

    @Test
    void theMovedRoutesAreDescribedAndServedAsBefore() {
        try (TestClient demo = TestClient.start(Demo.create(TestClient.config().build()));
                TestClient before = TestClient.start(lambdaVersion())) {
            JsonNode now = demo.get("/openapi.json").jsonTree();
            JsonNode then = before.get("/openapi.json").jsonTree();
            for (String path : List.of("/paths/~1items~1{id}", "/paths/~1search", "/paths/~1users",
                    "/components/schemas/Item", "/components/schemas/NewUser", "/components/schemas/User")) {
                assertThat(now.at(path).isMissingNode()).as(path).isFalse();
                assertThat(now.at(path).toString()).as(path).isEqualTo(then.at(path).toString());
            }
            Map<String, String> toolsNow = tools(demo);
            Map<String, String> toolsThen = tools(before);
            for (String tool : List.of("get_item", "search", "create_user")) {
                assertThat(toolsNow.get(tool)).as(tool).isNotNull().isEqualTo(toolsThen.get(tool));
            }
            for (String path : List.of("/items/42?verbose=yes&tag=a&tag=b", "/items/abc", "/search?q=tide&limit=3&since=2026-11-01",
                    "/search", "/search?since=2026-02-30&q=x")) {
                assertThat(demo.get(path).text()).as(path).isEqualTo(before.get(path).text());
            }
            for (String body : List.of("{\"name\":\"Ada\",\"age\":36}", "{\"name\":\"\",\"age\":200}", "{\"name\":")) {
                var a = demo.post("/users", "application/json", body);
                var b = before.post("/users", "application/json", body);
                assertThat(a.status()).as(body).isEqualTo(b.status());
                assertThat(a.text()).as(body).isEqualTo(b.text());
            }
        }
    }

    /** @return each tool of a stateless tools/list, as its JSON text */
    static Map<String, String> tools(TestClient client) {
        String body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{\"_meta\":{"
                + "\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\",\"io.modelcontextprotocol/clientCapabilities\":{}}}}";
        JsonNode list = client.send(TestRequest.of("POST", "/mcp").header("Accept", "application/json, text/event-stream")
                .header("MCP-Protocol-Version", "2026-07-28").header("Mcp-Method", "tools/list")
                .body("application/json", body)).jsonTree();
        Map<String, String> out = new java.util.LinkedHashMap<>();
        for (JsonNode t : list.at("/result/tools")) out.put(t.get("name").asString(), t.toString());
        return out;
    }
}
