package dev.tidemill.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.Config;
import dev.tidemill.Tidemill;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TidemillApp;
import dev.tidemill.testing.TidemillTest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The demo's Swagger UI in a real browser, set up as {@link LiveBoardBrowserTest} is (Debian's
 * headless Chromium driven by playwright-core from npm): {@code /docs} loads the UI from the
 * webjar, fetches {@code /openapi.json} and lists every operation of the document, with no console
 * error and no request leaving the server (no CDN). Fails, rather than skips, without Chromium or
 * Node.js.
 */
@TidemillTest
@Timeout(120)
class SwaggerUiBrowserTest {
    /** The demo, started once for the class on a free port by {@link TidemillTest}. */
    @TidemillApp
    static Tidemill demo(Config.Builder config) {
        return Demo.create(config.build());
    }

    @Test
    void docsListsTheDemosOperations(TestClient client) throws Exception {
        Path shot = Path.of("target", "docs.png").toAbsolutePath();
        Files.deleteIfExists(shot);
        String base = "http://127.0.0.1:" + client.port();
        Map<String, Object> seen = BrowserScript.run("docs.mjs", base, shot.toString());

        assertThat(seen.get("error")).as("the script's failure").isNull();
        assertThat(seen.get("specStatus")).isEqualTo(200);
        assertThat((String) seen.get("title")).startsWith("Tidemill demo");
        int operations = 0;
        for (var path : client.get("/openapi.json").jsonTree().get("paths").properties()) operations += path.getValue().size();
        assertThat(seen.get("operations")).as("one .opblock per operation of the document").isEqualTo(operations);
        assertThat(strings(seen.get("paths"))).contains("/users", "/items/{id}", "/rooms/{room}/messages");
        assertThat(strings(seen.get("usersResponses"))).contains("201", "422");
        assertThat((List<?>) seen.get("consoleErrors")).isEmpty();
        assertThat((List<?>) seen.get("pageErrors")).isEmpty();
        assertThat((List<?>) seen.get("failedRequests")).isEmpty();
        assertThat((List<?>) seen.get("requests")).as("everything from the server itself, no CDN")
                .allSatisfy(u -> assertThat((String) u).matches("(" + java.util.regex.Pattern.quote(base) + "/|data:).*"));
        assertThat(Files.size(shot)).isGreaterThan(5_000);
    }

    @SuppressWarnings("unchecked")
    private static List<String> strings(Object list) {
        return ((List<Object>) list).stream().map(o -> String.valueOf(o).strip()).toList();
    }
}
