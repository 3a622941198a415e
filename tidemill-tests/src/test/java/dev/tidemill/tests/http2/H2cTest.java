package dev.tidemill.tests.http2;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.ExecutionMode;
import dev.tidemill.Param;
import dev.tidemill.ParamType;
import dev.tidemill.Response;
import dev.tidemill.testing.TestClient;
import dev.tidemill.tests.support.ExternalTool;
import dev.tidemill.tests.support.Setup;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Cleartext HTTP/2 with prior knowledge on the plain port, through the same request path as
 * HTTP/1.1, with real clients: curl ({@code --http2-prior-knowledge}), nghttp and h2load (Debian's
 * nghttp2-client). Routing, typed parameters and their 422, 404, bodies read whole and streamed,
 * a streamed response, and HTTP/1.1 on the same port, in every execution mode.
 */
@Timeout(120)
class H2cTest {
    private static final Param<Integer> N = Param.query("n", ParamType.INT).withDefault(3);
    private static final Param<Integer> ID = Param.path("id", ParamType.INT);

    @TempDir
    Path dir;

    private static TestClient start(Setup setup) {
        return setup.start(b -> b.maxBodyBytes(32L << 20), app -> {
            app.get("/hello", req -> "hello over " + req.header("Host").orElse("?"));
            app.get("/items/{id}", req -> "item " + req.param(ID)).params(ID);
            app.post("/echo", req -> Response.ok().bytes(req.body(), "application/octet-stream"));
            app.put("/count", req -> {
                MessageDigest md = MessageDigest.getInstance("SHA-256");
                if (setup.mode() == ExecutionMode.IO) {
                    return req.bodyStream().forEach(md::update).thenApply(n -> n + " " + HexFormat.of().formatHex(md.digest()));
                }
                long n = 0;
                try (InputStream in = req.bodyStream().inputStream()) {
                    byte[] buf = new byte[8192];
                    for (int r; (r = in.read(buf)) > 0; n += r) md.update(buf, 0, r);
                }
                return n + " " + HexFormat.of().formatHex(md.digest());
            }).streamedBody();
            app.get("/stream", req -> Response.stream("text/plain", s -> {
                int n = req.param(N);
                java.util.concurrent.CompletionStage<Void> c = java.util.concurrent.CompletableFuture.completedFuture(null);
                for (int i = 0; i < n; i++) {
                    int k = i;
                    c = c.thenCompose(v -> s.write("line " + k + "\n"));
                }
                c.whenComplete((v, e) -> s.close());
            })).params(N);
        });
    }

    private static String run(Path dir, List<String> command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).directory(dir.toFile()).start();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        p.getInputStream().transferTo(out);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return out.toString(StandardCharsets.UTF_8);
    }

    private static String curl(Path dir, String... args) throws Exception {
        ExternalTool.CURL.require();
        List<String> cmd = new ArrayList<>(List.of("curl", "-sS", "--http2-prior-knowledge"));
        cmd.addAll(List.of(args));
        return run(dir, cmd);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modes")
    void curlSpeaksHttp2WithPriorKnowledgeThroughTheSameRoutes(Setup setup) throws Exception {
        try (TestClient client = start(setup)) {
            String base = "http://127.0.0.1:" + client.port();
            assertThat(curl(dir, "-w", " %{http_version} %{http_code}", base + "/hello"))
                    .isEqualTo("hello over 127.0.0.1:" + client.port() + " 2 200");
            assertThat(curl(dir, "-w", " %{http_code}", base + "/items/42")).isEqualTo("item 42 200");
            assertThat(curl(dir, "-o", "/dev/null", "-w", "%{http_code}", base + "/items/abc")).isEqualTo("422");
            assertThat(curl(dir, "-o", "/dev/null", "-w", "%{http_code}", base + "/nothing")).isEqualTo("404");
            assertThat(curl(dir, "-o", "/dev/null", "-w", "%{http_code}", "-X", "DELETE", base + "/hello")).isEqualTo("405");
            assertThat(curl(dir, base + "/stream?n=4")).isEqualTo("line 0\nline 1\nline 2\nline 3\n");

            byte[] body = new byte[5_000_000];
            new Random(1).nextBytes(body);
            Path file = dir.resolve("body.bin");
            Files.write(file, body);
            String digest = body.length + " " + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(body));
            assertThat(curl(dir, "-T", file.toString(), base + "/count")).as("a streamed body over h2").isEqualTo(digest);
            Path echoed = dir.resolve("echoed.bin");
            curl(dir, "--data-binary", "@" + file, "-o", echoed.toString(), base + "/echo");
            assertThat(Files.readAllBytes(echoed)).as("a body read whole, echoed").isEqualTo(body);
            // HTTP/1.1 on the same port still works.
            assertThat(client.get("/hello").text()).startsWith("hello over");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modes")
    void h2loadRunsManyStreamsPerConnection(Setup setup) throws Exception {
        ExternalTool.H2LOAD.require();
        try (TestClient client = start(setup)) {
            String out = run(dir, List.of("h2load", "-n", "2000", "-c", "4", "-m", "32",
                    "http://127.0.0.1:" + client.port() + "/hello"));
            assertThat(out).as(out).contains("2000 succeeded, 0 failed, 0 errored").contains("status codes: 2000 2xx");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modes")
    void nghttpGetsConcurrentStreamsOnOneConnection(Setup setup) throws Exception {
        ExternalTool.NGHTTP.require();
        try (TestClient client = start(setup)) {
            String base = "http://127.0.0.1:" + client.port();
            String out = run(dir, List.of("nghttp", "-n", "-s", base + "/hello", base + "/items/7", base + "/stream?n=2"));
            assertThat(out).as(out).contains("/hello").contains("/items/7").contains("/stream").doesNotContain("error");
        }
    }
}
