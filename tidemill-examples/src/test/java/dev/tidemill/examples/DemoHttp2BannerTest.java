package dev.tidemill.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.Config;
import dev.tidemill.Tidemill;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TidemillApp;
import dev.tidemill.testing.TidemillTest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The HTTP/2 lines of the demo's banner, as {@code ./tidemill demo --tls} prints them, run as a
 * user would paste them (curl and h2load, Debian's nghttp2-client): h2c with prior knowledge on the
 * plain port, and h2 and HTTP/1.1 chosen by ALPN on the TLS port.
 */
@TidemillTest
@Timeout(120)
class DemoHttp2BannerTest {
    static Tidemill app;

    @TidemillApp
    static Tidemill demo(Config.Builder config) {
        app = Demo.create(config.tls(t -> t.port(0).selfSigned(true)).build());
        return app;
    }

    @Test
    void everyHttp2LineOfTheBannerWorks(TestClient client) throws Exception {
        assertThat(Path.of("/usr/bin/curl")).as("curl: apt-get install -y --no-install-recommends curl (./tidemill test installs it)").exists();
        assertThat(Path.of("/usr/bin/h2load")).as("h2load: apt-get install -y --no-install-recommends nghttp2-client (./tidemill test installs it)")
                .exists();
        List<String> lines = Demo.banner(app, client.server()).lines().map(String::strip)
                .filter(l -> l.contains("--http2") || l.contains("--http1.1") || l.startsWith("h2load ")).toList();
        assertThat(lines).as("h2c and TLS lines, curl and h2load").hasSize(6);
        for (String line : lines) {
            String out = run(line);
            if (line.startsWith("h2load ")) {
                assertThat(out).as(line).contains("Application protocol: h2")
                        .contains("10000 succeeded, 0 failed, 0 errored").contains("status codes: 10000 2xx");
            } else if (line.contains("grep")) {
                assertThat(out).as(line).contains("ALPN: server accepted h2");
            } else if (line.contains("--http1.1")) {
                assertThat(out).as(line).startsWith("HTTP/1.1 200").endsWith("Hello, World!");
            } else {
                assertThat(out).as(line).startsWith("HTTP/2 200").endsWith("Hello, World!");
            }
        }
    }

    /** Runs a banner line in bash (some pipe into grep) and returns its standard output (curl's progress goes to stderr). */
    private static String run(String line) throws Exception {
        Path out = Files.createTempFile("banner-line-", ".out");
        Path err = Files.createTempFile("banner-line-", ".err");
        try {
            Process p = new ProcessBuilder("bash", "-c", line).redirectError(err.toFile()).redirectOutput(out.toFile()).start();
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("%s finished", line).isTrue();
            String text = Files.readString(out, StandardCharsets.UTF_8).strip();
            assertThat(p.exitValue()).as("%s exit; output: %s; stderr: %s", line, text, Files.readString(err)).isZero();
            return text;
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }
}
