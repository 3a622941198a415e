package dev.tidemill.tests.routing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.ExecutionMode;
import dev.tidemill.Filter;
import dev.tidemill.Response;
import dev.tidemill.RouteGroup;
import dev.tidemill.testing.Connection;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestRequest;
import dev.tidemill.testing.TestResponse;
import dev.tidemill.tests.support.Setup;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Filters in every execution mode: order (app filters, then group filters, outermost first in the
 * order added), short-circuiting, attributes handed to the handler, and the thread they run on.
 */
@Timeout(60)
class FiltersTest {

    /** Wraps whatever the rest of the chain returns in {@code name(...)}. */
    private static Filter wrap(String name) {
        return (req, next) -> name + "(" + next.proceed(req) + ")";
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modesAndProtocols")
    void appFiltersThenGroupFiltersRunOutermostFirstInTheOrderAdded(Setup setup) {
        try (TestClient client = setup.start(app -> {
            app.filter(wrap("app1"));
            RouteGroup api = app.group("/api");
            api.filter(wrap("g1")).filter(wrap("g2"));
            api.get("/x", req -> "h");
            RouteGroup v1 = api.group("/v1");
            v1.filter(wrap("inner"));
            v1.get("/y", req -> "h");
            app.get("/plain", req -> "h");
            app.filter(wrap("app2")); // added after the group: still an app filter, so still outside it
        })) {
            try (Connection c = client.connect()) {
                assertThat(c.send(TestRequest.get("/api/x")).text()).isEqualTo("app1(app2(g1(g2(h))))");
                assertThat(c.send(TestRequest.get("/api/v1/y")).text()).isEqualTo("app1(app2(g1(g2(inner(h)))))");
                assertThat(c.send(TestRequest.get("/plain")).text()).isEqualTo("app1(app2(h))");
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modesAndProtocols")
    void aFilterCanShortCircuit(Setup setup) {
        AtomicInteger handled = new AtomicInteger();
        AtomicInteger innerFilter = new AtomicInteger();
        try (TestClient client = setup.start(app -> {
            app.filter((req, next) -> req.header("X-Token").isPresent()
                    ? next.proceed(req)
                    : Response.status(401).header("WWW-Authenticate", "Bearer").text("no token"));
            app.filter((req, next) -> {
                innerFilter.incrementAndGet();
                return next.proceed(req);
            });
            app.get("/secret", req -> {
                handled.incrementAndGet();
                return "secret";
            });
        })) {
            try (Connection c = client.connect()) {
                TestResponse refused = c.send(TestRequest.get("/secret"));
                assertThat(refused.status()).isEqualTo(401);
                assertThat(refused.header("WWW-Authenticate")).hasValue("Bearer");
                assertThat(refused.text()).isEqualTo("no token");
                assertThat(handled).hasValue(0);
                assertThat(innerFilter).hasValue(0);

                TestResponse allowed = c.send(TestRequest.get("/secret").header("X-Token", "t"));
                assertThat(allowed.status()).isEqualTo(200);
                assertThat(allowed.text()).isEqualTo("secret");
                assertThat(handled).hasValue(1);
                assertThat(innerFilter).hasValue(1);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modesAndProtocols")
    void aFilterCanShortCircuitWithAnyHandlerValue(Setup setup) {
        try (TestClient client = setup.start(app -> {
            app.group("/json").filter((req, next) -> Map.of("from", "filter")).get("/x", req -> "handler");
            app.group("/none").filter((req, next) -> null).get("/x", req -> "handler");
        })) {
            TestResponse json = client.get("/json/x");
            assertThat(json.header("Content-Type")).hasValue("application/json");
            assertThat(json.text()).isEqualTo("{\"from\":\"filter\"}");
            assertThat(client.get("/none/x").status()).isEqualTo(204);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modesAndProtocols")
    void attributesSetByAFilterAreReadByLaterFiltersAndTheHandler(Setup setup) {
        try (TestClient client = setup.start(app -> {
            app.filter((req, next) -> {
                req.attribute("user", req.header("X-User").orElse("anonymous"));
                return next.proceed(req);
            });
            app.filter((req, next) -> {
                req.attribute("greeting", "hello " + req.attribute("user").orElseThrow());
                return next.proceed(req);
            });
            app.get("/me", req -> req.attribute("greeting").orElse("none") + " / "
                    + req.attribute("user").orElse("none") + " / " + req.attribute("missing").orElse("none"));
        })) {
            try (Connection c = client.connect()) {
                assertThat(c.send(TestRequest.get("/me").header("X-User", "ann")).text())
                        .isEqualTo("hello ann / ann / none");
                // Attributes belong to one request: the next one on the connection starts empty.
                assertThat(c.send(TestRequest.get("/me")).text()).isEqualTo("hello anonymous / anonymous / none");
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modesAndProtocols")
    void filtersRunOnTheHandlersThread(Setup setup) {
        try (TestClient client = setup.start(app -> {
            app.filter((req, next) -> {
                req.attribute("filterThread", Thread.currentThread());
                return next.proceed(req);
            });
            RouteGroup g = app.group("/g");
            g.filter((req, next) -> {
                req.attribute("groupFilterThread", Thread.currentThread());
                return next.proceed(req);
            });
            g.get("/where", req -> {
                Thread t = Thread.currentThread();
                return (req.attribute("filterThread").orElseThrow() == t) + " "
                        + (req.attribute("groupFilterThread").orElseThrow() == t) + " "
                        + t.isVirtual() + " " + t.getName();
            });
        })) {
            try (Connection c = client.connect()) {
                for (int i = 0; i < 5; i++) {
                    String[] parts = c.send(TestRequest.get("/g/where")).text().split(" ", 4);
                    assertThat(parts[0]).as("app filter on the handler's thread").isEqualTo("true");
                    assertThat(parts[1]).as("group filter on the handler's thread").isEqualTo("true");
                    assertThat(parts[2]).as("virtual").isEqualTo(Boolean.toString(setup.mode() == ExecutionMode.VIRTUAL));
                    String expectedPrefix = switch (setup.mode()) {
                        case IO -> "tidemill-io";
                        case LOOP -> "tidemill-loop-";
                        case VIRTUAL -> "tidemill-virtual-";
                        case AUTO -> throw new AssertionError("Setup has no AUTO cell");
                    };
                    assertThat(parts[3]).as("thread name").startsWith(expectedPrefix);
                }
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modesAndProtocols")
    void aFilterCanChangeTheHandlersResponse(Setup setup) {
        try (TestClient client = setup.start(app -> {
            app.filter((req, next) -> {
                Object value = next.proceed(req);
                return value instanceof Response r ? r.header("X-Filtered", "yes")
                        : Response.ok().header("X-Filtered", "wrapped").text(String.valueOf(value));
            });
            app.get("/text", req -> "plain");
            app.get("/response", req -> Response.status(202).text("accepted"));
        })) {
            TestResponse text = client.get("/text");
            assertThat(text.header("X-Filtered")).hasValue("wrapped");
            assertThat(text.text()).isEqualTo("plain");
            TestResponse response = client.get("/response");
            assertThat(response.status()).isEqualTo(202);
            assertThat(response.header("X-Filtered")).hasValue("yes");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modesAndProtocols")
    void filtersRunOnlyForRoutedRequests(Setup setup) {
        AtomicInteger calls = new AtomicInteger();
        try (TestClient client = setup.start(app -> {
            app.filter((req, next) -> {
                calls.incrementAndGet();
                return next.proceed(req);
            });
            app.get("/here", req -> "here");
        })) {
            assertThat(client.get("/nowhere").status()).isEqualTo(404);
            assertThat(client.send(TestRequest.of("POST", "/here")).status()).isEqualTo(405);
            assertThat(calls).hasValue(0);
            assertThat(client.get("/here").text()).isEqualTo("here");
            assertThat(calls).hasValue(1);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modesAndProtocols")
    void aFilterSeesTheCoercedParametersAndTheRoute(Setup setup) {
        try (TestClient client = setup.start(app -> {
            app.filter((req, next) -> req.routePattern() + " " + req.pathParam("id") + " -> " + next.proceed(req));
            app.get("/items/{id}", req -> "item");
        })) {
            assertThat(client.get("/items/a%20b").text()).isEqualTo("/items/{id} a b -> item");
        }
    }
}
