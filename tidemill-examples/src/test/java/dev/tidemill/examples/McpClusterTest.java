package dev.tidemill.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.awaitility.Awaitility.await;

import dev.tidemill.redis.RedisServer;
import io.modelcontextprotocol.modern.client.transport.HttpClientMcpTransport;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * MCP through {@code ./tidemill cluster}'s shape: two demo nodes sharing a real redis-server, behind
 * nginx round-robin, so consecutive requests of one client reach different nodes. The TypeScript
 * SDK's client (2025-11-25) opens its session on one node and uses it on the other: session-era
 * sessions live in the shared session store (2025-11-25 basic/transports, "Session Management").
 * The Java SDK's stateless client (2026-07-28) needs nothing shared at all. Both list and call the
 * demo's anonymous tools, and each node answered some of the requests.
 */
@Timeout(300)
class McpClusterTest {
    static final JsonMapper JSON = JsonMapper.builder().build();

    @TempDir
    Path dir;

    @Test
    void aSessionOpenedOnOneNodeIsServedByTheOther() throws Exception {
        try (RedisServer redis = RedisServer.start(dir.resolve("redis")); DemoNodes demo = new DemoNodes()) {
            int a = DemoNodes.freePort();
            int b = DemoNodes.freePort();
            demo.start(a, "node-a", redis.port(), Map.of());
            demo.start(b, "node-b", redis.port(), Map.of());
            demo.awaitReady(a);
            demo.awaitReady(b);
            int lb = DemoNodes.freePort();
            Process nginx = nginx(lb, a, b);
            try {
                await().atMost(Duration.ofSeconds(20)).ignoreExceptions().until(() -> demo.get(lb, "/hello").statusCode() == 200);
                long before = mcpRequests(demo, a) + mcpRequests(demo, b);
                String url = "http://127.0.0.1:" + lb + "/mcp";
                List<Map<String, Object>> calls = List.of(
                        Map.of("name", "get_item", "arguments", Map.of("id", 1)),
                        Map.of("name", "search", "arguments", Map.of("q", "a")),
                        Map.of("name", "create_user", "arguments", Map.of("name", "Kim", "age", 30)),
                        Map.of("name", "post_message", "arguments", Map.of("room", "cluster", "text", "via the balancer")));
                JsonNode out = JSON.readTree(McpNode.run(List.of("node", "sdk-client.mjs", url), JSON.writeValueAsBytes(calls), 120));
                assertThat(out.get("tools").toString()).isEqualTo("[\"get_item\",\"search\",\"create_user\",\"post_message\"]");
                for (JsonNode r : out.get("results")) assertThat(r.get("isError").asBoolean()).as("%s", r).isFalse();
                assertThat(out.at("/results/0/structuredContent")).isEqualTo(JSON.readTree(demo.get(b, "/items/1").body()));
                assertThat(mcpRequests(demo, a)).as("node A answered some of the session's requests").isGreaterThan(0);
                assertThat(mcpRequests(demo, b)).as("node B answered some of the session's requests").isGreaterThan(0);
                assertThat(mcpRequests(demo, a) + mcpRequests(demo, b) - before).isGreaterThanOrEqualTo(6);

                var transport = HttpClientMcpTransport.builder(url).build();
                var modern = io.modelcontextprotocol.modern.client.McpClient.sync(transport).callTimeout(Duration.ofSeconds(20)).build();
                assertThat(modern.listTools().list().tools()).hasSize(4);
                for (int i = 0; i < 4; i++) {
                    Object item = modern.tool("get_item").arguments(Map.of("id", i)).call().structuredContent();
                    assertThat(JSON.valueToTree(item).get("id").asInt()).isEqualTo(i);
                }
            } finally {
                nginx.destroy();
                nginx.waitFor();
            }
        }
    }

    /** @return the MCP requests the node on {@code port} answered, from its request counter in /metrics */
    private static long mcpRequests(DemoNodes demo, int port) throws IOException {
        long n = 0;
        for (String line : demo.get(port, "/metrics").body().split("\n")) {
            if (line.startsWith("tidemill_requests_total{") && line.contains("route=\"/mcp\"")) {
                n += (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return n;
    }

    /** nginx-light round-robin over the two nodes, as {@code ./tidemill cluster} configures it. */
    private Process nginx(int port, int a, int b) throws IOException {
        Path nginx = Path.of("/usr/sbin/nginx");
        if (!Files.isExecutable(nginx)) fail("this test needs nginx (Debian's nginx-light; ./tidemill check-tools installs it): " + nginx);
        Path d = dir.resolve("nginx");
        Files.createDirectories(d);
        String conf = """
                daemon off;
                worker_processes 1;
                pid %1$s/nginx.pid;
                error_log %1$s/error.log warn;
                events { worker_connections 1024; }
                http {
                    access_log off;
                    client_body_temp_path %1$s/body;
                    proxy_temp_path %1$s/proxy;
                    fastcgi_temp_path %1$s/fastcgi;
                    uwsgi_temp_path %1$s/uwsgi;
                    scgi_temp_path %1$s/scgi;
                    upstream tidemill { server 127.0.0.1:%2$d; server 127.0.0.1:%3$d; keepalive 8; }
                    server {
                        listen 127.0.0.1:%4$d;
                        location / {
                            proxy_pass http://tidemill;
                            proxy_http_version 1.1;
                            proxy_set_header Host $http_host;
                            proxy_set_header Connection "";
                            proxy_buffering off;
                            proxy_request_buffering off;
                        }
                    }
                }
                """.formatted(d, a, b, port);
        Path file = d.resolve("nginx.conf");
        Files.writeString(file, conf);
        return new ProcessBuilder(nginx.toString(), "-c", file.toString(), "-p", d.toString()).redirectErrorStream(true)
                .redirectOutput(d.resolve("nginx.out").toFile()).start();
    }
}
