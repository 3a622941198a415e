package dev.tidemill.tests.controllers;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.ApiKeys;
import dev.tidemill.Auth;
import dev.tidemill.OpenApi;
import dev.tidemill.Route;
import dev.tidemill.Tidemill;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestRequest;
import dev.tidemill.testing.TestResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The same endpoints written as a controller ({@link CatalogController}, compiled by
 * tidemill-processor) and with the lambda API ({@link CatalogDsl}), served by two apps over real
 * sockets: the OpenAPI documents, the MCP tool lists, and every answer, problems included (status,
 * every header but {@code Date}, body), are equal byte for byte.
 */
@Timeout(60)
class ControllerParityTest {
    static final ApiKeys.Generated KEY = ApiKeys.generate("svc", Set.of("write"));
    static Tidemill controllerApp;
    static Tidemill dslApp;
    static TestClient controllers;
    static TestClient dsl;

    @BeforeAll
    static void start() {
        controllerApp = app();
        // every controller of this module's index: the app fails at start naming one not given
        controllerApp.controllers(allControllers(new CatalogController()).toArray());
        dslApp = app();
        CatalogDsl.register(dslApp);
        otherControllersOf(dslApp);
        controllers = TestClient.start(controllerApp).timeout(Duration.ofSeconds(20));
        dsl = TestClient.start(dslApp).timeout(Duration.ofSeconds(20));
    }

    @AfterAll
    static void stop() {
        if (controllers != null) controllers.close();
        if (dsl != null) dsl.close();
    }

    static Tidemill app() {
        Tidemill app = Tidemill.create(TestClient.config().workerLoops(1).ioThreads(1)
                .auth(Auth.apiKeys(ApiKeys.of(List.of(KEY.entry())))).build());
        app.openApi(OpenApi.builder().title("Catalog").version("1.0.0").build());
        app.mcp();
        return app;
    }

    /** @return the catalog and one of every other controller the tests module's index lists */
    static List<Object> allControllers(CatalogController catalog) {
        List<Object> all = new ArrayList<>();
        all.add(catalog);
        all.addAll(OtherControllers.construct());
        return all;
    }

    /**
     * The DSL app has the module's other controllers' routes too, so both apps differ only in how the
     * catalog is written. It registers them through their generated classes directly, which the
     * index's completeness check does not see (it would name the catalog's controller as not given).
     */
    static void otherControllersOf(Tidemill app) {
        OtherControllers.registerDirectly(app);
    }

    @Test
    void theOpenApiDocumentsAreEqualByteForByte() {
        TestResponse a = controllers.get("/openapi.json");
        TestResponse b = dsl.get("/openapi.json");
        assertThat(a.status()).isEqualTo(200);
        assertThat(a.text()).contains("\"/catalog/products/{id}\"", "\"in\" : \"header\"", "\"in\" : \"cookie\"", "text/csv; charset=utf-8");
        assertThat(new String(a.body(), StandardCharsets.UTF_8)).isEqualTo(new String(b.body(), StandardCharsets.UTF_8));
    }

    @Test
    void theMcpToolListsAreEqualByteForByte() {
        TestResponse a = controllers.send(tools("tools/list", null, "{}"));
        TestResponse b = dsl.send(tools("tools/list", null, "{}"));
        assertThat(a.status()).isEqualTo(200);
        assertThat(a.text()).contains("get_product", "list_products").doesNotContain("add_product"); // scope write: a caller's list
        assertThat(a.text()).isEqualTo(b.text());
        TestRequest withKey = tools("tools/list", null, "{}").header("Authorization", "ApiKey " + KEY.key());
        TestResponse e = controllers.send(withKey);
        assertThat(e.text()).contains("add_product").isEqualTo(dsl.send(withKey).text());
        TestResponse c = controllers.send(tools("tools/call", "get_product", "{\"name\":\"get_product\",\"arguments\":{\"id\":7}}"));
        TestResponse d = dsl.send(tools("tools/call", "get_product", "{\"name\":\"get_product\",\"arguments\":{\"id\":7}}"));
        assertThat(c.text()).contains("lamp").isEqualTo(d.text());
    }

