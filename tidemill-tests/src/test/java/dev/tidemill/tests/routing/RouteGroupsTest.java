package dev.tidemill.tests.routing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidemill.ExecutionMode;
import dev.tidemill.Param;
import dev.tidemill.ParamType;
import dev.tidemill.RouteGroup;
import dev.tidemill.Tidemill;
import dev.tidemill.testing.Connection;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestRequest;
import dev.tidemill.testing.TestResponse;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Route groups: prefixes, nesting, group filters, group defaults (execution mode, body limit) and
 * how a route's own settings beat its group's.
 */
@Timeout(60)
class RouteGroupsTest {
    static final Param<Integer> ID = Param.path("id", ParamType.INT);

    private static TestClient start(Consumer<Tidemill> routes) {
        Tidemill app = Tidemill.create(TestClient.config().workerLoops(2).ioThreads(1).build());
        routes.accept(app);
        return TestClient.start(app).timeout(Duration.ofSeconds(20));
    }

    private static byte[] bytes(int n) {
        byte[] b = new byte[n];
        Arrays.fill(b, (byte) 'a');
        return b;
    }

    @Test
    void aGroupPrefixesItsRoutes() {
        try (TestClient client = start(app -> {
            RouteGroup api = app.group("/api");
            api.get("/items", req -> "items at " + req.routePattern());
            api.get("/items/{id}", req -> "item " + req.param(ID) + " at " + req.routePattern()).params(ID);
            api.post("/items", req -> "created");
            app.get("/items", req -> "root items");
        })) {
            try (Connection c = client.connect()) {
                assertThat(c.send(TestRequest.get("/api/items")).text()).isEqualTo("items at /api/items");
                assertThat(c.send(TestRequest.get("/api/items/7")).text()).isEqualTo("item 7 at /api/items/{id}");
                assertThat(c.send(TestRequest.of("POST", "/api/items")).text()).isEqualTo("created");
                assertThat(c.send(TestRequest.get("/items")).text()).isEqualTo("root items");
                assertThat(c.send(TestRequest.get("/api")).status()).isEqualTo(404);
                assertThat(c.send(TestRequest.get("/apiitems")).status()).isEqualTo(404);
                assertThat(c.send(TestRequest.get("/api/items/x")).status()).isEqualTo(422);
            }
        }
    }

    @Test
    void groupsNest() {
        try (TestClient client = start(app -> {
            RouteGroup api = app.group("/api");
            RouteGroup v1 = api.group("/v1");
            RouteGroup admin = v1.group("/admin");
            v1.get("/users/{id}", req -> "v1 user " + req.param(ID)).params(ID);
            admin.delete("/users/{id}", req -> "deleted " + req.pathParam("id") + " at " + req.routePattern());
            api.group("/v2").get("/users/{id}", req -> "v2 user " + req.pathParam("id"));
            assertThat(v1.prefix()).isEqualTo("/api/v1");
            assertThat(admin.prefix()).isEqualTo("/api/v1/admin");
            assertThat(admin.parent()).containsSame(v1);
        })) {
            assertThat(client.get("/api/v1/users/3").text()).isEqualTo("v1 user 3");
            assertThat(client.get("/api/v2/users/4").text()).isEqualTo("v2 user 4");
            assertThat(client.delete("/api/v1/admin/users/5").text()).isEqualTo("deleted 5 at /api/v1/admin/users/{id}");
            assertThat(client.get("/api/v1/admin/users/5").status()).isEqualTo(405);
            assertThat(client.get("/v1/users/3").status()).isEqualTo(404);
        }
    }

    @Test
    void groupFiltersApplyOnlyToTheGroupsRoutes() {
        try (TestClient client = start(app -> {
            RouteGroup api = app.group("/api");
            api.filter((req, next) -> "api[" + next.proceed(req) + "]");
            api.get("/a", req -> "a");
            RouteGroup inner = api.group("/inner");
            inner.filter((req, next) -> "inner[" + next.proceed(req) + "]");
            inner.get("/b", req -> "b");
            // A second group on the same prefix is another group, with its own filters.
            RouteGroup sibling = app.group("/api");
            sibling.get("/c", req -> "c");
            app.get("/outside", req -> "outside");
            app.group("/other").get("/d", req -> "d");
        })) {
            try (Connection c = client.connect()) {
                assertThat(c.send(TestRequest.get("/api/a")).text()).isEqualTo("api[a]");
                assertThat(c.send(TestRequest.get("/api/inner/b")).text()).isEqualTo("api[inner[b]]");
                assertThat(c.send(TestRequest.get("/api/c")).text()).isEqualTo("c");
                assertThat(c.send(TestRequest.get("/outside")).text()).isEqualTo("outside");
                assertThat(c.send(TestRequest.get("/other/d")).text()).isEqualTo("d");
            }
        }
    }

