package dev.tidemill.tests.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemill.ApiKeys;
import dev.tidemill.Auth;
import dev.tidemill.ExecutionMode;
import dev.tidemill.Principal;
import dev.tidemill.Requirement;
import dev.tidemill.Response;
import dev.tidemill.Session;
import dev.tidemill.SessionStore;
import dev.tidemill.Sessions;
import dev.tidemill.Tidemill;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestRequest;
import dev.tidemill.testing.TestResponse;
import dev.tidemill.tests.support.Setup;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Server-side sessions and their CSRF protection: the cookie (its prefix, attributes and size), login
 * rotating the id (an id fixed before login is worth nothing after), logout deleting the session,
 * a tampered cookie, the idle timeout, keys that rotate across two servers sharing a store, the
 * 303 to the login page for a browser, and the matrix of Sec-Fetch-Site x Origin x method x token.
 */
class SessionsTest {
    static final byte[] KEY_1 = "k1-0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
    static final byte[] KEY_2 = "k2-0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
    static final ApiKeys.Generated KEY = ApiKeys.generate("svc", Set.of());

    static TestClient start(Setup setup, Consumer<Sessions.Builder> tweak) {
        Sessions.Builder s = Sessions.builder().key(KEY_1).trustedOrigins("https://trusted.test");
        tweak.accept(s);
        return setup.start(b -> b.auth(Auth.sessions(s.build()).withApiKeys(ApiKeys.of(List.of(KEY.entry())))), SessionsTest::routes);
    }

    static void routes(Tidemill app) {
        app.post("/login/{name}", req -> {
            Session s = req.session().orElseThrow();
            s.login(req.pathParam("name"), Set.of("notes"), Set.of());
            return "hello " + req.pathParam("name");
        });
        app.post("/logout", req -> {
            req.session().orElseThrow().logout();
            return "bye";
        });
        app.get("/count", req -> {
            Session s = req.session().orElseThrow();
            int n = s.get("n").map(Integer::parseInt).orElse(0) + 1;
            s.put("n", Integer.toString(n));
            return "count " + n;
        });
        app.get("/me", req -> {
            Principal p = req.principal().orElseThrow();
            return p.subject() + " via " + p.via();
        }).requires(Requirement.authenticated());
        app.get("/csrf", req -> req.session().orElseThrow().csrfToken()).requires(Requirement.authenticated());
        app.post("/notes", req -> "posted by " + req.principal().orElseThrow().subject()).requires(Requirement.authenticated());
        app.delete("/notes", req -> "deleted by " + req.principal().orElseThrow().subject()).requires(Requirement.authenticated());
        app.get("/page", req -> Response.ok().html("<p>secret</p>")).requires(Requirement.authenticated());
        app.get("/form", req -> Response.ok().html(dev.tidemill.html.Tags.form(dev.tidemill.html.Tags.attr("method", "post"),
                dev.tidemill.html.Tags.csrfField(req)).toString())).requires(Requirement.authenticated());
        app.post("/form", req -> "form " + new String(req.body(), StandardCharsets.UTF_8)).requires(Requirement.authenticated());
    }

    /** @return the cookie pair ({@code name=value}) of a Set-Cookie field */
    static String pair(TestResponse r) {
        String set = r.header("Set-Cookie").orElseThrow(() -> new AssertionError("no Set-Cookie in " + r));
        return set.substring(0, set.indexOf(';'));
    }

