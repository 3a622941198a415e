package dev.tidemill.tests.integrations;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestRequest;
import dev.tidemill.testing.TestResponse;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * br and zstd are optional integrations: without brotli4j and zstd-jni a client asking for br
 * gets gzip (from the JDK) or identity, the startup report names both artifacts, and asking for
 * br (or zstd) explicitly fails the start naming the artifact.
 */
class CompressionWithoutCodecsTest {
    private static TestResponse page(TestClient client, String acceptEncoding) {
        return client.send(TestRequest.get("/page").header("Accept-Encoding", acceptEncoding));
    }

    @Test
    void aBrAcceptingClientGetsGzipOrIdentityAndTheReportSaysWhy() throws Exception {
        try (ChildApp child = ChildApp.withoutOptionalJars(Map.of()).awaitListening()) {
            TestClient client = TestClient.connectTo("127.0.0.1", child.port);
            assertThat(page(client, "br, zstd, gzip").header("Content-Encoding")).contains("gzip");
            assertThat(page(client, "br;q=1, gzip;q=0.5").header("Content-Encoding")).contains("gzip");
            TestResponse brOnly = page(client, "br");
            assertThat(brOnly.status()).isEqualTo(200);
            assertThat(brOnly.header("Content-Encoding")).as("identity, br being unavailable").isEqualTo(Optional.empty());
            assertThat(brOnly.text()).startsWith("<p>tide and mill");
            assertThat(page(client, "zstd").header("Content-Encoding")).isEqualTo(Optional.empty());
            TestResponse zstdBody = client.send(TestRequest.of("POST", "/echo").header("Content-Encoding", "zstd")
                    .body("text/plain", new byte[] {40, (byte) 0xb5, 47, (byte) 0xfd}));
            assertThat(zstdBody.status()).as("a zstd request body cannot be decoded: 415").isEqualTo(415);
            assertThat(zstdBody.header("Accept-Encoding")).contains("gzip, deflate, br");
            assertThat(child.output).filteredOn(l -> l.contains("optional integrations off")).singleElement().asString()
                    .contains("br compression (add com.aayushatharva.brotli4j:brotli4j)",
                            "zstd compression and zstd request bodies (add com.github.luben:zstd-jni)");
        }
    }

    @Test
    void requiringBrWithoutBrotli4jFailsAtStartNamingTheArtifact() throws Exception {
        try (ChildApp child = ChildApp.withoutOptionalJars(Map.of("TIDEMILL_COMPRESSION_REQUIRE", "br"))) {
            assertThat(child.awaitExit()).as("exit status; output %s", child.output).isNotZero();
            assertThat(child.text()).contains("IllegalStateException", "com.aayushatharva.brotli4j:brotli4j")
                    .doesNotContain("listening on ");
        }
    }

    @Test
    void requiringZstdWithoutZstdJniFailsAtStartNamingTheArtifact() throws Exception {
        try (ChildApp child = ChildApp.withoutOptionalJars(Map.of("TIDEMILL_COMPRESSION_REQUIRE", "zstd"))) {
            assertThat(child.awaitExit()).as("exit status; output %s", child.output).isNotZero();
            assertThat(child.text()).contains("IllegalStateException", "com.github.luben:zstd-jni").doesNotContain("listening on ");
        }
    }
}
