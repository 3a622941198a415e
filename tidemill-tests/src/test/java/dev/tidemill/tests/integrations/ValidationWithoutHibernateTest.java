package dev.tidemill.tests.integrations;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.testing.TestClient;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Bean validation is an optional integration: without Hibernate Validator an app whose routes
 * bind no constrained body serves (the report names the artifact), and one that declares a body
 * type carrying constraints fails at start rather than bind it unchecked.
 */
class ValidationWithoutHibernateTest {
    private static final String ARTIFACT = "org.hibernate.validator:hibernate-validator";

    @Test
    void withoutConstrainedBodiesTheAppServesAndTheReportNamesTheArtifact() throws Exception {
        try (ChildApp child = ChildApp.withoutOptionalJars(Map.of()).awaitListening()) {
            assertThat(TestClient.connectTo("127.0.0.1", child.port).get("/hello").status()).isEqualTo(200);
            assertThat(child.output).filteredOn(l -> l.contains("optional integrations off")).singleElement().asString()
                    .contains("bean validation of bodies (add " + ARTIFACT + ")");
        }
    }

    @Test
    void aRouteDeclaringAConstrainedBodyFailsAtStartNamingTheArtifact() throws Exception {
        try (ChildApp child = ChildApp.withoutOptionalJars(Map.of(), "constrained")) {
            assertThat(child.awaitExit()).as("exit status; output %s", child.output).isNotZero();
            assertThat(child.text()).contains("IllegalStateException", ARTIFACT, "POST /people").doesNotContain("listening on ");
        }
    }
}
