package dev.tidemill.tests.auth;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.ApiKeys;
import dev.tidemill.Auth;
import dev.tidemill.BearerTokens;
import dev.tidemill.ExecutionMode;
import dev.tidemill.OpenApi;
import dev.tidemill.Requirement;
import dev.tidemill.testing.TestClient;
import dev.tidemill.tests.support.Setup;
import io.swagger.v3.parser.OpenAPIV3Parser;
import io.swagger.v3.parser.core.models.ParseOptions;
import io.swagger.v3.parser.core.models.SwaggerParseResult;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The OpenAPI document describes who may call what from the same declarations the gate checks:
 * {@code securitySchemes} for each credential the app takes, {@code security} on each guarded
 * operation (any one scheme, with the scopes its requirement names), 401 and 403 among its
 * responses; anonymous operations carry none. The document stays valid OpenAPI 3.1.
 */
class OpenApiSecurityTest {
    @Test
    void guardedOperationsNameTheirSchemesAndScopes() {
        try (KeyServer idp = new KeyServer(); TestClient c = Setup.onDefaultTransport(ExecutionMode.LOOP).start(b -> b.auth(
                Auth.bearer(BearerTokens.builder().issuer(KeyServer.ISSUER).jwks(idp.jwksJson()).build())
                        .withApiKeys(ApiKeys.of(List.of(ApiKeys.generate("svc", Set.of()).entry())).header("X-API-Key"))), app -> {
            app.openApi(OpenApi.builder().title("secured").version("1").build());
            app.get("/me", req -> "me").requires(Requirement.authenticated());
            app.get("/admin", req -> "admin").requires(Requirement.scope("admin"));
            app.group("/ops").requires(Requirement.anyOf(Requirement.scope("ops"), Requirement.scope("admin"))).get("/x", req -> "x");
            app.get("/open", req -> "open");
        })) {
            String text = c.get("/openapi.json").text();
            JsonNode doc = tools.jackson.databind.json.JsonMapper.builder().build().readTree(text);
            JsonNode schemes = doc.get("components").get("securitySchemes");
            assertThat(schemes.get("bearer").get("scheme").asString()).isEqualTo("bearer");
            assertThat(schemes.get("bearer").get("bearerFormat").asString()).isEqualTo("JWT");
            assertThat(schemes.get("apiKeyHeader").get("name").asString()).isEqualTo("X-API-Key");
            assertThat(schemes.get("apiKey").get("in").asString()).isEqualTo("header");
            JsonNode paths = doc.get("paths");
            assertThat(paths.get("/me").get("get").get("security").toString())
                    .isEqualTo("[{\"bearer\":[]},{\"apiKey\":[]},{\"apiKeyHeader\":[]}]");
            assertThat(paths.get("/admin").get("get").get("security").get(0).toString()).isEqualTo("{\"bearer\":[\"admin\"]}");
            assertThat(paths.get("/ops/x").get("get").get("security").get(0).toString()).isEqualTo("{\"bearer\":[\"ops\",\"admin\"]}");
            assertThat(paths.get("/me").get("get").get("responses").has("401")).isTrue();
            assertThat(paths.get("/admin").get("get").get("responses").has("403")).isTrue();
            assertThat(paths.get("/open").get("get").has("security")).as("anonymous").isFalse();
            assertThat(paths.get("/open").get("get").get("responses").has("401")).isFalse();
            ParseOptions options = new ParseOptions();
            options.setResolve(true);
            SwaggerParseResult parsed = new OpenAPIV3Parser().readContents(text, null, options);
            assertThat(parsed.getMessages()).as("a valid OpenAPI 3.1 document").isNullOrEmpty();
            assertThat(parsed.getOpenAPI().getSpecVersion()).isEqualTo(io.swagger.v3.oas.models.SpecVersion.V31);
            assertThat(parsed.getOpenAPI().getComponents().getSecuritySchemes()).containsKeys("bearer", "apiKey", "apiKeyHeader");
        }
    }
}
