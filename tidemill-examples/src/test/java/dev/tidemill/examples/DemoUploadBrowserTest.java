package dev.tidemill.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.Config;
import dev.tidemill.Tidemill;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TidemillApp;
import dev.tidemill.testing.TidemillTest;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A browser's form post: headless Chromium opens the demo's {@code /upload} page, fills the title,
 * chooses a 300,000-byte file (past the 64 KiB a part keeps in memory, so the server spools it)
 * and submits; Chromium itself writes the multipart body. The page answers what the server
 * received, which must be what the script sent. Fails, rather than skips, when Chromium or
 * Node.js is missing (the setup of {@link LiveBoardBrowserTest}).
 */
@TidemillTest
@Timeout(120)
class DemoUploadBrowserTest {
    @TidemillApp
    static Tidemill demo(Config.Builder config) {
        return Demo.create(config.build());
    }

    @Test
    @SuppressWarnings("unchecked")
    void chromiumPostsTheFormAndTheServerGetsEveryByte(TestClient client) throws Exception {
        Map<String, Object> seen = BrowserScript.run("upload.mjs", "http://127.0.0.1:" + client.port());
        assertThat(seen.get("error")).as("the script's failure").isNull();
        assertThat(seen.get("status")).isEqualTo("application/json");
        Map<String, Object> answer = (Map<String, Object>) seen.get("answer");
        assertThat(answer.get("title")).isEqualTo("Holiday café");
        assertThat(answer.get("filename")).isEqualTo("report 2026 é.bin");
        assertThat(answer.get("safeFilename")).asString().doesNotContain("/").endsWith(".bin");
        assertThat(((Number) answer.get("bytes")).longValue()).isEqualTo(((Number) seen.get("sentBytes")).longValue());
        assertThat(answer.get("sha256")).isEqualTo(seen.get("sentSha256"));
    }
}
