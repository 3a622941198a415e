package dev.tidemill.tests.integrations;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.testing.TestClient;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Bearer tokens are an optional integration: a hello-world app without nimbus-jose-jwt serves; one
 * that asks for bearer tokens without it fails at start, naming the artifact to add.
 */
class BearerTokensWithoutNimbusTest {
    private static final String ARTIFACT = "com.nimbusds:nimbus-jose-jwt";

    @Test
    void withoutBearerSettingsTheAppServesWithoutTheJar() throws Exception {
        ChildApp.assertParentHasThem();
        try (ChildApp child = ChildApp.withoutOptionalJars(Map.of()).awaitListening()) {
            assertThat(TestClient.connectTo("127.0.0.1", child.port).get("/hello").text()).isEqualTo("hello");
            assertThat(child.output).filteredOn(l -> l.contains("optional integrations off")).singleElement()
                    .asString().contains("bearer tokens", ARTIFACT);
        }
    }

    @Test
    void bearerSettingsWithoutTheJarFailTheStartNamingIt() throws Exception {
        try (ChildApp child = ChildApp.withoutOptionalJars(Map.of("TIDEMILL_AUTH_JWKS_URI", "http://127.0.0.1:9/jwks"))) {
            assertThat(child.awaitExit()).as("exit status; output %s", child.output).isNotZero();
            assertThat(child.text()).contains("IllegalStateException", ARTIFACT, "TIDEMILL_AUTH").doesNotContain("listening on ");
        }
    }
}