    @Test
    void aGroupsModeAppliesToItsRoutesAndARoutesOwnModeWins() {
        try (TestClient client = start(app -> {
            RouteGroup blocking = app.group("/blocking").mode(ExecutionMode.VIRTUAL);
            blocking.get("/a", req -> Thread.currentThread().isVirtual());
            blocking.get("/loop", req -> Thread.currentThread().isVirtual()).mode(ExecutionMode.LOOP);
            blocking.get("/io", req -> Thread.currentThread().getName()).mode(ExecutionMode.IO);
            RouteGroup nested = blocking.group("/nested");
            nested.get("/b", req -> Thread.currentThread().isVirtual());
            RouteGroup nestedLoop = blocking.group("/nested-loop").mode(ExecutionMode.LOOP);
            nestedLoop.get("/c", req -> Thread.currentThread().getName());
            app.get("/default", req -> Thread.currentThread().getName());
            app.get("/route-virtual", req -> Thread.currentThread().isVirtual()).mode(ExecutionMode.VIRTUAL);
        })) {
            try (Connection c = client.connect()) {
                assertThat(c.send(TestRequest.get("/blocking/a")).text()).isEqualTo("true");
                assertThat(c.send(TestRequest.get("/blocking/loop")).text()).isEqualTo("false");
                assertThat(c.send(TestRequest.get("/blocking/io")).text()).startsWith("tidemill-io");
                assertThat(c.send(TestRequest.get("/blocking/nested/b")).text()).as("inherited from the enclosing group")
                        .isEqualTo("true");
                assertThat(c.send(TestRequest.get("/blocking/nested-loop/c")).text()).startsWith("tidemill-loop-");
                assertThat(c.send(TestRequest.get("/default")).text()).startsWith("tidemill-loop-");
                assertThat(c.send(TestRequest.get("/route-virtual")).text()).isEqualTo("true");
            }
        }
    }

    @Test
    void aGroupsBodyLimitAppliesAndARoutesOwnLimitWins() {
        try (TestClient client = start(app -> {
            RouteGroup small = app.group("/small").maxBodyBytes(10);
            small.post("/echo", req -> req.body().length + " bytes");
            small.post("/bigger", req -> req.body().length + " bytes").maxBodyBytes(100);
            small.group("/nested").post("/echo", req -> req.body().length + " bytes");
            app.post("/echo", req -> req.body().length + " bytes");
        })) {
            try (Connection c = client.connect()) {
                assertThat(c.send(TestRequest.of("POST", "/small/echo").body("text/plain", bytes(10))).text())
                        .isEqualTo("10 bytes");
                assertThat(c.send(TestRequest.of("POST", "/small/bigger").body("text/plain", bytes(100))).text())
                        .isEqualTo("100 bytes");
            }
            TestResponse tooBig = client.send(TestRequest.of("POST", "/small/echo").body("text/plain", bytes(11)));
            assertThat(tooBig.status()).as("%s", tooBig).isEqualTo(413);
            assertThat(tooBig.header("Content-Type")).hasValue("application/problem+json");
            assertThat(tooBig.json(Map.class)).containsEntry("status", 413);
            TestResponse nested = client.send(TestRequest.of("POST", "/small/nested/echo").body("text/plain", bytes(11)));
            assertThat(nested.status()).as("inherited by a nested group: %s", nested).isEqualTo(413);
            TestResponse routeOwn = client.send(TestRequest.of("POST", "/small/bigger").body("text/plain", bytes(101)));
            assertThat(routeOwn.status()).as("%s", routeOwn).isEqualTo(413);
            assertThat(client.post("/echo", "text/plain", bytes(1000)).text()).isEqualTo("1000 bytes");
        }
    }

    @Test
    void badPrefixesAreRefused() {
        Tidemill app = Tidemill.create(TestClient.config().build());
        for (String bad : new String[] {"api", "/api/", ""}) {
            assertThatThrownBy(() -> app.group(bad)).as("'%s'", bad).isInstanceOf(IllegalArgumentException.class);
        }
        RouteGroup api = app.group("/api");
        for (String bad : new String[] {"v1", "/v1/"}) {
            assertThatThrownBy(() -> api.group(bad)).as("'%s'", bad).isInstanceOf(IllegalArgumentException.class);
        }
        assertThatThrownBy(() -> app.group(null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void groupSettingsAreFixedOnceTheAppHasStartedLikeTheAppsOwn() {
        Tidemill app = Tidemill.create(TestClient.config().workerLoops(1).ioThreads(1).build());
        RouteGroup api = app.group("/api");
        api.get("/x", req -> "x");
        try (TestClient client = TestClient.start(app).timeout(Duration.ofSeconds(20))) {
            assertThatThrownBy(() -> app.filter((req, next) -> "late")).isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(() -> api.get("/y", req -> "y")).isInstanceOf(IllegalStateException.class);
            // A group's filters and defaults are settings too: changing them after start must not be
            // accepted silently while it has no effect.
            assertThatThrownBy(() -> api.filter((req, next) -> "late")).isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(() -> api.mode(ExecutionMode.VIRTUAL)).isInstanceOf(IllegalStateException.class);
            assertThat(client.get("/api/x").text()).isEqualTo("x");
        }
    }

    @Test
    void aRoutePatternMustStartWithASlashInAGroupToo() {
        Tidemill app = Tidemill.create(TestClient.config().build());
        assertThatThrownBy(() -> app.get("items", req -> "x")).isInstanceOf(IllegalArgumentException.class);
        RouteGroup api = app.group("/api");
        // Without the check, this would silently register /apiitems.
        assertThatThrownBy(() -> api.get("items", req -> "x")).isInstanceOf(IllegalArgumentException.class);
        assertThat(app.routes()).extracting(r -> r.pattern()).doesNotContain("/apiitems");
    }
}
