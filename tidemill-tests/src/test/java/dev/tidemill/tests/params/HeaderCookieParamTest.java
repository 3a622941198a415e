package dev.tidemill.tests.params;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidemill.OpenApi;
import dev.tidemill.Param;
import dev.tidemill.ParamType;
import dev.tidemill.Requirement;
import dev.tidemill.Response;
import dev.tidemill.Route;
import dev.tidemill.Tidemill;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestRequest;
import dev.tidemill.testing.TestResponse;
import io.swagger.v3.oas.models.SpecVersion;
import io.swagger.v3.parser.OpenAPIV3Parser;
import io.swagger.v3.parser.core.models.ParseOptions;
import io.swagger.v3.parser.core.models.SwaggerParseResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;

/**
 * Header and cookie parameters ({@link Param#header}, {@link Param#cookie}) over a socket: coerced
 * like query parameters (the first value counts; missing or invalid is a 422 whose {@code loc} is
 * {@code ["header", name]} or {@code ["cookie", name]}; optional and defaulted), header names in any
 * case, cookies from one or several {@code Cookie} fields; described in the OpenAPI document
 * ({@code in: header}, {@code in: cookie}) but left out of a tool's input schema (a tool call
 * forwards the MCP request's own fields); {@code Route.produces} naming a raw answer's media type
 * in the document; and what a declaration refuses.
 */
@Timeout(60)
class HeaderCookieParamTest {
    static final Param<Integer> LIMIT = Param.header("X-Limit", ParamType.INT);
    static final Param<Optional<String>> TENANT = Param.header("X-Tenant").optional();
    static final Param<Integer> PAGE = Param.header("x-page", ParamType.INT).withDefault(1);
    static final Param<String> SESSION = Param.cookie("session");
    static final Param<String> THEME = Param.cookie("theme").withDefault("light");
    static final Param<Optional<Integer>> VISITS = Param.cookie("visits", ParamType.INT).optional();
    static final Param<Integer> TOOL_LIMIT = Param.header("X-Limit", ParamType.INT).withDefault(10);
    static final Param<String> TOOL_Q = Param.query("q");

    static TestClient client;

    @BeforeAll
    static void start() {
        Tidemill app = Tidemill.create(TestClient.config().workerLoops(1).ioThreads(1).build());
        app.get("/limit", req -> req.param(LIMIT) + ":" + req.param(LIMIT).getClass().getSimpleName()).params(LIMIT);
        // the handler reads with a Param of another case than the declared one
        app.get("/any-case", req -> "limit " + req.param(Param.header("x-LIMIT", ParamType.INT))).params(LIMIT);
        app.get("/shapes", req -> "tenant " + req.param(TENANT).orElse("none") + ", page " + req.param(PAGE))
                .params(TENANT, PAGE);
        app.get("/cookies", req -> req.param(SESSION) + " " + req.param(THEME) + " "
                + req.param(VISITS).map(String::valueOf).orElse("-")).params(SESSION, THEME, VISITS);
        app.get("/tool-items", req -> "q " + req.param(TOOL_Q) + ", limit " + req.param(TOOL_LIMIT))
                .params(TOOL_Q, TOOL_LIMIT).returns(String.class).requires(Requirement.anonymous())
                .tool("items", "Items matching q");
        app.get("/logo", req -> Response.ok().bytes(new byte[] {(byte) 0x89, 'P', 'N', 'G'}, "image/png"))
                .returns(byte[].class).produces("image/png");
        app.get("/page", req -> Response.ok().bytes("<p>hi</p>".getBytes(), "text/html; charset=utf-8"))
                .returns(String.class).produces("text/html; charset=utf-8");
        app.get("/plain", req -> "plain").returns(String.class);
        app.openApi(OpenApi.builder().ui(false).build());
        app.mcp();
        client = TestClient.start(app).timeout(Duration.ofSeconds(20));
    }

    @AfterAll
    static void stop() {
        if (client != null) client.close();
    }

