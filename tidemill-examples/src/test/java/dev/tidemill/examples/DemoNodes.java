package dev.tidemill.examples;

import static org.awaitility.Awaitility.await;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Demo processes for the multi-node tests, as {@code ./tidemill cluster} starts them: each a JVM
 * running {@link Demo} on its own port with {@code TIDEMILL_REDIS_URL} and {@code TIDEMILL_NODE_ID},
 * its output kept for failure messages. Closing kills what is left.
 */
final class DemoNodes implements AutoCloseable {
    private final List<Process> nodes = new CopyOnWriteArrayList<>();
    private final List<String> output = new CopyOnWriteArrayList<>();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    /**
     * @param port the node's port
     * @param id its {@code TIDEMILL_NODE_ID}
     * @param redisPort the Redis it shares
     * @param env more variables, or none
     * @return the process
     */
    Process start(int port, String id, int redisPort, Map<String, String> env) throws IOException {
        String java = ProcessHandle.current().info().command().orElseThrow();
        ProcessBuilder pb = new ProcessBuilder(java, "--sun-misc-unsafe-memory-access=allow", "--enable-native-access=ALL-UNNAMED",
                "-cp", System.getProperty("java.class.path"), Demo.class.getName());
        pb.environment().keySet().removeIf(k -> k.startsWith("TIDEMILL_"));
        pb.environment().putAll(Map.of("TIDEMILL_PORT", Integer.toString(port), "TIDEMILL_HOST", "127.0.0.1",
                "TIDEMILL_REDIS_URL", "redis://127.0.0.1:" + redisPort, "TIDEMILL_NODE_ID", id));
        pb.environment().putAll(env);
        pb.redirectErrorStream(true);
        Process p = pb.start();
        nodes.add(p);
        Thread.ofPlatform().daemon().start(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) output.add(id + ": " + line);
            } catch (IOException ignored) {
                // the process is gone
            }
        });
        return p;
    }

    /** Waits until the node on {@code port} answers {@code /readyz} 200; fails at once if a node exited. */
    void awaitReady(int port) {
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
                .failFast("a node exited: " + output, () -> nodes.stream().anyMatch(p -> !p.isAlive()))
                .until(() -> ready(port));
    }

    /** @return whether the node on {@code port} answers {@code /readyz} 200 now */
    boolean ready(int port) {
        try {
            return get(port, "/readyz").statusCode() == 200;
        } catch (IOException e) {
            return false;
        }
    }

    /** @return what the nodes printed, each line after its node's id */
    List<String> output() {
        return output;
    }

    HttpClient http() {
        return http;
    }

    HttpResponse<String> get(int port, String path) throws IOException {
        return send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).timeout(Duration.ofSeconds(10)).build());
    }

    HttpResponse<String> post(int port, String path, String json) throws IOException {
        return send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(json)).build());
    }

    private HttpResponse<String> send(HttpRequest request) throws IOException {
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    @Override
    public void close() {
        nodes.forEach(Process::destroyForcibly);
        List<Process> all = new ArrayList<>(nodes);
        for (Process p : all) {
            try {
                p.waitFor(10, java.util.concurrent.TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