    static String login(TestClient c, String name) {
        TestResponse r = c.send(TestRequest.of("POST", "/login/" + name));
        assertThat(r.text()).isEqualTo("hello " + name);
        return pair(r);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modesAndProtocols")
    void loginSetsAHostOnlyCookieAndTheSessionIdentifiesTheCaller(Setup setup) {
        try (TestClient c = start(setup, s -> { })) {
            TestResponse r = c.send(TestRequest.of("POST", "/login/ada"));
            String set = r.header("Set-Cookie").orElseThrow();
            assertThat(set).startsWith("__Host-tidemill_session=").contains("; Path=/", "; Secure", "; HttpOnly", "; SameSite=Lax")
                    .doesNotContain("Domain");
            assertThat(set.length()).as("the whole Set-Cookie value").isLessThan(200);
            String cookie = pair(r);
            TestResponse me = c.send(TestRequest.get("/me").header("Cookie", cookie));
            assertThat(me.text()).as("%s", me).isEqualTo("ada via session");
            assertThat(me.header("Set-Cookie")).as("the id stays until something rotates it").isEmpty();
            assertThat(c.get("/me").status()).isEqualTo(401);
        }
    }

    @Test
    void loginRotatesTheIdSoAnIdFixedBeforeIsWorthNothingAfter() {
        try (TestClient c = start(Setup.onDefaultTransport(ExecutionMode.LOOP), s -> { })) {
            TestResponse first = c.get("/count");
            String before = pair(first);
            assertThat(c.send(TestRequest.get("/count").header("Cookie", before)).text()).isEqualTo("count 2");
            TestResponse in = c.send(TestRequest.of("POST", "/login/ada").header("Cookie", before).header("Sec-Fetch-Site", "same-origin"));
            String after = pair(in);
            assertThat(after).isNotEqualTo(before);
            assertThat(c.send(TestRequest.get("/count").header("Cookie", after)).text()).as("values carry over").isEqualTo("count 3");
            assertThat(c.send(TestRequest.get("/me").header("Cookie", before)).status()).as("the pre-login id").isEqualTo(401);
            assertThat(c.send(TestRequest.get("/me").header("Cookie", after)).text()).isEqualTo("ada via session");
        }
    }

    @Test
    void logoutDeletesTheSessionOnTheServerAndClearsTheCookie() {
        try (TestClient c = start(Setup.onDefaultTransport(ExecutionMode.LOOP), s -> { })) {
            String cookie = login(c, "ada");
            TestResponse out = c.send(TestRequest.of("POST", "/logout").header("Cookie", cookie).header("Sec-Fetch-Site", "same-origin"));
            assertThat(out.header("Set-Cookie")).hasValueSatisfying(v -> assertThat(v).contains("Max-Age=0"));
            assertThat(c.send(TestRequest.get("/me").header("Cookie", cookie)).status()).as("a copy of the old cookie").isEqualTo(401);
        }
    }

    @Test
    void aTamperedOrForeignCookieIsNoSession() {
        try (TestClient c = start(Setup.onDefaultTransport(ExecutionMode.LOOP), s -> { })) {
            String cookie = login(c, "ada");
            String tampered = cookie.substring(0, cookie.length() - 2) + (cookie.endsWith("AA") ? "BB" : "AA");
            assertThat(c.send(TestRequest.get("/me").header("Cookie", tampered)).status()).isEqualTo(401);
            String otherId = cookie.substring(0, cookie.indexOf('=') + 1) + "A".repeat(32) + cookie.substring(cookie.indexOf('.'));
            assertThat(c.send(TestRequest.get("/me").header("Cookie", otherId)).status()).as("another id, our MAC").isEqualTo(401);
            assertThat(c.send(TestRequest.get("/me").header("Cookie", "__Host-tidemill_session=garbage")).status()).isEqualTo(401);
        }
    }

    @Test
    void anIdleSessionEnds() {
        try (TestClient c = start(Setup.onDefaultTransport(ExecutionMode.LOOP), s -> s.idleTimeout(Duration.ofSeconds(1)))) {
            String cookie = login(c, "ada");
            assertThat(c.send(TestRequest.get("/me").header("Cookie", cookie)).status()).isEqualTo(200);
            await("the idle timeout").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(300))
                    .until(() -> c.send(TestRequest.get("/me").header("Cookie", cookie)).status() == 401);
        }
    }

    @Test
    void keysRotateAndTwoServersWithTheSameKeysAndStoreShareSessions() {
        SessionStore shared = SessionStore.inMemory(100);
        try (TestClient old = start(Setup.onDefaultTransport(ExecutionMode.LOOP), s -> s.store(shared));
                TestClient rotated = Setup.onDefaultTransport(ExecutionMode.LOOP).start(b -> b.auth(Auth.sessions(
                        Sessions.builder().key(KEY_2).key(KEY_1).store(shared).build())), SessionsTest::routes);
                TestClient stranger = Setup.onDefaultTransport(ExecutionMode.LOOP).start(b -> b.auth(Auth.sessions(
                        Sessions.builder().key(KEY_2).store(shared).build())), SessionsTest::routes)) {
            String cookie = login(old, "ada");
            assertThat(rotated.send(TestRequest.get("/me").header("Cookie", cookie)).text())
                    .as("signed with the old key, which the new list still verifies").isEqualTo("ada via session");
            assertThat(stranger.send(TestRequest.get("/me").header("Cookie", cookie)).status())
                    .as("a server without the old key").isEqualTo(401);
        }
    }