    private static TestResponse get(String path, String... headers) {
        TestRequest r = TestRequest.get(path);
        for (int i = 0; i < headers.length; i += 2) r = r.header(headers[i], headers[i + 1]);
        return client.send(r);
    }

    private static String ok(String path, String... headers) {
        TestResponse r = get(path, headers);
        assertThat(r.status()).as("%s -> %s", path, r).isEqualTo(200);
        return r.text();
    }

    /** Asserts a 422 with exactly one error entry and returns it. */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> singleError(String path, String... headers) {
        TestResponse r = get(path, headers);
        assertThat(r.status()).as("%s", r).isEqualTo(422);
        assertThat(r.header("Content-Type")).as("%s", r).hasValue("application/problem+json");
        Map<String, Object> p = r.json(Map.class);
        assertThat(p).containsEntry("title", "Validation failed").containsEntry("status", 422);
        List<Map<String, Object>> errors = (List<Map<String, Object>>) p.get("errors");
        assertThat(errors).as("%s", r).hasSize(1);
        return errors.get(0);
    }

    @Test
    void aHeaderIsCoercedAndTheFirstFieldCounts() {
        assertThat(ok("/limit", "X-Limit", "5")).isEqualTo("5:Integer");
        assertThat(ok("/limit", "X-Limit", "3", "X-Limit", "oops")).isEqualTo("3:Integer");
    }

    @Test
    void aMissingHeaderIsA422NamingIt() {
        assertThat(singleError("/limit")).isEqualTo(Map.of("type", "missing", "loc", List.of("header", "X-Limit"),
                "msg", "Field required"));
    }

    @Test
    void anInvalidHeaderIsA422WithTheTypesError() {
        assertThat(singleError("/limit", "X-Limit", "abc")).isEqualTo(Map.of("type", "int_parsing",
                "loc", List.of("header", "X-Limit"), "msg", "Input should be a valid integer", "input", "abc"));
    }

    @Test
    void headerNamesMatchInAnyCase() {
        assertThat(ok("/limit", "x-limit", "7")).isEqualTo("7:Integer");
        assertThat(ok("/limit", "X-LIMIT", "8")).isEqualTo("8:Integer");
        assertThat(ok("/any-case", "X-Limit", "9")).isEqualTo("limit 9");
        assertThat(ok("/shapes", "X-PAGE", "4")).isEqualTo("tenant none, page 4");
    }

    @Test
    void optionalAndDefaultedHeaders() {
        assertThat(ok("/shapes")).isEqualTo("tenant none, page 1");
        assertThat(ok("/shapes", "X-Tenant", "acme", "X-Page", "3")).isEqualTo("tenant acme, page 3");
        // a default stands in for a missing header, not for an invalid one
        assertThat(singleError("/shapes", "X-Page", "two")).containsEntry("type", "int_parsing")
                .containsEntry("loc", List.of("header", "x-page")).containsEntry("input", "two");
    }

    @Test
    void cookiesAreReadFromOneOrSeveralCookieFields() {
        assertThat(ok("/cookies", "Cookie", "session=abc; theme=dark; visits=3")).isEqualTo("abc dark 3");
        assertThat(ok("/cookies", "Cookie", "session=abc")).isEqualTo("abc light -");
        assertThat(ok("/cookies", "Cookie", "theme=dark", "Cookie", "session=xyz")).isEqualTo("xyz dark -");
        assertThat(ok("/cookies", "Cookie", "session=first; session=second")).isEqualTo("first light -");
        assertThat(ok("/cookies", "Cookie", "other=1; session=\"quoted\"")).isEqualTo("quoted light -");
    }

    @Test
    void aMissingCookieIsA422NamingIt() {
        assertThat(singleError("/cookies")).isEqualTo(Map.of("type", "missing", "loc", List.of("cookie", "session"),
                "msg", "Field required"));
        // cookie names are case-sensitive (RFC 6265): SESSION is not session
        assertThat(singleError("/cookies", "Cookie", "SESSION=abc")).containsEntry("loc", List.of("cookie", "session"));
        // a header named like the cookie is no cookie
        assertThat(singleError("/cookies", "session", "abc")).containsEntry("type", "missing");
    }

