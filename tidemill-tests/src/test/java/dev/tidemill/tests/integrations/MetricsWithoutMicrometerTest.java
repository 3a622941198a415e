package dev.tidemill.tests.integrations;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.testing.TestClient;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Metrics are an optional integration: a hello-world app without Micrometer serves, has no
 * {@code /metrics} and says so once at start; asking for metrics without it fails the start,
 * naming the artifact to add.
 */
class MetricsWithoutMicrometerTest {
    private static final String ARTIFACT = "io.micrometer:micrometer-registry-prometheus";

    @Test
    void byDefaultMetricsAreQuietlyOffAndTheReportNamesTheArtifact() throws Exception {
        ChildApp.assertParentHasThem();
        try (ChildApp child = ChildApp.withoutOptionalJars(Map.of()).awaitListening()) {
            TestClient client = TestClient.connectTo("127.0.0.1", child.port);
            assertThat(client.get("/hello").status()).isEqualTo(200);
            assertThat(client.get("/hello").text()).isEqualTo("hello");
            assertThat(client.get("/metrics").status()).as("no /metrics without Micrometer").isEqualTo(404);
            assertThat(client.get("/livez").status()).as("health needs no optional jar").isEqualTo(200);
            assertThat(child.output).filteredOn(l -> l.contains("optional integrations off")).singleElement()
                    .asString().contains("metrics", ARTIFACT);
        }
    }

    @Test
    void tidemillMetricsTrueWithoutMicrometerFailsAtStartNamingTheArtifact() throws Exception {
        try (ChildApp child = ChildApp.withoutOptionalJars(Map.of("TIDEMILL_METRICS", "true"))) {
            assertThat(child.awaitExit()).as("exit status; output %s", child.output).isNotZero();
            assertThat(child.text()).contains("IllegalStateException", ARTIFACT, "TIDEMILL_METRICS").doesNotContain("listening on ");
        }
    }

    @Test
    void tidemillMetricsFalseStartsWithoutMicrometer() throws Exception {
        try (ChildApp child = ChildApp.withoutOptionalJars(Map.of("TIDEMILL_METRICS", "false")).awaitListening()) {
            assertThat(TestClient.connectTo("127.0.0.1", child.port).get("/metrics").status()).isEqualTo(404);
        }
    }
}
