package dev.tidemill.tests.cors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidemill.Cors;
import dev.tidemill.ExecutionMode;
import dev.tidemill.RateLimit;
import dev.tidemill.Response;
import dev.tidemill.RouteGroup;
import dev.tidemill.Tidemill;
import dev.tidemill.testing.Connection;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestRequest;
import dev.tidemill.testing.TestResponse;
import dev.tidemill.tests.support.Setup;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * CORS, checked the way a browser checks it: {@link FetchClient} follows the Fetch standard's
 * rules (preflight when needed, the CORS check on the answer), and each row of the table says
 * what a script on that origin would see.
 */
@Timeout(60)
class CorsTest {
    static final String APP = "https://app.example";
    static TestClient client;
    static FetchClient browser;

    @BeforeAll
    static void start() {
        Tidemill app = Tidemill.create(Setup.onDefaultTransport(ExecutionMode.LOOP).config().build());
        app.cors(Cors.builder()
                .allowOrigins(APP, "https://*.example.com", "http://localhost:5173")
                .allowMethods("GET", "POST", "PUT")
                .allowHeaders("X-Token", "Content-Type")
                .exposeHeaders("X-Request-Cost")
                .maxAge(Duration.ofMinutes(10))
                .build());
        app.get("/items", req -> Response.ok().text("items").header("X-Request-Cost", "3"));
        app.put("/items", req -> "put");
        app.delete("/items", req -> "deleted");
        app.post("/small", req -> "small").maxBodyBytes(4);
        app.get("/vary", req -> Response.ok().text("v").header("Vary", "Accept-Language"));
        app.get("/limited", req -> "ok").rateLimit(RateLimit.builder("cors-test").requests(1).per(Duration.ofHours(1)).build());
        app.get("/fails", req -> { throw new IllegalStateException("boom"); });
        app.get("/none", req -> "no cors").cors(Cors.none());
        RouteGroup cred = app.group("/cred").cors(Cors.builder().allowOrigins(APP).allowCredentials(true)
                .allowMethods("GET", "DELETE").allowHeaders("Authorization").build());
        cred.get("/me", req -> "me");
        cred.delete("/me", req -> "bye");
        RouteGroup open = app.group("/open").cors(Cors.builder().allowAnyOrigin().allowMethods("*").allowHeaders("*").build());
        open.get("/data", req -> "data");
        open.put("/data", req -> "put");
        client = TestClient.start(app);
        browser = new FetchClient(client);
    }

    @AfterAll
    static void stop() {
        client.close();
    }