    @Test
    void anInvalidCookieIsA422WithTheTypesError() {
        assertThat(singleError("/cookies", "Cookie", "session=abc; visits=many")).isEqualTo(Map.of("type", "int_parsing",
                "loc", List.of("cookie", "visits"), "msg", "Input should be a valid integer", "input", "many"));
    }

    private static JsonNode operation(String path) {
        TestResponse r = client.get("/openapi.json");
        assertThat(r.status()).as("%s", r).isEqualTo(200);
        return r.jsonTree().path("paths").path(path).path("get");
    }

    @Test
    void theOpenApiDocumentListsHeaderAndCookieParameters() {
        JsonNode shapes = operation("/shapes").get("parameters");
        assertThat(shapes).hasSize(2);
        assertThat(shapes.get(0).get("name").asString()).isEqualTo("X-Tenant");
        assertThat(shapes.get(0).get("in").asString()).isEqualTo("header");
        assertThat(shapes.get(0).get("required").asBoolean()).isFalse();
        assertThat(shapes.get(0).at("/schema/type").asString()).isEqualTo("string");
        assertThat(shapes.get(1).get("in").asString()).isEqualTo("header");
        assertThat(shapes.get(1).at("/schema/format").asString()).isEqualTo("int32");
        assertThat(shapes.get(1).at("/schema/default").asInt()).isEqualTo(1);
        JsonNode limit = operation("/limit").get("parameters").get(0);
        assertThat(limit.get("in").asString()).isEqualTo("header");
        assertThat(limit.get("required").asBoolean()).isTrue();
        List<String> cookies = new ArrayList<>();
        for (JsonNode p : operation("/cookies").get("parameters")) {
            cookies.add(p.get("in").asString() + " " + p.get("name").asString() + " " + p.get("required").asBoolean());
        }
        assertThat(cookies).containsExactly("cookie session true", "cookie theme false", "cookie visits false");
        assertThat(operation("/cookies").at("/parameters/1/schema/default").asString()).isEqualTo("light");
        // query first, then header
        JsonNode tool = operation("/tool-items").get("parameters");
        assertThat(tool.get(0).get("in").asString()).isEqualTo("query");
        assertThat(tool.get(1).get("in").asString()).isEqualTo("header");
        assertThat(operation("/cookies").at("/responses/422").isMissingNode()).isFalse();
        ParseOptions options = new ParseOptions();
        options.setResolve(true);
        SwaggerParseResult parsed = new OpenAPIV3Parser().readContents(client.get("/openapi.json").text(), null, options);
        assertThat(parsed.getMessages()).as("swagger-parser's messages").isNullOrEmpty();
        assertThat(parsed.getOpenAPI().getSpecVersion()).isEqualTo(SpecVersion.V31);
        assertThat(parsed.getOpenAPI().getPaths().get("/cookies").getGet().getParameters())
                .extracting(p -> p.getIn()).containsOnly("cookie");
    }

    private static TestResponse mcp(String method, String name, String params, String... headers) {
        TestRequest r = TestRequest.of("POST", "/mcp").header("Accept", "application/json, text/event-stream")
                .header("MCP-Protocol-Version", "2026-07-28").header("Mcp-Method", method)
                .body("application/json", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"" + method + "\",\"params\":{" + params
                        + (params.isEmpty() ? "" : ",") + "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
                        + "\"io.modelcontextprotocol/clientCapabilities\":{}}}}");
        if (name != null) r = r.header("Mcp-Name", name);
        for (int i = 0; i < headers.length; i += 2) r = r.header(headers[i], headers[i + 1]);
        return client.send(r);
    }

