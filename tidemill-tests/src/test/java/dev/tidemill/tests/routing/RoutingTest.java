package dev.tidemill.tests.routing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidemill.Tidemill;
import dev.tidemill.testing.Connection;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestRequest;
import dev.tidemill.testing.TestResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Routing over real sockets: priority (static, then parameter, then catch-all, whatever the
 * registration order), trailing slashes, 404 and 405 problems, encoded slashes, malformed
 * percent-encoding, same-shape conflicts, HEAD and custom methods.
 */
@Timeout(60)
class RoutingTest {

    private static TestClient start(Consumer<Tidemill> routes) {
        Tidemill app = Tidemill.create(TestClient.config().workerLoops(2).ioThreads(1).build());
        routes.accept(app);
        return TestClient.start(app).timeout(Duration.ofSeconds(20));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> problem(TestResponse r, int status) {
        assertThat(r.status()).as("%s", r).isEqualTo(status);
        assertThat(r.header("Content-Type")).as("%s", r).hasValue("application/problem+json");
        Map<String, Object> p = r.json(Map.class);
        assertThat(p).as("%s", r).containsEntry("status", status).containsKey("type").containsKey("title");
        return p;
    }

    @Test
    void staticBeatsParameterBeatsCatchAllWhateverTheRegistrationOrder() {
        try (TestClient client = start(app -> {
            // /a: catch-all first, static last
            app.get("/a/{*rest}", req -> "a catch-all " + req.pathParam("rest"));
            app.get("/a/{name}", req -> "a param " + req.pathParam("name"));
            app.get("/a/fixed", req -> "a static");
            // /b: static first, catch-all last
            app.get("/b/fixed", req -> "b static");
            app.get("/b/{name}", req -> "b param " + req.pathParam("name"));
            app.get("/b/{*rest}", req -> "b catch-all " + req.pathParam("rest"));
            // /c: parameter first
            app.get("/c/{name}", req -> "c param " + req.pathParam("name"));
            app.get("/c/{*rest}", req -> "c catch-all " + req.pathParam("rest"));
            app.get("/c/fixed", req -> "c static");
        })) {
            try (Connection c = client.connect()) {
                for (String p : new String[] {"a", "b", "c"}) {
                    assertThat(c.send(TestRequest.get("/" + p + "/fixed")).text()).isEqualTo(p + " static");
                    assertThat(c.send(TestRequest.get("/" + p + "/other")).text()).isEqualTo(p + " param other");
                    assertThat(c.send(TestRequest.get("/" + p + "/fixedx")).text()).isEqualTo(p + " param fixedx");
                    assertThat(c.send(TestRequest.get("/" + p + "/x/y/z")).text()).isEqualTo(p + " catch-all x/y/z");
                    assertThat(c.send(TestRequest.get("/" + p + "/fixed/more")).text())
                            .isEqualTo(p + " catch-all fixed/more");
                }
            }
        }
    }

    /** The same priorities over HTTP/1.1 and HTTP/2: routing reads the exchange, whatever protocol made it. */
    @org.junit.jupiter.params.ParameterizedTest(name = "{0}")
    @org.junit.jupiter.params.provider.MethodSource("dev.tidemill.tests.support.Setup#modesAndProtocols")
    void routingIsTheSameOverEitherProtocol(dev.tidemill.tests.support.Setup setup) {
        try (TestClient client = setup.start(app -> {
            app.get("/a/{*rest}", req -> "catch-all " + req.pathParam("rest"));
            app.get("/a/{name}", req -> "param " + req.pathParam("name"));
            app.get("/a/fixed", req -> "static");
            app.post("/a/fixed", req -> "posted");
        })) {
            assertThat(client.send(TestRequest.get("/a/fixed")).text()).isEqualTo("static");
            assertThat(client.send(TestRequest.get("/a/other")).text()).isEqualTo("param other");
            assertThat(client.send(TestRequest.get("/a/x/y%2Fz")).text()).isEqualTo("catch-all x/y/z");
            assertThat(client.send(TestRequest.of("POST", "/a/fixed")).text()).isEqualTo("posted");
            Map<String, Object> notAllowed = problem(client.send(TestRequest.of("DELETE", "/a/fixed")), 405);
            assertThat(notAllowed).containsEntry("status", 405);
            problem(client.send(TestRequest.get("/b")), 404);
        }
    }

    @Test
    void catchAllGetsTheRestOfThePathDecoded() {
        try (TestClient client = start(app -> app.get("/files/{*path}", req -> "[" + req.pathParam("path") + "]"))) {
            try (Connection c = client.connect()) {
                assertThat(c.send(TestRequest.get("/files/a/b/c.txt")).text()).isEqualTo("[a/b/c.txt]");
                assertThat(c.send(TestRequest.get("/files/a/b/")).text()).isEqualTo("[a/b/]");
                assertThat(c.send(TestRequest.get("/files/dir%20one/x%2Fy")).text()).isEqualTo("[dir one/x/y]");
                assertThat(c.send(TestRequest.get("/files/only?q=1")).text()).isEqualTo("[only]");
                assertThat(c.send(TestRequest.get("/files/")).text()).isEqualTo("[]");
                assertThat(c.send(TestRequest.get("/files")).text()).isEqualTo("[]");
                problem(c.send(TestRequest.get("/filesx/a")), 404);
            }
        }
    }

    @Test
    void trailingSlashIsADistinctRoute() {
        try (TestClient client = start(app -> {
            app.get("/items", req -> "no slash");
            app.get("/items/", req -> "slash");
            app.get("/only", req -> "only");
            app.get("/users/{id}", req -> "user " + req.pathParam("id"));
        })) {
            try (Connection c = client.connect()) {
                assertThat(c.send(TestRequest.get("/items")).text()).isEqualTo("no slash");
                assertThat(c.send(TestRequest.get("/items/")).text()).isEqualTo("slash");
                assertThat(c.send(TestRequest.get("/only")).text()).isEqualTo("only");
                problem(c.send(TestRequest.get("/only/")), 404);
                assertThat(c.send(TestRequest.get("/users/7")).text()).isEqualTo("user 7");
                problem(c.send(TestRequest.get("/users/7/")), 404);
                problem(c.send(TestRequest.get("/users/")), 404); // a parameter is never empty
            }
        }
    }

    @Test
    void unknownPathIsA404ProblemAndTheConnectionSurvives() {
        try (TestClient client = start(app -> app.get("/known", req -> "known"))) {
            try (Connection c = client.connect()) {
                Map<String, Object> p = problem(c.send(TestRequest.get("/unknown/path?x=1")), 404);
                assertThat(p).containsEntry("type", "about:blank").containsEntry("title", "Not Found");
                problem(c.send(TestRequest.of("POST", "/nope").body("text/plain", "abc")), 404);
                TestResponse next = c.send(TestRequest.get("/known"));
                assertThat(next.status()).isEqualTo(200);
                assertThat(next.text()).isEqualTo("known");
                assertThat(c.send(TestRequest.get("/known")).text()).as("the connection still serves").isEqualTo("known");
            }
        }
    }

    @Test
    void wrongMethodIsA405WithASortedAllowHeaderAndAProblem() {
        try (TestClient client = start(app -> {
            app.post("/thing", req -> "post");
            app.delete("/thing", req -> "delete");
            app.get("/thing", req -> "get");
            app.put("/other/{id}", req -> "put");
            app.patch("/other/{id}", req -> "patch");
        })) {
            try (Connection c = client.connect()) {
                TestResponse r = c.send(TestRequest.of("PUT", "/thing"));
                Map<String, Object> p = problem(r, 405);
                assertThat(p).containsEntry("type", "about:blank").containsEntry("title", "Method Not Allowed");
                assertThat(r.headers("Allow")).containsExactly("DELETE, GET, HEAD, POST");

                TestResponse other = c.send(TestRequest.get("/other/5"));
                problem(other, 405);
                assertThat(other.headers("Allow")).containsExactly("PATCH, PUT");

                // HEAD on a path without GET: not answered by anything.
                TestResponse head = c.send(TestRequest.of("HEAD", "/other/5"));
                assertThat(head.status()).isEqualTo(405);
                assertThat(head.header("Allow")).hasValue("PATCH, PUT");

                assertThat(c.send(TestRequest.get("/thing")).text()).isEqualTo("get");
                assertThat(c.send(TestRequest.get("/thing")).text()).as("the connection still serves").isEqualTo("get");
            }
        }
    }

    @Test
    void anEncodedSlashInAParameterDoesNotChangeWhichRouteMatched() {
        try (TestClient client = start(app -> {
            app.get("/files/{name}", req -> "name=" + req.pathParam("name"));
            app.get("/files/{dir}/{name}", req -> "dir=" + req.pathParam("dir") + " name=" + req.pathParam("name"));
            app.get("/files/a/b", req -> "static a/b");
        })) {
            try (Connection c = client.connect()) {
                assertThat(c.send(TestRequest.get("/files/a%2Fb")).text()).isEqualTo("name=a/b");
                assertThat(c.send(TestRequest.get("/files/a%2fb")).text()).isEqualTo("name=a/b");
                assertThat(c.send(TestRequest.get("/files/a/b")).text()).isEqualTo("static a/b");
                assertThat(c.send(TestRequest.get("/files/x%2Fy/z")).text()).isEqualTo("dir=x/y name=z");
                assertThat(c.send(TestRequest.get("/files/%2E%2E%2Fetc")).text()).isEqualTo("name=../etc");
            }
        }
    }

    @Test
    void aLiteralMatchesItsPercentEncodedForm() {
        try (TestClient client = start(app -> app.get("/café/menu", req -> "menu"))) {
            assertThat(client.get("/caf%C3%A9/menu").text()).isEqualTo("menu");
            assertThat(client.get("/caf%c3%a9/menu").text()).isEqualTo("menu");
            problem(client.get("/cafe/menu"), 404);
        }
    }

    @Test
    void invalidPercentEncodingInAParameterIsA400() {
        try (TestClient client = start(app -> {
            app.get("/files/{name}", req -> "name=" + req.pathParam("name"));
            app.get("/tree/{*rest}", req -> "rest=" + req.pathParam("rest"));
            app.get("/ok", req -> "ok");
        })) {
            try (Connection c = client.connect()) {
                for (String bad : new String[] {"/files/%zz", "/files/abc%2", "/files/abc%", "/files/%C3%28", "/files/%FF",
                        "/files/%C0%AF", "/tree/a/%zz/b", "/tree/a/b%E2%82"}) {
                    Map<String, Object> p = problem(c.send(TestRequest.get(bad)), 400);
                    assertThat(p).as(bad).containsEntry("title", "Bad Request");
                }
                assertThat(c.send(TestRequest.get("/ok")).text()).isEqualTo("ok");
            }
        }
    }

    @Test
    void invalidPercentEncodingInAPathWithoutParameterRoutesIsA400Too() {
        // The spec: invalid percent-encoding in the path -> 400, whatever the routes look like.
        try (TestClient client = start(app -> {
            app.get("/docs/intro", req -> "intro");
            app.get("/files/{name}", req -> "name=" + req.pathParam("name"));
        })) {
            problem(client.get("/docs/%zz"), 400);
            problem(client.get("/docs/intro%"), 400);
            problem(client.get("/%C3%28"), 400);
        }
    }

    @Test
    void twoRoutesOfTheSameShapeAreRefusedNamingBoth() {
        Tidemill app = Tidemill.create(TestClient.config().build());
        app.get("/items/{id}", req -> "id");
        assertThatThrownBy(() -> app.get("/items/{name}", req -> "name"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("/items/{id}")
                .hasMessageContaining("/items/{name}");
        app.get("/files/{*rest}", req -> "rest");
        assertThatThrownBy(() -> app.get("/files/{*path}", req -> "path"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("/files/{*rest}")
                .hasMessageContaining("/files/{*path}");
        app.get("/static", req -> "s");
        assertThatThrownBy(() -> app.get("/static", req -> "s2"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("/static");
        assertThatThrownBy(() -> app.group("/items").get("/{other}", req -> "other"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("/items/{id}")
                .hasMessageContaining("/items/{other}");
        // A literal written encoded is the same route as written decoded.
        app.get("/café", req -> "decoded");
        assertThatThrownBy(() -> app.get("/caf%C3%A9", req -> "encoded"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("/café")
                .hasMessageContaining("/caf%C3%A9");
        // Same pattern, other method: fine. Trailing slash: another shape.
        app.post("/items/{id}", req -> "post");
        app.get("/items/{id}/", req -> "slash");
        assertThat(app.routes()).hasSize(6);
    }

    @Test
    void aMethodMustBeAToken() {
        Tidemill app = Tidemill.create(TestClient.config().build());
        for (String bad : List.of("", "GE T", "GET:", "G\"ET", "PÜT", "A\u007f")) {
            assertThatThrownBy(() -> app.route(bad, "/x", req -> "x")).as("'%s'", bad)
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("method must be a token");
        }
        app.route("PURGE", "/x", req -> "x");
        app.route("m-search", "/x", req -> "x"); // upper-cased: M-SEARCH
        app.route("X_!#$%&'*+.^`|~1", "/x", req -> "x");
        assertThat(app.routes()).extracting(Object::toString).contains("PURGE /x", "M-SEARCH /x");
    }

    @Test
    void headIsNotRegistrableButIsAnsweredForGetRoutes() {
        Tidemill app = Tidemill.create(TestClient.config().workerLoops(2).ioThreads(1).build());
        assertThatThrownBy(() -> app.route("HEAD", "/x", req -> "x")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> app.route("head", "/x", req -> "x")).isInstanceOf(IllegalArgumentException.class);
        app.get("/hello", req -> "Hello, World!");
        app.get("/who/{name}", req -> "hi " + req.pathParam("name") + " via " + req.method());
        app.post("/post-only", req -> "p");
        try (TestClient client = TestClient.start(app).timeout(Duration.ofSeconds(20))) {
            try (Connection c = client.connect()) {
                TestResponse get = c.send(TestRequest.get("/hello"));
                TestResponse head = c.send(TestRequest.of("HEAD", "/hello"));
                assertThat(head.status()).isEqualTo(200);
                assertThat(head.body()).isEmpty();
                assertThat(head.header("Content-Length")).isEqualTo(get.header("Content-Length")).hasValue("13");
                assertThat(head.header("Content-Type")).hasValue("text/plain; charset=utf-8");

                TestResponse headParam = c.send(TestRequest.of("HEAD", "/who/ann"));
                assertThat(headParam.status()).isEqualTo(200);
                assertThat(headParam.header("Content-Length")).hasValue(Integer.toString("hi ann via HEAD".length()));

                TestResponse headPost = c.send(TestRequest.of("HEAD", "/post-only"));
                assertThat(headPost.status()).isEqualTo(405);
                assertThat(headPost.header("Allow")).hasValue("POST");
                assertThat(c.send(TestRequest.of("HEAD", "/missing")).status()).isEqualTo(404);
                assertThat(c.send(TestRequest.get("/hello")).text()).isEqualTo("Hello, World!");
            }
        }
    }

    @Test
    void aCustomMethodIsRoutedLikeAnyOther() {
        try (TestClient client = start(app -> {
            app.route("PURGE", "/cache/{key}", req -> "purged " + req.pathParam("key") + " by " + req.method());
            app.route("report", "/cache/{key}", req -> "report"); // upper-cased at registration
            app.get("/cache/{key}", req -> "cached " + req.pathParam("key"));
        })) {
            try (Connection c = client.connect()) {
                TestResponse purge = c.send(TestRequest.of("PURGE", "/cache/k1"));
                assertThat(purge.status()).as("%s", purge).isEqualTo(200);
                assertThat(purge.text()).isEqualTo("purged k1 by PURGE");
                assertThat(c.send(TestRequest.of("REPORT", "/cache/k1")).text()).isEqualTo("report");
                assertThat(c.send(TestRequest.get("/cache/k1")).text()).isEqualTo("cached k1");
                TestResponse put = c.send(TestRequest.of("PUT", "/cache/k1"));
                problem(put, 405);
                assertThat(put.header("Allow")).hasValue("GET, HEAD, PURGE, REPORT");
            }
        }
        Tidemill app = Tidemill.create(TestClient.config().build());
        assertThatThrownBy(() -> app.route("BAD METHOD", "/x", req -> "x")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> app.route("", "/x", req -> "x")).isInstanceOf(IllegalArgumentException.class);
    }
}
