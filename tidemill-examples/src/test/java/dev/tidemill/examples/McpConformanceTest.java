package dev.tidemill.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.testing.TestClient;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The MCP conformance suite ({@code @modelcontextprotocol/conformance} 0.2.0-alpha.12, pinned by
 * {@code src/test/node/mcp/package-lock.json}) in server mode against {@link McpConformanceFixture},
 * with each revision's requirement set ({@code --requirements}: the scenarios that revision requires,
 * run at its wire: the initialize handshake for 2025-11-25, per-request {@code _meta} for
 * 2026-07-28). Every scored scenario passes but those the committed
 * {@code src/test/node/mcp/expected-failures-<revision>.yaml} lists, each with its reason; the suite
 * exits non-zero on an unexpected failure and on a listed scenario that passes (a stale entry), and
 * the test asserts its exit status and summary.
 */
@Timeout(600)
class McpConformanceTest {

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"2025-11-25", "2026-07-28"})
    void everyRequiredScenarioPassesButTheListedOnes(String revision) throws Exception {
        try (TestClient client = TestClient.start(McpConformanceFixture.create(TestClient.config().build()))) {
            String url = "http://127.0.0.1:" + client.server().port() + "/mcp";
            Path expected = Path.of("expected-failures-" + revision + ".yaml");
            McpNode.Result r = McpNode.exec(List.of(McpNode.node22(), "node_modules/@modelcontextprotocol/conformance/dist/index.js",
                    "server", "--url", url, "--requirements", revision, "--expected-failures", expected.toString()), 540);
            String out = r.stdout().replaceAll("\u001b\\[[0-9;]*m", "");
            System.out.println(out);
            assertThat(out).as("the suite ran the requirement set").contains("Running requirements " + revision);
            assertThat(out).doesNotContain("Unexpected failures detected").doesNotContain("Baseline is stale");
            assertThat(r.status()).as("exit status; output:\n%s\n%s", out, r.stderr()).isZero();
        }
    }
}