    @Test
    void everyAnswerAndProblemIsEqual() {
        String json = "application/json";
        String key = "ApiKey " + KEY.key();
        List<TestRequest> requests = List.of(
                TestRequest.get("/catalog/products/7"),
                TestRequest.get("/catalog/products/7?verbose=yes"),
                TestRequest.get("/catalog/products/abc"),
                TestRequest.get("/catalog/products?limit=x&sort=cheap&since=2026-02-30"),
                TestRequest.get("/catalog/products?tag=a&tag=b&since=2026-01-01&sort=price").header("X-Tenant", "acme")
                        .header("Cookie", "theme=dark"),
                TestRequest.get("/catalog/products"),
                TestRequest.of("POST", "/catalog/products").header("Authorization", key).body(json, "{\"name\":\"desk\",\"price\":120}"),
                TestRequest.of("POST", "/catalog/products").header("Authorization", key).body(json, "{\"name\":\" \",\"price\":-1}"),
                TestRequest.of("POST", "/catalog/products").header("Authorization", key).body(json, "{\"name\":"),
                TestRequest.of("POST", "/catalog/products").header("Authorization", key).body("text/plain", "desk"),
                TestRequest.of("POST", "/catalog/products").body(json, "{\"name\":\"desk\",\"price\":120}"),
                TestRequest.of("PATCH", "/catalog/products/7").body("application/x-www-form-urlencoded", "name=bulb"),
                TestRequest.of("PATCH", "/catalog/products/7").body("application/x-www-form-urlencoded", "name="),
                TestRequest.of("PATCH", "/catalog/products/7").body(json, "{\"name\":\"bulb\"}"),
                TestRequest.of("DELETE", "/catalog/products/7").header("Authorization", key),
                TestRequest.of("DELETE", "/catalog/products/7"),
                TestRequest.of("PUT", "/catalog/products/7/price?value=3.5"),
                TestRequest.of("PUT", "/catalog/products/7/price?value=-1"),
                TestRequest.of("PUT", "/catalog/products/7/price"),
                TestRequest.get("/catalog/whoami").header("Authorization", key),
                TestRequest.get("/catalog/whoami").header("Authorization", key).header("X-Tenant", "acme"),
                TestRequest.get("/catalog/whoami"),
                TestRequest.get("/catalog/products.csv"),
                TestRequest.get("/catalog/products.csv"),
                TestRequest.get("/catalog/products.csv"),
                TestRequest.get("/catalog/products.csv"));
        List<Integer> statuses = new ArrayList<>();
        for (TestRequest r : requests) {
            TestRequest tagged = r.header("X-Request-Id", "parity-1");
            TestResponse a = controllers.send(tagged);
            TestResponse b = dsl.send(tagged);
            statuses.add(a.status());
            assertThat(a.status()).as(r.toString()).isEqualTo(b.status());
            assertThat(withoutDate(a)).as(r.toString()).isEqualTo(withoutDate(b));
            assertThat(new String(a.body(), StandardCharsets.UTF_8)).as(r.toString()).isEqualTo(new String(b.body(), StandardCharsets.UTF_8));
        }
        // the answers cover success, the 4xx problems and the rate limit, not one status throughout
        assertThat(statuses).containsExactly(200, 200, 422, 422, 200, 200, 201, 422, 400, 415, 401, 200, 422, 415, 204, 401,
                200, 409, 422, 200, 200, 401, 200, 200, 200, 429);
    }

    @Test
    void theRoutesDeclareTheSame() {
        for (Route c : catalog(controllerApp)) {
            Route d = catalog(dslApp).stream().filter(r -> r.toString().equals(c.toString())).findFirst().orElseThrow();
            assertThat(describe(c)).isEqualTo(describe(d));
        }
        assertThat(catalog(controllerApp)).hasSize(catalog(dslApp).size()).hasSize(8);
    }

    static List<Route> catalog(Tidemill app) {
        return app.routes().stream().filter(r -> r.pattern().startsWith("/catalog")).toList();
    }

    static String describe(Route r) {
        List<String> params = r.params().stream().map(p -> p.location() + " " + p.name() + " " + p.type() + " " + p.shape() + " "
                + p.defaultValue().orElse("")).toList();
        return String.join("|", r.method(), r.pattern(), String.valueOf(r.mode()), String.valueOf(r.requirement()), params.toString(),
                String.valueOf(r.body()), String.valueOf(r.bodyMediaType()), String.valueOf(r.returns()), Integer.toString(r.returnStatus()),
                String.valueOf(r.summary()), String.valueOf(r.description()), r.tags().toString(), String.valueOf(r.operationId()),
                String.valueOf(r.produces()), String.valueOf(r.rateLimit().map(l -> l.name() + " " + l.requests() + "/" + l.period())));
    }

    static List<Map.Entry<String, String>> withoutDate(TestResponse r) {
        return r.headerList().stream().filter(h -> !h.getKey().equalsIgnoreCase("date")).toList();
    }

    static TestRequest tools(String method, String name, String params) {
        String body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"" + method + "\",\"params\":" + params.replaceFirst("}$",
                (params.equals("{}") ? "" : ",") + "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
                        + "\"io.modelcontextprotocol/clientCapabilities\":{}}}") + "}";
        TestRequest r = TestRequest.of("POST", "/mcp").header("Accept", "application/json, text/event-stream")
                .header("MCP-Protocol-Version", "2026-07-28").header("Mcp-Method", method).body("application/json", body);
        return name == null ? r : r.header("Mcp-Name", name);
    }
}
