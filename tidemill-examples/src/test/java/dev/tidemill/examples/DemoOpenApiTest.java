package dev.tidemill.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.Config;
import dev.tidemill.Tidemill;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestResponse;
import dev.tidemill.testing.TidemillApp;
import dev.tidemill.testing.TidemillTest;
import io.swagger.v3.oas.models.SpecVersion;
import io.swagger.v3.parser.OpenAPIV3Parser;
import io.swagger.v3.parser.core.models.ParseOptions;
import io.swagger.v3.parser.core.models.SwaggerParseResult;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;

/**
 * The demo's OpenAPI document, as {@code /openapi.json} serves it: swagger-parser's 3.1
 * validation reports nothing, and it describes the demo's routes as they are declared.
 */
@TidemillTest
@Timeout(60)
class DemoOpenApiTest {
    /** The demo, started once for the class on a free port by {@link TidemillTest}. */
    @TidemillApp
    static Tidemill demo(Config.Builder config) {
        return Demo.create(config.build());
    }

    @Test
    void theDemosDocumentIsValidOpenApi31(TestClient client) {
        TestResponse r = client.get("/openapi.json");
        assertThat(r.status()).isEqualTo(200);
        ParseOptions options = new ParseOptions();
        options.setResolve(true);
        SwaggerParseResult result = new OpenAPIV3Parser().readContents(r.text(), null, options);
        assertThat(result.getMessages()).isEmpty();
        assertThat(result.getOpenAPI()).isNotNull();
        assertThat(result.getOpenAPI().getSpecVersion()).isEqualTo(SpecVersion.V31);
        assertThat(result.getOpenAPI().getInfo().getTitle()).isEqualTo("Tidemill demo");
    }

    @Test
    void itDescribesTheDemosRoutesAsDeclared(TestClient client) {
        JsonNode doc = client.get("/openapi.json").jsonTree();
        List<String> paths = new ArrayList<>(doc.get("paths").propertyNames());
        assertThat(paths).contains("/hello", "/json", "/items/{id}", "/search", "/users", "/rooms/{room}/messages",
                "/ws/echo", "/assets/{path}", "/board").doesNotContain("/openapi.json", "/docs");
        assertThat(doc.at("/paths/~1items~1{id}/get/parameters/0/schema/format").asString()).isEqualTo("int32");
        assertThat(doc.at("/paths/~1search/get/parameters/2")).isEqualTo(client.get("/openapi.json").jsonTree()
                .at("/paths/~1search/get/parameters/2"));
        assertThat(doc.at("/paths/~1search/get/parameters/2/schema/format").asString()).isEqualTo("date");
        assertThat(doc.at("/paths/~1files~1{name}/put/requestBody/content").propertyNames())
                .as("a streamed body takes any bytes").containsExactly("application/octet-stream");
        assertThat(doc.at("/paths/~1users/post/requestBody/content/application~1json/schema/$ref").asString())
                .isEqualTo("#/components/schemas/NewUser");
        assertThat(doc.at("/components/schemas/NewUser/properties/age")).hasToString(
                "{\"type\":\"integer\",\"format\":\"int32\",\"minimum\":0,\"maximum\":150}");
        assertThat(doc.at("/paths/~1users/post/responses/201/content/application~1json/schema/$ref").asString())
                .isEqualTo("#/components/schemas/User");
        assertThat(doc.at("/paths/~1users/post/responses/422/$ref").asString()).isEqualTo("#/components/responses/ValidationFailed");
        assertThat(doc.at("/paths/~1hello/get/responses").has("422")).isFalse();
    }
}
