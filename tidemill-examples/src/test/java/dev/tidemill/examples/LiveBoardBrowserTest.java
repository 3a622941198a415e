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
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The live board in a real browser: headless Chromium (Debian's, installed by {@code ./tidemill test})
 * driven by playwright-core (from npm, installed by the build), two tabs on {@code /board}. The
 * first posts a note through Datastar; the second, which never reloads, shows it, patched in over
 * Server-Sent Events, as text (the markup in it is escaped); the Datastar client arrives under its
 * content-hashed name, cached as immutable and brotli-compressed; the page renders without a console
 * error and its screenshot is a real PNG. The test fails, rather than skips, when Chromium or
 * Node.js is missing: CI installs both.
 */
@TidemillTest
@Timeout(120)
class LiveBoardBrowserTest {
    /** The demo, started once for the class on a free port by {@link TidemillTest}. */
    @TidemillApp
    static Tidemill demo(Config.Builder config) {
        return Demo.create(config.auth(dev.tidemill.Auth.sessions(dev.tidemill.Sessions.builder().build())).build());
    }

    @Test
    void aNotePostedInOneTabAppearsInTheOther(TestClient client) throws Exception {
        Path shot = Path.of("target", "board.png").toAbsolutePath();
        Files.deleteIfExists(shot);
        Map<String, Object> seen = BrowserScript.run("board.mjs", "http://127.0.0.1:" + client.port(), shot.toString());

        assertThat(seen.get("error")).as("the script's failure").isNull();
        assertThat((String) seen.get("eventStreamType")).startsWith("text/event-stream");
        assertThat((String) seen.get("scriptSrc")).as("the client, served under its content hash")
                .matches("/assets/web/datastar\\.[0-9a-f]{10}\\.js");
        assertThat(seen.get("clientStatus")).isEqualTo(200);
        assertThat(seen.get("clientCacheControl")).isEqualTo("public, max-age=31536000, immutable");
        assertThat(seen.get("clientEncoding")).as("Chromium accepts br; the precompressed form is smaller").isEqualTo("br");
        assertThat((String) seen.get("bSawNote")).startsWith("hello from tab A <b>not bold</b> & \"quoted\" ");
        assertThat(seen.get("bAuthor")).as("the signed-in name, not a field anyone can type").isEqualTo("Ada");
        assertThat(seen.get("signedInAs")).isEqualTo("Ada");
        assertThat(seen.get("sessionCookie").toString()).as("Chromium kept the host-only cookie over http://127.0.0.1")
                .contains("name=__Host-tidemill_session", "secure=true", "httpOnly=true", "sameSite=Lax", "path=/");
        assertThat(seen.get("bBoldElements")).as("markup in a note is text, never elements").isEqualTo(0);
        assertThat(seen.get("aSawNote")).isEqualTo(1);
        assertThat(seen.get("aDraftCleared")).isEqualTo(true);
        assertThat((String) seen.get("aError")).contains("1-" + LiveBoard.MAX_NOTE_CHARS + " characters");
        assertThat(seen.get("bTitle")).isEqualTo("Tidemill board");
        assertThat(seen.get("bHeading")).isEqualTo("Tidemill board");
        assertThat((List<?>) seen.get("consoleErrors")).isEmpty();
        assertThat((List<?>) seen.get("pageErrors")).isEmpty();
        assertThat((List<?>) seen.get("failedRequests")).isEmpty();

        byte[] png = Files.readAllBytes(shot);
        assertThat(png.length).as("a screenshot of a rendered page, not an empty one").isGreaterThan(5_000);
        assertThat(new String(png, 1, 3, StandardCharsets.US_ASCII)).isEqualTo("PNG");
    }
}
