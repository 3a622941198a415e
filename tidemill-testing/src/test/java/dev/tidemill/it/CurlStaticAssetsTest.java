package dev.tidemill.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.tidemill.ExecutionMode;
import dev.tidemill.StaticAssets;
import dev.tidemill.testing.TestClient;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Static assets as curl sees them: a range, a 304 by entity-tag, the redirect followed, a
 * decoded br variant, and {@code --path-as-is} traversal refused. Skipped where curl is missing.
 */
@Timeout(60)
class CurlStaticAssetsTest {

    @Test
    void curlGetsRangesRevalidatesAndIsRefusedTraversal(@TempDir Path dir) throws Exception {
        assumeTrue(run(dir, "--version") != null, "curl is not installed");
        Path root = StaticAssetsTest.site(Files.createDirectories(dir.resolve("site")));
        Files.writeString(dir.resolve("secret.txt"), "TOP-SECRET");
        StaticAssets assets = StaticAssets.builder().directory(root).build();
        try (TestClient c = Setup.onDefaultTransport(ExecutionMode.IO).start(app -> app.assets("/assets", assets))) {
            String url = c.uri(assets.href("app.js")).toString();
            String range = run(dir, "-sS", "-r", "0-5", "-w", "\\n%{http_code}", url);
            assertThat(range).isEqualTo(StaticAssetsTest.JS.substring(0, 6) + "\n206");

            String headers = run(dir, "-sS", "-D", "-", "-o", "/dev/null", url);
            String etag = headers.lines().filter(l -> l.toLowerCase().startsWith("etag:")).findFirst().orElseThrow()
                    .substring(5).strip();
            assertThat(run(dir, "-sS", "-o", "/dev/null", "-w", "%{http_code}", "-H", "If-None-Match: " + etag, url)).isEqualTo("304");

            String followed = run(dir, "-sSL", c.uri("/assets/app.js").toString());
            assertThat(followed).isEqualTo(StaticAssetsTest.JS);
            if (run(dir, "--version").contains("brotli")) {
                assertThat(run(dir, "-sS", "--compressed", "-H", "Accept-Encoding: br", url)).isEqualTo(StaticAssetsTest.JS);
            }
            for (String hostile : List.of("/assets/../secret.txt", "/assets/%2e%2e/secret.txt", "/assets/..%2fsecret.txt",
                    "/assets/..%5csecret.txt", "/assets/%252e%252e/secret.txt")) {
                String out = run(dir, "-sS", "--path-as-is", "-w", "\\n%{http_code}", c.uri(hostile).toString());
                assertThat(out).as(hostile).doesNotContain("TOP-SECRET").matches("(?s).*\\n(400|404)");
            }
        }
    }

    /** @return curl's standard output, or null if curl cannot be started; fails on a non-zero exit */
    private static String run(Path dir, String... args) throws InterruptedException {
        List<String> command = new ArrayList<>();
        command.add("curl");
        command.addAll(List.of(args));
        Process p;
        try {
            p = new ProcessBuilder(command).directory(dir.toFile()).start();
        } catch (IOException e) {
            return null;
        }
        try {
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.waitFor(30, TimeUnit.SECONDS)).as("%s finished", command).isTrue();
            assertThat(p.exitValue()).as("%s: %s", command, out).isZero();
            return out;
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } finally {
            p.destroyForcibly();
        }
    }
}
