package dev.tidemill.tests.openapi;

import static org.assertj.core.api.Assertions.assertThat;

import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.tidemill.OpenApi;
import dev.tidemill.testing.TestClient;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The document's schemas checked with networknt's JSON Schema validator: every component is a
 * valid JSON Schema 2020-12 schema (OpenAPI 3.1's dialect) by the meta-schema the validator ships,
 * and the {@code Order} schema agrees with the server: a body the server accepts passes it, and
 * each body Bean Validation refuses with 422 is refused by the schema too.
 */
@Timeout(60)
class OpenApiSchemasAgreeWithValidationTest {
    static final JsonMapper JSON = JsonMapper.builder().build();
    static final SchemaRegistry REGISTRY = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);
    static final String VALID = """
            {"name":"Tea","email":"ada@example.com","quantity":3,"cents":450,"weight":1.5,"discount":0,
             "note":null,"color":"GREEN","tags":["a","b"],
             "shipping":{"street":"1 Mill Lane","country":"GB","zip":"12345"},
             "stops":[{"street":"Dock 4","country":"NL","zip":null}],
             "palette":["RED"],"counts":{"x":1},"due":"2026-12-24","placed":"2026-12-01T10:00:00Z",
             "reference":"7f3c5a4e-8d1b-4c2a-9e6f-0a1b2c3d4e5f","gift":true}""";
    static TestClient client;
    static JsonNode doc;

    @BeforeAll
    static void start() {
        client = TestClient.start(OpenApiShapesApp.create(TestClient.config().workerLoops(1).ioThreads(1).build(),
                OpenApi.builder().ui(false).build())).timeout(Duration.ofSeconds(20));
        doc = client.get("/openapi.json").jsonTree();
    }

    @AfterAll
    static void stop() {
        if (client != null) client.close();
    }

    @Test
    void everyComponentIsAValidJsonSchema202012() {
        Schema meta = REGISTRY.getSchema(SchemaLocation.of(SpecificationVersion.DRAFT_2020_12.getDialectId()));
        assertThat(doc.at("/components/schemas").propertyNames()).contains("Order", "Address", "Color", "Category",
                "Placed", "Login", "SearchResult", "Problem", "ValidationProblem", "FieldError");
        for (Map.Entry<String, JsonNode> e : doc.at("/components/schemas").properties()) {
            assertThat(meta.validate(e.getValue())).as("%s against the 2020-12 meta-schema", e.getKey()).isEmpty();
        }
        ObjectNode notASchema = JSON.createObjectNode().put("type", "strin").put("minLength", -1);
        assertThat(meta.validate(notASchema)).as("the meta-schema check can fail").isNotEmpty();
    }

    @Test
    void aBodyTheServerAcceptsPassesTheSchema() {
        assertThat(client.post("/orders", "application/json", VALID).status()).isEqualTo(201);
        assertThat(orderSchema().validate(JSON.readTree(VALID))).isEmpty();
    }

    static List<String[]> refused() {
        return List.of(
                new String[] {"name", "\" \""},
                new String[] {"name", "\"" + "x".repeat(81) + "\""},
                new String[] {"quantity", "0"},
                new String[] {"quantity", "101"},
                new String[] {"cents", "0"},
                new String[] {"weight", "0.5"},
                new String[] {"discount", "-1"},
                new String[] {"tags", "[\"ok\", \"  \"]"},
                new String[] {"tags", "[\"1\",\"2\",\"3\",\"4\",\"5\",\"6\"]"},
                new String[] {"stops", "[]"},
                new String[] {"shipping", "{\"street\":\"x\",\"country\":\"GBR\"}"},
                new String[] {"shipping", "{\"street\":\"x\",\"country\":\"GB\",\"zip\":\"1234\"}"},
                new String[] {"shipping", "{\"street\":\"\",\"country\":\"GB\"}"},
                new String[] {"shipping", "null"},
                new String[] {"color", "null"});
    }

    @ParameterizedTest(name = "{0} = {1}")
    @MethodSource("refused")
    void aBodyBeanValidationRefusesIsRefusedByTheSchemaToo(String field, String value) {
        ObjectNode body = (ObjectNode) JSON.readTree(VALID);
        body.set(field, JSON.readTree(value));
        String text = JSON.writeValueAsString(body);
        assertThat(client.post("/orders", "application/json", text).status()).as("the server's answer to %s", text).isEqualTo(422);
        List<Error> errors = orderSchema().validate(body);
        assertThat(errors).as("the schema's verdict on %s", text).isNotEmpty();
    }

    @Test
    void aMissingRequiredFieldIsRefusedByBoth() {
        ObjectNode body = (ObjectNode) JSON.readTree(VALID);
        body.remove("name");
        assertThat(client.post("/orders", "application/json", JSON.writeValueAsString(body)).status()).isEqualTo(422);
        assertThat(orderSchema().validate(body)).extracting(Error::getMessage).anyMatch(m -> m.contains("name"));
    }

    /** The document itself as the schema resource, so that its {@code #/components/schemas/...} references resolve. */
    private static Schema orderSchema() {
        ObjectNode root = (ObjectNode) doc.deepCopy();
        root.put("$schema", SpecificationVersion.DRAFT_2020_12.getDialectId());
        root.put("$ref", "#/components/schemas/Order");
        return REGISTRY.getSchema(SchemaLocation.of("urn:tidemill:openapi"), root);
    }
}