    @Test
    void aToolsInputSchemaLeavesHeaderParametersOut() {
        TestResponse list = mcp("tools/list", null, "");
        assertThat(list.status()).as("%s", list).isEqualTo(200);
        JsonNode input = list.jsonTree().at("/result/tools/0/inputSchema");
        assertThat(list.jsonTree().at("/result/tools/0/name").asString()).isEqualTo("items");
        assertThat(input.get("properties").propertyNames()).containsExactly("q");
        assertThat(input.get("required")).hasSize(1);
        assertThat(input.at("/required/0").asString()).isEqualTo("q");
        // the header comes from the MCP request's own fields, which a call forwards
        TestResponse plain = mcp("tools/call", "items", "\"name\":\"items\",\"arguments\":{\"q\":\"a\"}");
        assertThat(plain.jsonTree().at("/result/content/0/text").asString()).as("%s", plain).isEqualTo("q a, limit 10");
        TestResponse withHeader = mcp("tools/call", "items", "\"name\":\"items\",\"arguments\":{\"q\":\"a\"}", "X-Limit", "3");
        assertThat(withHeader.jsonTree().at("/result/content/0/text").asString()).as("%s", withHeader).isEqualTo("q a, limit 3");
        // and is no argument
        TestResponse asArgument = mcp("tools/call", "items", "\"name\":\"items\",\"arguments\":{\"q\":\"a\",\"X-Limit\":3}");
        assertThat(asArgument.jsonTree().at("/result/isError").asBoolean()).as("%s", asArgument).isTrue();
    }

    @Test
    void producesNamesARawAnswersMediaTypeInTheDocument() {
        assertThat(operation("/logo").at("/responses/200/content").propertyNames()).containsExactly("image/png");
        assertThat(operation("/page").at("/responses/200/content").propertyNames()).containsExactly("text/html; charset=utf-8");
        assertThat(operation("/plain").at("/responses/200/content").propertyNames()).containsExactly("text/plain; charset=utf-8");
        TestResponse logo = client.get("/logo");
        assertThat(logo.header("Content-Type")).hasValue("image/png");
    }

    @Test
    void producesTakesOnlyAMediaType() {
        Tidemill app = Tidemill.create(TestClient.config().build());
        Route r = app.get("/x", req -> "x");
        assertThat(r.produces()).isEmpty();
        assertThat(r.produces("application/vnd.api+json; charset=utf-8; q=\"a b\"").produces())
                .hasValue("application/vnd.api+json; charset=utf-8; q=\"a b\"");
        for (String bad : List.of("", "png", "image/", "/png", "image/png;", "image/png; charset", "text /plain", "image/png x")) {
            assertThatThrownBy(() -> r.produces(bad)).as("'%s'", bad).isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void aHeaderDeclaredTwiceInAnyCaseIsRefused() {
        Tidemill app = Tidemill.create(TestClient.config().build());
        Route r = app.get("/x", req -> "x");
        assertThatThrownBy(() -> r.params(Param.header("X-Limit"), Param.header("x-limit", ParamType.INT)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("twice");
        Route other = app.get("/y", req -> "y");
        assertThatThrownBy(() -> other.params(Param.cookie("a"), Param.cookie("a", ParamType.INT)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("twice");
        // cookie names are case-sensitive, and one name may be a query key, a header and a cookie
        app.get("/z", req -> "z").params(Param.cookie("a"), Param.cookie("A"), Param.query("a"), Param.header("a"));
    }

    @Test
    void whatADeclarationRefuses() {
        assertThatThrownBy(() -> Param.path("id").optional()).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> Param.path("id").withDefault("1")).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> Param.header("X-A").optional().optional()).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> Param.cookie("a").withDefault("b").optional()).isInstanceOf(IllegalStateException.class);
        for (String bad : List.of("X Limit", "X-Limit:", "caf\u00e9", "a\"b", "a;b", "(x)")) {
            assertThatThrownBy(() -> Param.header(bad)).as("'%s'", bad).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> Param.cookie(bad)).as("'%s'", bad).isInstanceOf(IllegalArgumentException.class);
        }
        assertThatThrownBy(() -> Param.header("")).isInstanceOf(IllegalArgumentException.class);
    }
}
