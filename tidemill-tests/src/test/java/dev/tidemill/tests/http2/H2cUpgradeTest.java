package dev.tidemill.tests.http2;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.testing.RawConnection;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestResponse;
import dev.tidemill.tests.support.ExternalTool;
import dev.tidemill.tests.support.Setup;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * HTTP/1.1's {@code Upgrade: h2c} (RFC 7540 3.2, {@code Config.h2cUpgrade}): off by default, so
 * {@code curl --http2} on {@code http://} gets HTTP/1.1; on, it gets {@code 101}, its request
 * answered as stream 1 and the next one on the same connection as HTTP/2, in every execution mode,
 * and {@code nghttp -u} the same. A request that asks with a body, with two {@code HTTP2-Settings}
 * or with settings that do not decode is answered as HTTP/1.1, once, by its handler.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class H2cUpgradeTest {
    @TempDir
    Path dir;

    static final AtomicInteger POSTS = new AtomicInteger();

    private static TestClient start(Setup setup, boolean upgrade) {
        return setup.start(b -> b.h2cUpgrade(upgrade), app -> {
            app.get("/hello", req -> "hello over " + req.header("Host").orElse("?"));
            app.post("/echo", req -> {
                POSTS.incrementAndGet();
                return new String(req.body(), StandardCharsets.UTF_8);
            });
        });
    }

    @Test
    void offByDefaultCurlAskingForH2cGetsHttp11() throws Exception {
        try (TestClient client = start(Setup.onDefaultTransport(dev.tidemill.ExecutionMode.LOOP), false)) {
            String base = "http://127.0.0.1:" + client.port();
            assertThat(run(List.of("curl", "-sS", "--http2", "-w", " %{http_version}", base + "/hello")))
                    .isEqualTo("hello over 127.0.0.1:" + client.port() + " 1.1");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modes")
    void onCurlAndNghttpUpgradeAndTheConnectionSpeaksHttp2(Setup setup) throws Exception {
        try (TestClient client = start(setup, true)) {
            String base = "http://127.0.0.1:" + client.port();
            String head = run(List.of("curl", "-sS", "-i", "--http2", base + "/hello"));
            assertThat(head).startsWith("HTTP/1.1 101 Switching Protocols").contains("HTTP/2 200")
                    .endsWith("hello over 127.0.0.1:" + client.port());
            // two requests, one connection: the first upgrades it, the second is a new HTTP/2 stream on it
            assertThat(run(List.of("curl", "-sS", "--http2", "-o", "/dev/null", "-o", "/dev/null", "-w", "%{http_version} %{num_connects}\n",
                    base + "/hello", base + "/hello"))).isEqualTo("2 1\n2 0");
            String nghttp = run(List.of("nghttp", "-u", "-v", "-n", base + "/hello"));
            assertThat(nghttp).contains("HTTP Upgrade success").contains(":status: 200");
        }
    }

    @Test
    void aRequestThatAsksBadlyOrWithABodyIsAnsweredAsHttp11OnlyOnce() {
        try (TestClient client = start(Setup.onDefaultTransport(dev.tidemill.ExecutionMode.LOOP), true)) {
            POSTS.set(0);
            String settings = "AAMAAABkAARAAAAAAAIAAAAA"; // SETTINGS_MAX_CONCURRENT_STREAMS 100, INITIAL_WINDOW_SIZE 2^30, ENABLE_PUSH 0
            String[] requests = {
                "POST /echo HTTP/1.1\r\nHost: x\r\nConnection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: " + settings
                        + "\r\nContent-Length: 5\r\n\r\nhello",
                "POST /echo HTTP/1.1\r\nHost: x\r\nConnection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: " + settings
                        + "\r\nHTTP2-Settings: " + settings + "\r\nContent-Length: 0\r\n\r\n",
                "POST /echo HTTP/1.1\r\nHost: x\r\nConnection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: not base64!"
                        + "\r\nContent-Length: 0\r\n\r\n",
                "POST /echo HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\nUpgrade: h2c\r\nHTTP2-Settings: " + settings
                        + "\r\nContent-Length: 0\r\n\r\n",
            };
            for (String request : requests) {
                try (RawConnection raw = client.raw()) {
                    raw.write(request);
                    TestResponse r = raw.readResponse("POST");
                    assertThat(r.status()).as(request).isEqualTo(200);
                    raw.write("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nok"); // still HTTP/1.1
                    assertThat(raw.readResponse("POST").text()).isEqualTo("ok");
                }
            }
            assertThat(POSTS.get()).as("each request handled once").isEqualTo(requests.length * 2);
        }
    }

    private String run(List<String> command) throws Exception {
        ExternalTool.of(command.get(0)).require();
        Path out = Files.createTempFile(dir, "out", ".txt");
        Process p = new ProcessBuilder(new ArrayList<>(command)).redirectErrorStream(true).redirectOutput(out.toFile()).start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String text = Files.readString(out).replace("\r\n", "\n").strip();
        assertThat(p.exitValue()).as("%s: %s", command, text).isZero();
        return text;
    }
}