    @Test
    void aBrowserAskingForAPageIsSentToSignIn() {
        try (TestClient c = start(Setup.onDefaultTransport(ExecutionMode.LOOP), s -> { })) {
            TestResponse page = c.send(TestRequest.get("/page?tab=2").header("Accept", "text/html,application/xhtml+xml"));
            assertThat(page.status()).isEqualTo(303);
            assertThat(page.header("Location")).hasValue("/login?next=%2Fpage%3Ftab%3D2");
            assertThat(c.send(TestRequest.get("/page").header("Accept", "application/json")).status()).as("not a page").isEqualTo(401);
            String cookie = login(c, "ada");
            assertThat(c.send(TestRequest.get("/page").header("Accept", "text/html").header("Cookie", cookie)).status()).isEqualTo(200);
        }
    }

    // ------------------------------------------------------------------ the CSRF matrix

    record Cell(String method, String site, String origin, String token, boolean passes) {
        @Override
        public String toString() {
            return method + " Sec-Fetch-Site=" + site + " Origin=" + origin + " token=" + token + " -> " + (passes ? "pass" : "403");
        }
    }

    static Stream<Cell> matrix() {
        List<Cell> cells = new ArrayList<>();
        for (String method : List.of("GET", "POST", "DELETE")) {
            for (String site : new String[] {null, "same-origin", "none", "same-site", "cross-site"}) {
                for (String origin : new String[] {null, "own", "http://evil.test", "https://trusted.test", "null"}) {
                    for (String token : new String[] {null, "valid", "wrong"}) {
                        boolean passes;
                        if (method.equals("GET")) passes = true;
                        else if ("https://trusted.test".equals(origin)) passes = true;
                        else if (site != null) passes = site.equals("same-origin") || site.equals("none");
                        else if (origin != null) passes = origin.equals("own");
                        else passes = "valid".equals(token);
                        cells.add(new Cell(method, site, origin, token, passes));
                    }
                }
            }
        }
        return cells.stream();
    }

    private static TestClient matrixClient;
    private static String matrixCookie;
    private static String matrixToken;

    @ParameterizedTest(name = "{0}")
    @MethodSource("matrix")
    void csrf(Cell cell) {
        synchronized (SessionsTest.class) {
            if (matrixClient == null) {
                matrixClient = start(Setup.onDefaultTransport(ExecutionMode.LOOP), s -> { });
                matrixCookie = login(matrixClient, "ada");
                matrixToken = matrixClient.send(TestRequest.get("/csrf").header("Cookie", matrixCookie)).text();
            }
        }
        String path = cell.method().equals("GET") ? "/me" : "/notes";
        TestRequest req = TestRequest.of(cell.method(), path).header("Cookie", matrixCookie);
        if (cell.site() != null) req = req.header("Sec-Fetch-Site", cell.site());
        if (cell.origin() != null) {
            req = req.header("Origin", cell.origin().equals("own") ? "http://127.0.0.1:" + matrixClient.port() : cell.origin());
        }
        if (cell.token() != null) req = req.header("X-CSRF-Token", cell.token().equals("valid") ? matrixToken : "x" + matrixToken);
        TestResponse r = matrixClient.send(req);
        assertThat(r.status()).as("%s: %s", cell, r).isEqualTo(cell.passes() ? 200 : 403);
        if (!cell.passes()) assertThat(r.header("Content-Type")).hasValue("application/problem+json");
    }