    /** One row: a fetch from a page, and whether the script gets the response. */
    record Case(String name, String origin, String method, String path, boolean credentials, Map<String, String> headers,
            boolean readable) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Case> table() {
        return Stream.of(
                new Case("simple GET, exact origin", APP, "GET", "/items", false, Map.of(), true),
                new Case("simple GET, origin not listed", "https://evil.example", "GET", "/items", false, Map.of(), false),
                new Case("origin compared whole: a longer host is not the origin", "https://app.example.evil.net", "GET", "/items", false, Map.of(), false),
                new Case("origin with another port is another origin", "https://app.example:8443", "GET", "/items", false, Map.of(), false),
                new Case("origin with another scheme is another origin", "http://app.example", "GET", "/items", false, Map.of(), false),
                new Case("pattern: one subdomain", "https://a.example.com", "GET", "/items", false, Map.of(), true),
                new Case("pattern: nested subdomains", "https://a.b.example.com", "GET", "/items", false, Map.of(), true),
                new Case("pattern never matches the bare domain", "https://example.com", "GET", "/items", false, Map.of(), false),
                new Case("pattern: suffix without a dot is another site", "https://evilexample.com", "GET", "/items", false, Map.of(), false),
                new Case("pattern: scheme is part of it", "http://a.example.com", "GET", "/items", false, Map.of(), false),
                new Case("dev origin with a port", "http://localhost:5173", "GET", "/items", false, Map.of(), true),
                new Case("the null origin is never allowed by a list", "null", "GET", "/items", false, Map.of(), false),
                new Case("preflighted PUT with an allowed header", APP, "PUT", "/items", false, Map.of("X-Token", "t"), true),
                new Case("header names are case-insensitive", APP, "PUT", "/items", false, Map.of("x-TOKEN", "t"), true),
                new Case("JSON content type needs a preflight, allowed", APP, "PUT", "/items", false,
                        Map.of("Content-Type", "application/json"), true),
                new Case("preflight: method not allowed", APP, "DELETE", "/items", false, Map.of(), false),
                new Case("preflight: header not allowed", APP, "PUT", "/items", false, Map.of("X-Other", "1"), false),
                new Case("preflight: origin not allowed", "https://evil.example", "PUT", "/items", false, Map.of(), false),
                new Case("credentials: the origin is echoed with Allow-Credentials", APP, "GET", "/cred/me", true, Map.of(), true),
                new Case("credentials: preflight with Authorization listed", APP, "DELETE", "/cred/me", true,
                        Map.of("Authorization", "Bearer x"), true),
                new Case("credentials: another origin", "https://a.example.com", "GET", "/cred/me", true, Map.of(), false),
                new Case("a policy without credentials is unreadable to a credentialed fetch", APP, "GET", "/items", true, Map.of(), false),
                new Case("any origin: '*' for an uncredentialed fetch", "https://anyone.example", "GET", "/open/data", false, Map.of(), true),
                new Case("any origin: the null origin too", "null", "GET", "/open/data", false, Map.of(), true),
                new Case("any origin: '*' is no good with credentials", "https://anyone.example", "GET", "/open/data", true, Map.of(), false),
                new Case("any header: '*' covers a custom header", "https://anyone.example", "PUT", "/open/data", false,
                        Map.of("X-Anything", "1"), true),
                new Case("any header: '*' never covers Authorization", "https://anyone.example", "PUT", "/open/data", false,
                        Map.of("Authorization", "Bearer x"), false),
                new Case("a route with Cors.none()", APP, "GET", "/none", false, Map.of(), false),
                new Case("the server's own 404 is readable", APP, "GET", "/missing", false, Map.of(), true),
                new Case("the server's own 500 is readable", APP, "GET", "/fails", false, Map.of(), true));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("table")
    void whatAScriptOnThatOriginSees(Case c) {
        FetchClient.Outcome out = browser.fetch(c.origin(), c.method(), c.path(), c.credentials(), c.headers());
        assertThat(out.ok()).as("readable (%s)", out.blocked()).isEqualTo(c.readable());
        if (out.ok()) {
            String acao = out.response().header("Access-Control-Allow-Origin").orElseThrow();
            if (c.credentials()) {
                assertThat(acao).as("never '*' with credentials").isEqualTo(c.origin());
            }
            assertThat(out.response().header("Access-Control-Allow-Credentials").orElse("true")).isEqualTo("true");
        }
    }

    @Test
    void aPreflightIsAnswered204BeforeRoutingWithEveryAllowHeader() {
        try (Connection c = client.connect()) {
            TestResponse r = c.send(TestRequest.of("OPTIONS", "/items").header("Origin", APP)
                    .header("Access-Control-Request-Method", "PUT").header("Access-Control-Request-Headers", "x-token,content-type"));
            assertThat(r.status()).isEqualTo(204);
            assertThat(r.body()).isEmpty();
            assertThat(r.header("Access-Control-Allow-Origin")).contains(APP);
            assertThat(r.header("Access-Control-Allow-Methods")).contains("PUT");
            assertThat(FetchClient.tokens(r.header("Access-Control-Allow-Headers").orElseThrow()))
                    .containsExactly("x-token", "content-type");
            assertThat(r.header("Access-Control-Max-Age")).contains("600");
            assertThat(r.header("Access-Control-Allow-Credentials")).isEmpty();
            assertThat(FetchClient.tokens(r.header("Vary").orElseThrow())).contains("Origin", "Access-Control-Request-Method");
            assertThat(r.headers("Access-Control-Allow-Origin")).hasSize(1);
            // and the connection serves the next request
            assertThat(c.send(TestRequest.get("/items").header("Origin", APP)).status()).isEqualTo(200);
        }
    }

    @Test
    void aRefusedPreflightIsAProblemNamingWhatWasRefused() {
        try (Connection c = client.connect()) {
            TestResponse method = c.send(TestRequest.of("OPTIONS", "/items").header("Origin", APP)
                    .header("Access-Control-Request-Method", "DELETE"));
            assertThat(method.status()).isEqualTo(403);
            assertThat(method.header("Content-Type")).contains("application/problem+json");
            assertThat(method.text()).contains("(method)").contains("DELETE").contains("GET, POST, PUT");
            assertThat(method.header("Access-Control-Allow-Origin")).isEmpty();
            TestResponse header = c.send(TestRequest.of("OPTIONS", "/items").header("Origin", APP)
                    .header("Access-Control-Request-Method", "PUT").header("Access-Control-Request-Headers", "x-other"));
            assertThat(header.status()).isEqualTo(403);
            assertThat(header.text()).contains("(header)").contains("x-other");
            TestResponse origin = c.send(TestRequest.of("OPTIONS", "/items").header("Origin", "https://evil.example")
                    .header("Access-Control-Request-Method", "PUT"));
            assertThat(origin.status()).isEqualTo(403);
            assertThat(origin.text()).contains("(origin)").contains("https://evil.example");
        }
    }

    @Test
    void anOptionsRequestThatIsNotAPreflightIsRoutedAsUsual() {
        try (Connection c = client.connect()) {
            assertThat(c.send(TestRequest.of("OPTIONS", "/items").header("Origin", APP)).status()).isEqualTo(405);
            assertThat(c.send(TestRequest.of("OPTIONS", "/items")
                    .header("Access-Control-Request-Method", "PUT")).status()).isEqualTo(405);
        }
    }

    @Test
    void theServersOwnRefusalsCarryTheHeaders() {
        try (Connection c = client.connect()) {
            TestResponse notAllowed = c.send(TestRequest.of("PATCH", "/items").header("Origin", APP));
            assertThat(notAllowed.status()).isEqualTo(405);
            assertThat(notAllowed.header("Access-Control-Allow-Origin")).contains(APP);
            TestResponse groupNotAllowed = c.send(TestRequest.of("PATCH", "/cred/me").header("Origin", APP));
            assertThat(groupNotAllowed.status()).isEqualTo(405);
            assertThat(groupNotAllowed.header("Access-Control-Allow-Credentials")).as("the path's group policy").contains("true");
            TestResponse groupPreflight = c.send(TestRequest.of("OPTIONS", "/cred/me").header("Origin", APP)
                    .header("Access-Control-Request-Method", "PATCH"));
            assertThat(groupPreflight.status()).as("judged by the group's policy, which lacks PATCH").isEqualTo(403);
            TestResponse tooLarge = c.send(TestRequest.of("POST", "/small").header("Origin", APP).body("text/plain", "0123456789"));
            assertThat(tooLarge.status()).isEqualTo(413);
            assertThat(tooLarge.header("Access-Control-Allow-Origin")).contains(APP);
        }
        try (Connection c = client.connect()) {
            assertThat(c.send(TestRequest.get("/limited").header("Origin", APP)).status()).isEqualTo(200);
            TestResponse limited = c.send(TestRequest.get("/limited").header("Origin", APP));
            assertThat(limited.status()).isEqualTo(429);
            assertThat(limited.header("Access-Control-Allow-Origin")).contains(APP);
            assertThat(limited.header("Access-Control-Expose-Headers")).contains("x-request-cost");
        }
    }

    @Test
    void varyOriginIsMergedAndSentEvenWithoutAnOrigin() {
        try (Connection c = client.connect()) {
            TestResponse merged = c.send(TestRequest.get("/vary").header("Origin", APP));
            assertThat(merged.headers("Vary")).hasSize(1);
            assertThat(FetchClient.tokens(merged.header("Vary").orElseThrow())).containsExactly("Accept-Language", "Origin");
            TestResponse noOrigin = c.send(TestRequest.get("/items"));
            assertThat(noOrigin.header("Access-Control-Allow-Origin")).isEmpty();
            assertThat(FetchClient.tokens(noOrigin.header("Vary").orElseThrow())).contains("Origin");
            TestResponse refused = c.send(TestRequest.get("/items").header("Origin", "https://evil.example"));
            assertThat(refused.status()).isEqualTo(200);
            assertThat(refused.header("Access-Control-Allow-Origin")).isEmpty();
            assertThat(FetchClient.tokens(refused.header("Vary").orElseThrow())).contains("Origin");
            TestResponse star = c.send(TestRequest.get("/open/data").header("Origin", APP));
            assertThat(star.header("Access-Control-Allow-Origin")).contains("*");
        }
    }

    @Test
    void theOriginIsEchoedExactlyAsSent() {
        try (Connection c = client.connect()) {
            TestResponse r = c.send(TestRequest.get("/items").header("Origin", "https://A.Example.COM"));
            assertThat(r.header("Access-Control-Allow-Origin")).contains("https://A.Example.COM");
        }
    }

    @Test
    void dangerousPoliciesAreRefusedWhenBuilt() {
        assertThatThrownBy(() -> Cors.builder().allowAnyOrigin().allowCredentials(true).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("allowCredentials");
        assertThatThrownBy(() -> Cors.builder().allowOrigins("*").allowCredentials(true).build())
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Cors.builder().allowOrigins(APP).allowHeaders("*").allowCredentials(true).build())
                .isInstanceOf(IllegalArgumentException.class);
        for (String bad : new String[] {"https://*", "https://*.com", "*.example.com", "https://a.*.example.com",
                "https://*example.com", "null", "https://app.example/path", "app.example", "https://user@app.example",
                "https://**.example.com"}) {
            assertThatThrownBy(() -> Cors.builder().allowOrigins(bad)).as(bad).isInstanceOf(IllegalArgumentException.class);
        }
        assertThatThrownBy(() -> Cors.builder().build()).hasMessageContaining("allowOrigins");
        assertThat(Cors.builder().allowOrigins("https://app.example:443").build().allowsOrigin(APP)).isTrue();
    }
}
