package dev.tidemill.tests.openapi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidemill.OpenApi;
import dev.tidemill.Tidemill;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestResponse;
import io.swagger.v3.oas.models.SpecVersion;
import io.swagger.v3.parser.OpenAPIV3Parser;
import io.swagger.v3.parser.core.models.ParseOptions;
import io.swagger.v3.parser.core.models.SwaggerParseResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The OpenAPI 3.1 document of {@link OpenApiShapesApp}, fetched over a socket from
 * {@code /openapi.json}: accepted by swagger-parser's 3.1 validation without a message, and exact
 * where it matters (formats, constraints, required, nullability, {@code $ref} hoisting, which
 * problem responses each operation lists, operationIds); Swagger UI's page and files answer at
 * {@code /docs}.
 */
@Timeout(60)
class OpenApiDocumentTest {
    static final JsonMapper JSON = JsonMapper.builder().build();
    static TestClient client;
    static String text;
    static JsonNode doc;

    @BeforeAll
    static void start() {
        Tidemill app = OpenApiShapesApp.create(TestClient.config().workerLoops(1).ioThreads(1).build(),
                OpenApi.builder().title("Shapes").version("3.2.1").description("Every shape.").build());
        client = TestClient.start(app).timeout(Duration.ofSeconds(20));
        TestResponse r = client.get("/openapi.json");
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.header("Content-Type")).hasValue("application/json");
        text = r.text();
        doc = r.jsonTree();
    }

    @AfterAll
    static void stop() {
        if (client != null) client.close();
    }

    /** swagger-parser's messages for a document: empty when it is a valid OpenAPI 3.1 document. */
    static List<String> validate(String json) {
        ParseOptions options = new ParseOptions();
        options.setResolve(true);
        SwaggerParseResult result = new OpenAPIV3Parser().readContents(json, null, options);
        List<String> messages = new ArrayList<>(result.getMessages() == null ? List.of() : result.getMessages());
        if (result.getOpenAPI() == null) messages.add("no document parsed");
        else if (result.getOpenAPI().getSpecVersion() != SpecVersion.V31) messages.add("not read as 3.1");
        return messages;
    }

    @Test
    void swaggerParserValidatesTheDocumentWithoutAMessage() {
        assertThat(validate(text)).isEmpty();
        assertThat(doc.get("openapi").asString()).isEqualTo("3.1.0");
        assertThat(doc.at("/info/title").asString()).isEqualTo("Shapes");
        assertThat(doc.at("/info/version").asString()).isEqualTo("3.2.1");
        assertThat(doc.at("/info/description").asString()).isEqualTo("Every shape.");
    }

    @Test
    void theValidatorRefusesABrokenDocument() {
        ObjectNode broken = (ObjectNode) doc.deepCopy();
        broken.remove("info");
        ((ObjectNode) broken.at("/paths/~1ping/get/responses/200")).remove("description");
        ((ObjectNode) broken.at("/paths/~1orders/post")).put("operationId", 7).putArray("parameters").addObject().put("in", "nowhere");
        assertThat(validate(JSON.writeValueAsString(broken))).as("the validator is not a no-op").isNotEmpty();
    }

    @Test
    void pathAndQueryParametersCarryTypesFormatsDefaultsEnumsAndLists() {
        JsonNode search = doc.at("/paths/~1search/get/parameters");
        assertThat(param(search, "q")).isEqualTo(json("""
                {"name":"q","in":"query","required":true,"schema":{"type":"string"}}"""));
        assertThat(param(search, "limit")).isEqualTo(json("""
                {"name":"limit","in":"query","required":false,"schema":{"type":"integer","format":"int32","default":20}}"""));
        assertThat(param(search, "after").get("schema")).isEqualTo(json("{\"type\":\"integer\",\"format\":\"int64\"}"));
        assertThat(param(search, "score").get("schema")).isEqualTo(json("{\"type\":\"number\",\"format\":\"double\",\"default\":0.5}"));
        assertThat(param(search, "exact").get("schema")).isEqualTo(json("{\"type\":\"boolean\",\"default\":false}"));
        assertThat(param(search, "since").get("schema")).isEqualTo(json("{\"type\":\"string\",\"format\":\"date\"}"));
        assertThat(param(search, "from").get("schema")).isEqualTo(json("{\"type\":\"string\",\"format\":\"date-time\"}"));
        assertThat(param(search, "until").get("schema")).isEqualTo(json("{\"type\":\"string\",\"format\":\"date-time\"}"));
        assertThat(param(search, "owner").get("schema")).isEqualTo(json("{\"type\":\"string\",\"format\":\"uuid\"}"));
        assertThat(param(search, "color").get("schema")).isEqualTo(json("""
                {"type":"string","enum":["RED","GREEN","BLUE"],"default":"RED"}"""));
        assertThat(param(search, "tag").get("schema")).isEqualTo(json("{\"type\":\"array\",\"items\":{\"type\":\"string\"}}"));
        assertThat(param(search, "page").get("schema")).isEqualTo(json(
                "{\"type\":\"array\",\"items\":{\"type\":\"integer\",\"format\":\"int32\"}}"));
        assertThat(param(search, "page").get("required").asBoolean()).isFalse();

        JsonNode slots = doc.at("/paths/~1days~1{day}~1slots~1{n}/get/parameters");
        assertThat(slots.get(0)).isEqualTo(json("""
                {"name":"day","in":"path","required":true,"schema":{"type":"string","format":"date"}}"""));
        assertThat(slots.get(1).get("schema")).isEqualTo(json("{\"type\":\"integer\",\"format\":\"int32\"}"));
        assertThat(doc.at("/paths/~1counters~1{big}/get/parameters/0/schema/format").asString()).isEqualTo("int64");
        assertThat(doc.at("/paths/~1things~1{id}/get/parameters/0/schema/format").asString()).isEqualTo("uuid");
        assertThat(doc.at("/paths/~1files~1{path}/get/parameters/0")).as("an undeclared catch-all is text")
                .isEqualTo(json("""
                {"name":"path","in":"path","required":true,"description":"the rest of the path; it may contain '/'","schema":{"type":"string"}}"""));
    }

    @Test
    void beanValidationConstraintsBecomeJsonSchemaKeywords() {
        JsonNode order = doc.at("/components/schemas/Order");
        assertThat(order.get("type").asString()).isEqualTo("object");
        assertThat(names(order.get("required"))).containsExactly("name", "color", "shipping", "stops");
        JsonNode p = order.get("properties");
        assertThat(p.get("name")).isEqualTo(json("{\"type\":\"string\",\"minLength\":1,\"maxLength\":80,\"pattern\":\"\\\\S\"}"));
        assertThat(p.get("email")).isEqualTo(json("{\"type\":[\"string\",\"null\"],\"format\":\"email\"}"));
        assertThat(p.get("quantity")).as("a primitive is never null")
                .isEqualTo(json("{\"type\":\"integer\",\"format\":\"int32\",\"minimum\":1,\"maximum\":100}"));
        assertThat(p.get("cents")).isEqualTo(json("{\"type\":\"integer\",\"format\":\"int64\",\"exclusiveMinimum\":0}"));
        assertThat(p.get("weight")).isEqualTo(json("{\"type\":\"number\",\"format\":\"double\",\"exclusiveMinimum\":0.5}"));
        assertThat(p.get("discount")).isEqualTo(json("{\"type\":[\"integer\",\"null\"],\"format\":\"int32\",\"minimum\":0}"));
        assertThat(p.get("note")).as("Optional: not required, nullable").isEqualTo(json("{\"type\":[\"string\",\"null\"]}"));
        assertThat(p.get("color")).isEqualTo(json("{\"$ref\":\"#/components/schemas/Color\"}"));
        assertThat(p.get("tags")).as("constraints on the list and on its elements").isEqualTo(json("""
                {"type":["array","null"],"items":{"type":"string","minLength":1,"pattern":"\\\\S"},"maxItems":5}"""));
        assertThat(p.get("shipping")).isEqualTo(json("{\"$ref\":\"#/components/schemas/Address\"}"));
        assertThat(p.get("stops")).isEqualTo(json("""
                {"type":"array","items":{"$ref":"#/components/schemas/Address"},"minItems":1}"""));
        assertThat(p.get("palette")).isEqualTo(json("""
                {"type":["array","null"],"items":{"$ref":"#/components/schemas/Color"},"uniqueItems":true}"""));
        assertThat(p.get("counts")).isEqualTo(json("""
                {"type":["object","null"],"additionalProperties":{"type":"integer","format":"int32"}}"""));
        assertThat(p.get("due")).isEqualTo(json("{\"type\":[\"string\",\"null\"],\"format\":\"date\"}"));
        assertThat(p.get("placed")).isEqualTo(json("{\"type\":[\"string\",\"null\"],\"format\":\"date-time\"}"));
        assertThat(p.get("reference")).isEqualTo(json("{\"type\":[\"string\",\"null\"],\"format\":\"uuid\"}"));
        assertThat(p.get("gift")).isEqualTo(json("{\"type\":\"boolean\"}"));

        assertThat(doc.at("/components/schemas/Address")).isEqualTo(json("""
                {"type":"object","properties":{
                  "street":{"type":"string","minLength":1,"pattern":"\\\\S"},
                  "country":{"type":"string","minLength":2,"maxLength":2},
                  "zip":{"type":["string","null"],"pattern":"^(?:[0-9]{5})$"}},
                 "required":["street","country"]}"""));
        assertThat(doc.at("/components/schemas/Color")).isEqualTo(json("{\"type\":\"string\",\"enum\":[\"RED\",\"GREEN\",\"BLUE\"]}"));
        assertThat(doc.at("/components/schemas/Category/properties/children")).as("a record that contains itself")
                .isEqualTo(json("{\"type\":[\"array\",\"null\"],\"items\":{\"$ref\":\"#/components/schemas/Category\"}}"));
        assertThat(doc.at("/components/schemas/Placed/properties/order")).as("a nullable $ref")
                .isEqualTo(json("{\"anyOf\":[{\"$ref\":\"#/components/schemas/Order\"},{\"type\":\"null\"}]}"));
    }

    @Test
    void bodiesAndResponsesReferToTheHoistedSchemas() {
        JsonNode orders = doc.at("/paths/~1orders/post");
        assertThat(orders.get("requestBody")).isEqualTo(json("""
                {"required":true,"content":{"application/json":{"schema":{"$ref":"#/components/schemas/Order"}}}}"""));
        assertThat(orders.at("/responses/201")).isEqualTo(json("""
                {"description":"Created","content":{"application/json":{"schema":{"$ref":"#/components/schemas/Placed"}}}}"""));
        assertThat(fields(orders.get("responses"))).containsExactly("201", "400", "413", "415", "422", "500", "503", "504");
        assertThat(orders.at("/responses/422/$ref").asString()).isEqualTo("#/components/responses/ValidationFailed");
        assertThat(orders.get("summary").asString()).isEqualTo("Place an order");
        assertThat(names(orders.get("tags"))).containsExactly("orders");

        assertThat(doc.at("/paths/~1login/post/requestBody/content")).isEqualTo(json("""
                {"application/x-www-form-urlencoded":{"schema":{"$ref":"#/components/schemas/Login"}}}"""));
        assertThat(doc.at("/paths/~1login/post/responses/200/content")).isEqualTo(json("""
                {"text/plain; charset=utf-8":{"schema":{"type":"string"}}}"""));
        assertThat(doc.at("/paths/~1things~1{id}/delete/responses/204")).isEqualTo(json("{\"description\":\"No Content\"}"));
        assertThat(doc.at("/paths/~1counters~1{big}/get/responses/200")).as("no declared type: no content described")
                .isEqualTo(json("{\"description\":\"OK\"}"));

        JsonNode problem = doc.at("/components/responses/ValidationFailed/content/application~1problem+json/schema");
        assertThat(problem.get("$ref").asString()).isEqualTo("#/components/schemas/ValidationProblem");
        JsonNode vp = doc.at("/components/schemas/ValidationProblem");
        assertThat(names(vp.get("required"))).containsExactly("type", "title", "status", "errors");
        assertThat(vp.at("/properties/status/const").asInt()).isEqualTo(422);
        assertThat(names(doc.at("/components/schemas/FieldError/required"))).containsExactly("type", "loc", "msg");
        assertThat(doc.at("/components/responses/ServiceUnavailable/headers/Retry-After/schema/type").asString()).isEqualTo("integer");
    }

    @Test
    void aRouteWithoutInputsListsNoParametersAndNo422() {
        JsonNode ping = doc.at("/paths/~1ping/get");
        assertThat(ping.has("parameters")).isFalse();
        assertThat(ping.has("requestBody")).isFalse();
        assertThat(fields(ping.get("responses"))).containsExactly("200", "500", "503", "504");
        assertThat(ping.get("operationId").asString()).isEqualTo("getPing");
        assertThat(ping.get("summary").asString()).isEqualTo("Liveness of the app itself");
        assertThat(doc.at("/paths/~1search/get/responses").has("422")).isTrue();
    }

    @Test
    void operationIdsAreDerivedOrDeclaredAndOperationalRoutesAreLeftOut() {
        assertThat(doc.at("/paths/~1things~1{id}/get/operationId").asString()).isEqualTo("getThingsById");
        assertThat(doc.at("/paths/~1days~1{day}~1slots~1{n}/get/operationId").asString()).isEqualTo("getDaysByDaySlotsByN");
        assertThat(doc.at("/paths/~1categories~1{id}/put/operationId").asString()).isEqualTo("replaceCategory");
        assertThat(doc.at("/paths/~1files~1{path}/get/operationId").asString()).isEqualTo("getFilesByPath");
        assertThat(fields(doc.get("paths"))).doesNotContain("/healthz", "/openapi.json", "/docs", "/docs/assets/{path}")
                .contains("/ws/echo", "/static/{path}");
        assertThat(doc.at("/paths/~1ws~1echo/get/responses").has("101")).isTrue();
        assertThat(doc.at("/paths/~1ws~1echo/get/summary").asString()).isEqualTo("WebSocket handshake");
        assertThat(fields(doc.at("/paths/~1static~1{path}/get/responses"))).contains("200", "304", "307", "404");
    }

    @Test
    void aDuplicateOperationIdIsRefusedAtStart() {
        Tidemill app = Tidemill.create(TestClient.config().build());
        app.get("/a", req -> "a").operationId("same");
        app.get("/b", req -> "b").operationId("same");
        app.openApi(OpenApi.builder().ui(false).build());
        assertThatThrownBy(app::start).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("operationId 'same' names both GET /a and GET /b");
    }

    @Test
    void swaggerUiAnswersAtDocsFromTheWebjar() {
        TestResponse page = client.get("/docs");
        assertThat(page.status()).isEqualTo(200);
        assertThat(page.header("Content-Type").orElseThrow()).startsWith("text/html");
        assertThat(page.text()).contains("SwaggerUIBundle({url: \"/openapi.json\"").contains("<title>Shapes - Swagger UI</title>");
        Matcher m = Pattern.compile("src=\"(/docs/assets/swagger-ui-bundle\\.[0-9a-f]{10}\\.js)\"").matcher(page.text());
        assertThat(m.find()).as("the bundle under its hashed name in %s", page.text()).isTrue();
        TestResponse bundle = client.get(m.group(1));
        assertThat(bundle.status()).isEqualTo(200);
        assertThat(bundle.header("Content-Type").orElseThrow()).contains("javascript");
        assertThat(bundle.text()).contains("SwaggerUIBundle");
        Matcher css = Pattern.compile("href=\"(/docs/assets/swagger-ui\\.[0-9a-f]{10}\\.css)\"").matcher(page.text());
        assertThat(css.find()).isTrue();
        assertThat(client.get(css.group(1)).status()).isEqualTo(200);
    }

    @Test
    void theDocumentAndTheUiCanMoveOrTheUiBeTurnedOff() {
        Tidemill moved = OpenApiShapesApp.create(TestClient.config().build(),
                OpenApi.builder().path("/api/spec.json").uiPath("/api/ui").build());
        try (TestClient c = TestClient.start(moved)) {
            assertThat(c.get("/api/spec.json").status()).isEqualTo(200);
            assertThat(c.get("/api/ui").text()).contains("url: \"/api/spec.json\"");
            assertThat(c.get("/openapi.json").status()).isEqualTo(404);
            assertThat(c.get("/docs").status()).isEqualTo(404);
        }
        Tidemill noUi = OpenApiShapesApp.create(TestClient.config().build(), OpenApi.builder().ui(false).build());
        try (TestClient c = TestClient.start(noUi)) {
            assertThat(c.get("/openapi.json").status()).isEqualTo(200);
            assertThat(c.get("/docs").status()).isEqualTo(404);
        }
    }

    @Test
    void aDeclaredBodyTellsTheBinderWhichMediaTypeTheRouteTakes() {
        TestResponse form = client.post("/login", "application/x-www-form-urlencoded", "user=ada&password=correct-horse&remember=true");
        assertThat(form.status()).isEqualTo(200);
        assertThat(form.text()).isEqualTo("welcome ada");
        TestResponse json = client.post("/login", "application/json", "{\"user\":\"ada\",\"password\":\"correct-horse\"}");
        assertThat(json.status()).isEqualTo(415);
        assertThat(json.text()).contains("expected application/x-www-form-urlencoded");
        TestResponse formToJson = client.post("/orders", "application/x-www-form-urlencoded", "name=x");
        assertThat(formToJson.status()).isEqualTo(415);
        assertThat(formToJson.text()).contains("expected application/json");
        TestResponse invalid = client.post("/orders", "application/json", "{\"name\":\" \",\"quantity\":0}");
        assertThat(invalid.status()).isEqualTo(422);
        JsonNode problem = invalid.jsonTree();
        assertThat(problem.get("title").asString()).isEqualTo("Validation failed");
        assertThat(problem.get("errors").get(0).has("loc")).isTrue();
    }

    private static JsonNode param(JsonNode params, String name) {
        for (JsonNode p : params) if (p.get("name").asString().equals(name)) return p;
        throw new AssertionError("no parameter " + name + " in " + params);
    }

    private static List<String> names(JsonNode array) {
        List<String> out = new ArrayList<>();
        for (JsonNode n : array) out.add(n.asString());
        return out;
    }

    private static List<String> fields(JsonNode object) {
        return new ArrayList<>(object.propertyNames());
    }

    private static JsonNode json(String text) {
        return JSON.readTree(text);
    }
}
