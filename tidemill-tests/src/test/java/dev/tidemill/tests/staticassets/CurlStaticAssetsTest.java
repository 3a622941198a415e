package dev.tidemill.tests.staticassets;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.ExecutionMode;
import dev.tidemill.StaticAssets;
import dev.tidemill.testing.TestClient;
import dev.tidemill.tests.support.Curl;
import dev.tidemill.tests.support.Setup;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Static assets as curl sees them: a range, a 304 by entity-tag, the redirect followed, a
 * decoded br variant, and {@code --path-as-is} traversal refused. Fails where curl is missing or
 * was built without brotli.
 */
@Timeout(60)
class CurlStaticAssetsTest {

    @Test
    void curlGetsRangesRevalidatesAndIsRefusedTraversal(@TempDir Path dir) throws Exception {
        Path root = StaticAssetsTest.site(Files.createDirectories(dir.resolve("site")));
        Files.writeString(dir.resolve("secret.txt"), "TOP-SECRET");
        StaticAssets assets = StaticAssets.builder().directory(root).build();
        try (TestClient c = Setup.onDefaultTransport(ExecutionMode.IO).start(app -> app.assets("/assets", assets))) {
            String url = c.uri(assets.href("app.js")).toString();
            String range = Curl.run(dir, "-sS", "-r", "0-5", "-w", "\\n%{http_code}", url);
            assertThat(range).isEqualTo(StaticAssetsTest.JS.substring(0, 6) + "\n206");

            String headers = Curl.run(dir, "-sS", "-D", "-", "-o", "/dev/null", url);
            String etag = headers.lines().filter(l -> l.toLowerCase().startsWith("etag:")).findFirst().orElseThrow()
                    .substring(5).strip();
            assertThat(Curl.run(dir, "-sS", "-o", "/dev/null", "-w", "%{http_code}", "-H", "If-None-Match: " + etag, url)).isEqualTo("304");

            String followed = Curl.run(dir, "-sSL", c.uri("/assets/app.js").toString());
            assertThat(followed).isEqualTo(StaticAssetsTest.JS);
            assertThat(Curl.run(dir, "--version")).as("curl built with brotli (Debian's curl package is)").contains("brotli");
            assertThat(Curl.run(dir, "-sS", "-D", "-", "-o", "/dev/null", "-H", "Accept-Encoding: br", url).toLowerCase())
                    .as("the br variant served").contains("content-encoding: br");
            assertThat(Curl.run(dir, "-sS", "--compressed", "-H", "Accept-Encoding: br", url)).isEqualTo(StaticAssetsTest.JS);
            for (String hostile : List.of("/assets/../secret.txt", "/assets/%2e%2e/secret.txt", "/assets/..%2fsecret.txt",
                    "/assets/..%5csecret.txt", "/assets/%252e%252e/secret.txt")) {
                String out = Curl.run(dir, "-sS", "--path-as-is", "-w", "\\n%{http_code}", c.uri(hostile).toString());
                assertThat(out).as(hostile).doesNotContain("TOP-SECRET").matches("(?s).*\\n(400|404)");
            }
        }
    }
}
