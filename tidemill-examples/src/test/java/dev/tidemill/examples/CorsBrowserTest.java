package dev.tidemill.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.Cors;
import dev.tidemill.Response;
import dev.tidemill.RouteGroup;
import dev.tidemill.Tidemill;
import dev.tidemill.testing.TestClient;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * CORS in a real browser: a page served on one origin ({@code http://127.0.0.1:P1}) fetches from
 * a server on another ({@code http://127.0.0.1:P2}) in headless Chromium (the setup of
 * {@link LiveBoardBrowserTest}). A fetch the policy allows succeeds, one it does not allow is
 * blocked by Chromium itself, and the server's own 404 is readable by the allowed origin. Fails,
 * rather than skips, when Chromium or Node.js is missing.
 */
@Timeout(120)
class CorsBrowserTest {
    private static TestClient pages;
    private static TestClient api;
    private static final AtomicInteger DELETES = new AtomicInteger();

    @BeforeAll
    static void start() {
        Tidemill site = Tidemill.create(TestClient.config().build());
        site.get("/", req -> Response.ok().html("<!doctype html><title>page</title><p>a page on its own origin</p>"));
        pages = TestClient.start(site);
        String pageOrigin = "http://127.0.0.1:" + pages.port();

        Tidemill app = Tidemill.create(TestClient.config().build());
        RouteGroup g = app.group("/api").cors(Cors.builder().allowOrigins(pageOrigin).allowMethods("GET", "PUT")
                .allowHeaders("X-Token", "Content-Type").exposeHeaders("X-Request-Cost").build());
        g.get("/greeting", req -> Response.ok().text("hello, " + req.header("Origin").orElse("?")).header("X-Request-Cost", "2"));
        g.put("/greeting", req -> "put " + req.header("X-Token").orElse("-"));
        g.delete("/greeting", req -> "deleted " + DELETES.incrementAndGet());
        app.group("/partner").cors(Cors.builder().allowOrigins("https://partner.example").build())
                .get("/greeting", req -> "for the partner only");
        app.cors(Cors.builder().allowOrigins(pageOrigin).build());
        api = TestClient.start(app);
    }

    @AfterAll
    static void stop() {
        if (api != null) api.close();
        if (pages != null) pages.close();
    }

    @Test
    @SuppressWarnings("unchecked")
    void anAllowedCrossOriginFetchSucceedsAndARefusedOneIsBlocked() throws Exception {
        String pageUrl = "http://127.0.0.1:" + pages.port() + "/";
        Map<String, Object> seen = BrowserScript.run("cors.mjs", pageUrl, "http://127.0.0.1:" + api.port());
        assertThat(seen.get("error")).as("the script's failure").isNull();
        assertThat(seen.get("pageOrigin")).isEqualTo("http://127.0.0.1:" + pages.port());

        Map<String, Map<String, Object>> byName = new java.util.HashMap<>();
        for (Object o : (List<Object>) seen.get("fetches")) {
            Map<String, Object> f = (Map<String, Object>) o;
            byName.put((String) f.get("name"), f);
        }
        Map<String, Object> get = byName.get("allowed GET");
        assertThat(get.get("ok")).as("%s", get).isEqualTo(true);
        assertThat(get.get("body")).isEqualTo("hello, http://127.0.0.1:" + pages.port());
        assertThat(get.get("cost")).as("an exposed header is readable").isEqualTo("2");
        Map<String, Object> put = byName.get("allowed preflighted PUT");
        assertThat(put.get("ok")).as("%s", put).isEqualTo(true);
        assertThat(put.get("body")).isEqualTo("put t");
        Map<String, Object> delete = byName.get("refused method (preflight)");
        assertThat(delete.get("ok")).as("%s", delete).isEqualTo(false);
        assertThat((String) delete.get("error")).contains("Failed to fetch");
        assertThat(DELETES).as("a refused preflight keeps the real request from being sent").hasValue(0);
        Map<String, Object> partner = byName.get("other origin only");
        assertThat(partner.get("ok")).as("%s", partner).isEqualTo(false);
        Map<String, Object> missing = byName.get("server 404 readable");
        assertThat(missing.get("ok")).as("%s", missing).isEqualTo(true);
        assertThat(missing.get("status")).isEqualTo(404);
        assertThat(String.join("\n", (List<String>) seen.get("consoleErrors"))).as("Chromium says why it blocked")
                .contains("CORS");
    }
}