    @Test
    void bearerAndApiKeyRequestsAreExemptAndASecondTabKeepsWorking() {
        try (TestClient c = start(Setup.onDefaultTransport(ExecutionMode.LOOP), s -> { })) {
            TestResponse keyed = c.send(TestRequest.of("POST", "/notes").header("Authorization", "ApiKey " + KEY.key())
                    .header("Sec-Fetch-Site", "cross-site"));
            assertThat(keyed.text()).as("no ambient credential, nothing to forge: %s", keyed).isEqualTo("posted by svc");
            String cookie = login(c, "ada");
            String token = c.send(TestRequest.get("/csrf").header("Cookie", cookie)).text();
            for (int tab = 1; tab <= 2; tab++) { // two tabs post in turn with what each page got: both pass
                assertThat(c.send(TestRequest.of("POST", "/notes").header("Cookie", cookie).header("X-CSRF-Token", token)).text())
                        .isEqualTo("posted by ada");
                assertThat(c.send(TestRequest.of("POST", "/notes").header("Cookie", cookie).header("Sec-Fetch-Site", "same-origin"))
                        .text()).isEqualTo("posted by ada");
            }
            assertThat(c.send(TestRequest.of("POST", "/logout").header("Cookie", cookie).header("Sec-Fetch-Site", "cross-site"))
                    .status()).as("even a route without a requirement is guarded once the cookie is there").isEqualTo(403);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modesAndProtocols")
    void aFormWithoutFetchMetadataOrOriginPassesWithTheTokenInItsField(Setup setup) {
        try (TestClient c = start(setup, s -> { })) {
            String cookie = login(c, "ada");
            TestResponse page = c.send(TestRequest.get("/form").header("Cookie", cookie));
            String token = c.send(TestRequest.get("/csrf").header("Cookie", cookie)).text();
            assertThat(page.text()).as("the helper's field").contains("<input type=\"hidden\" name=\"_csrf\" value=\"" + token + "\">");
            String form = "application/x-www-form-urlencoded";
            assertThat(c.send(TestRequest.of("POST", "/notes").header("Cookie", cookie).body(form, "text=hi&_csrf=" + token)).text())
                    .isEqualTo("posted by ada");
            assertThat(c.send(TestRequest.of("POST", "/form").header("Cookie", cookie).body(form, "_csrf=" + token + "&text=hi")).text())
                    .as("a handler reads the same form").isEqualTo("form _csrf=" + token + "&text=hi");
            for (String body : new String[] {"text=hi", "text=hi&_csrf=" + token.substring(1) + "x", "_csrf=&text=hi",
                    "_csrf=" + token + "&_csrf=" + token}) {
                TestResponse refused = c.send(TestRequest.of("POST", "/notes").header("Cookie", cookie).body(form, body));
                assertThat(refused.status()).as("%s: %s", body, refused).isEqualTo(403);
                assertThat(refused.text()).contains("_csrf");
            }
            assertThat(c.send(TestRequest.of("POST", "/notes").header("Cookie", cookie).body("application/json", "{\"_csrf\":\"" + token + "\"}"))
                    .status()).as("only a URL-encoded form carries the field").isEqualTo(403);
            assertThat(c.send(TestRequest.of("POST", "/notes").header("Cookie", cookie).header("Sec-Fetch-Site", "cross-site")
                    .body(form, "_csrf=" + token)).status()).as("a cross-site request is refused whatever its form holds").isEqualTo(403);
            assertThat(c.get("/count").status()).as("the server serves on").isEqualTo(200);
        }
    }

    /**
     * A store that answers later, on a thread of its own (as Redis does): the request's body, which
     * arrives while the session is being loaded, waits and reaches the handler whole, with the
     * token in its header or in its form field.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modesAndProtocols")
    void aBodyWaitsWhileTheSessionLoadsFromAStoreThatAnswersLater(Setup setup) {
        SessionStore memory = SessionStore.inMemory(100);
        java.util.concurrent.Executor later = java.util.concurrent.CompletableFuture.delayedExecutor(20,
                java.util.concurrent.TimeUnit.MILLISECONDS);
        SessionStore slow = new SessionStore() {
            @Override
            public java.util.concurrent.CompletionStage<java.util.Optional<Data>> load(String id) {
                return memory.load(id).thenApplyAsync(d -> d, later);
            }

            @Override
            public java.util.concurrent.CompletionStage<Void> save(String id, Data data, java.time.Duration ttl) {
                return memory.save(id, data, ttl).thenApplyAsync(v -> v, later);
            }

            @Override
            public java.util.concurrent.CompletionStage<Void> delete(String id) {
                return memory.delete(id).thenApplyAsync(v -> v, later);
            }
        };
        try (TestClient c = start(setup, s -> s.store(slow))) {
            String cookie = login(c, "ada");
            String token = c.send(TestRequest.get("/csrf").header("Cookie", cookie)).text();
            String body = "x".repeat(20_000);
            TestResponse posted = c.send(TestRequest.of("POST", "/form").header("Cookie", cookie).header("X-CSRF-Token", token)
                    .body("text/plain", body));
            assertThat(posted.status()).as("%s", posted).isEqualTo(200);
            assertThat(posted.text()).isEqualTo("form " + body);
            assertThat(c.send(TestRequest.of("POST", "/notes").header("Cookie", cookie)
                    .body("application/x-www-form-urlencoded", "text=hi&_csrf=" + token)).text()).isEqualTo("posted by ada");
        }
    }

    @org.junit.jupiter.api.AfterAll
    static void closeMatrix() {
        if (matrixClient != null) matrixClient.close();
    }
}
