package dev.tidemill.tests.integrations;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.testing.TestClient;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The core as a named module: a hello-world app with {@code dev.tidemill} and the modules it
 * requires on the module path serves, finds its topic backend (a service the module provides),
 * and turns each optional integration on only when the integration's modules are in the graph.
 */
class OnTheModulePathTest {
    /** Micrometer with the Prometheus registry and what they bring: all automatic modules. */
    private static final List<String> MICROMETER = List.of("micrometer-", "prometheus-metrics-", "HdrHistogram-");

    @Test
    void theCoreRunsAsANamedModuleWithOnlyTheModulesItRequires() throws Exception {
        try (ChildApp child = ChildApp.onModulePath(List.of(), List.of(), Map.of()).awaitListening()) {
            TestClient client = TestClient.connectTo("127.0.0.1", child.port);
            assertThat(client.get("/hello").text()).isEqualTo("hello");
            assertThat(client.get("/topic").text()).as("the topic backend, found as the module's service").isEqualTo("first of 1-0");
            assertThat(child.output).contains("core in module dev.tidemill");
            assertThat(client.get("/metrics").status()).isEqualTo(404);
            assertThat(child.output).filteredOn(l -> l.contains("optional integrations off")).singleElement().asString()
                    .contains("io.micrometer:micrometer-registry-prometheus", "com.aayushatharva.brotli4j:brotli4j");
        }
    }

    @Test
    void nettysNativeEpollIsItsOwnModuleThatTheAppAdds() throws Exception {
        try (ChildApp without = ChildApp.onModulePath(List.of(), List.of(), Map.of()).awaitListening()) {
            assertThat(without.output).filteredOn(l -> l.contains("transport ")).first().asString().contains("transport NIO");
        }
        try (ChildApp with = ChildApp.onModulePath(List.of(), List.of("io.netty.transport.epoll.linux.x86_64"), Map.of())
                .awaitListening()) {
            assertThat(with.output).filteredOn(l -> l.contains("transport ")).first().asString().contains("transport EPOLL");
            assertThat(TestClient.connectTo("127.0.0.1", with.port).get("/hello").text()).isEqualTo("hello");
        }
    }

    @Test
    void metricsAreOnWhenMicrometersModulesAreInTheGraph() throws Exception {
        try (ChildApp child = ChildApp.onModulePath(MICROMETER, List.of("micrometer.registry.prometheus"), Map.of())
                .awaitListening()) {
            TestClient client = TestClient.connectTo("127.0.0.1", child.port);
            assertThat(client.get("/hello").status()).isEqualTo(200);
            assertThat(client.get("/metrics").status()).isEqualTo(200);
            assertThat(client.get("/metrics").text()).contains("tidemill_requests_total");
        }
    }

    @Test
    void micrometerIsInTheGraphOnceOnThePathBecauseItsJarsAreAutomaticModules() throws Exception {
        // The core requires one automatic module (Google's brotli decoder, "dec"), and resolving an automatic module
        // resolves every automatic module on the path: Micrometer's jars, which have no descriptor, need no requires.
        try (ChildApp child = ChildApp.onModulePath(MICROMETER, List.of(), Map.of()).awaitListening()) {
            assertThat(TestClient.connectTo("127.0.0.1", child.port).get("/metrics").status()).isEqualTo(200);
        }
    }

    @Test
    void zstdIsAModuleWithADescriptorSoItIsOnOnlyOnceTheAppAddsIt() throws Exception {
        try (ChildApp child = ChildApp.onModulePath(List.of("zstd-jni-"), List.of(), Map.of()).awaitListening()) {
            assertThat(zstdPage(child).header("Content-Encoding")).as("on the path, not in the graph: off").isEmpty();
        }
        try (ChildApp child = ChildApp.onModulePath(List.of("zstd-jni-"), List.of("com.github.luben.zstd_jni"), Map.of())
                .awaitListening()) {
            assertThat(zstdPage(child).header("Content-Encoding")).contains("zstd");
        }
    }

    private static dev.tidemill.testing.TestResponse zstdPage(ChildApp child) {
        return TestClient.connectTo("127.0.0.1", child.port)
                .send(dev.tidemill.testing.TestRequest.get("/page").header("Accept-Encoding", "zstd"));
    }
}
