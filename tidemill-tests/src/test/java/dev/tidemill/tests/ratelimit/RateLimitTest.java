package dev.tidemill.tests.ratelimit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemill.Cors;
import dev.tidemill.ExecutionMode;
import dev.tidemill.RateLimit;
import dev.tidemill.RouteGroup;
import dev.tidemill.Tidemill;
import dev.tidemill.testing.Connection;
import dev.tidemill.testing.RawConnection;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestRequest;
import dev.tidemill.testing.TestResponse;
import dev.tidemill.tests.support.Setup;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Rate limits: the boundary (exactly the burst admitted, one more refused), the 429 and its
 * headers, refill, nearest-wins and shared budgets, keys (header, function), exemptions
 * (operational routes, preflights), the decision made before the body is read, and memory bounded
 * under many keys.
 */
@Timeout(60)
class RateLimitTest {

    private static TestClient start(Setup setup, Consumer<Tidemill> routes) {
        Tidemill app = Tidemill.create(setup.config().build());
        routes.accept(app);
        return TestClient.start(app).timeout(Duration.ofSeconds(20)).protocol(setup.protocol());
    }

    private static TestClient start(Consumer<Tidemill> routes) {
        return start(Setup.onDefaultTransport(ExecutionMode.LOOP), routes);
    }

    private static RateLimit hourly(String name, int n) {
        return RateLimit.builder(name).requests(n).per(Duration.ofHours(1)).build();
    }

    static java.util.stream.Stream<Setup> modes() {
        return Setup.modes();
    }

    @ParameterizedTest
    @MethodSource("modes")
    void exactlyTheBurstIsAdmittedAndTheNextIsRefusedWithTheDraftHeaders(Setup setup) {
        AtomicInteger ran = new AtomicInteger();
        try (TestClient client = start(setup, app -> app.get("/r", req -> "ok " + ran.incrementAndGet())
                .rateLimit(RateLimit.builder("burst-test").requests(3).per(Duration.ofSeconds(60)).build()))) {
            try (Connection c = client.connect()) {
                for (int i = 1; i <= 3; i++) assertThat(c.send(TestRequest.get("/r")).status()).as("request %d", i).isEqualTo(200);
                TestResponse refused = c.send(TestRequest.get("/r"));
                assertThat(refused.status()).isEqualTo(429);
                assertThat(refused.header("Content-Type")).contains("application/problem+json");
                assertThat(refused.text()).contains("burst-test").contains("3 per 60 s");
                long retry = Long.parseLong(refused.header("Retry-After").orElseThrow());
                assertThat(retry).isBetween(1L, 20L); // one more request every 20 s
                assertThat(refused.header("RateLimit-Policy")).contains("\"burst-test\";q=3;w=60");
                assertThat(refused.header("RateLimit")).contains("\"burst-test\";r=0;t=" + retry);
                assertThat(ran).hasValue(3);
                // the connection is kept and the next refusal is the same
                assertThat(c.send(TestRequest.get("/r")).status()).isEqualTo(429);
            }
        }
    }

    /** The same budget over HTTP/1.1 and HTTP/2, a connection per request: the limit keys by the client, not the connection. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modesAndProtocols")
    void theBurstIsTheClientsOverEitherProtocol(Setup setup) {
        AtomicInteger ran = new AtomicInteger();
        try (TestClient client = start(setup, app -> app.get("/r", req -> "ok " + ran.incrementAndGet())
                .rateLimit(RateLimit.builder("per-client").requests(3).per(Duration.ofSeconds(60)).build()))) {
            for (int i = 1; i <= 3; i++) assertThat(client.send(TestRequest.get("/r")).status()).as("request %d", i).isEqualTo(200);
            TestResponse refused = client.send(TestRequest.get("/r"));
            assertThat(refused.status()).isEqualTo(429);
            assertThat(refused.header("Content-Type")).contains("application/problem+json");
            assertThat(refused.text()).contains("per-client").contains("3 per 60 s");
            assertThat(refused.header("RateLimit-Policy")).contains("\"per-client\";q=3;w=60");
            assertThat(ran).hasValue(3);
        }
    }

    @Test
    void theBudgetRefillsWithTime() {
        try (TestClient client = start(app -> app.get("/r", req -> "ok")
                .rateLimit(RateLimit.builder("refill").requests(2).per(Duration.ofSeconds(1)).build()))) {
            try (Connection c = client.connect()) {
                int admitted = 0;
                while (c.send(TestRequest.get("/r")).status() == 200) admitted++;
                assertThat(admitted).isBetween(2, 3); // 2, or 3 if half a second passed in between
                await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50))
                        .until(() -> c.send(TestRequest.get("/r")).status() == 200);
            }
        }
    }

    @Test
    void oneLimitObjectIsOneBudgetAndTheNearestLimitWins() {
        RateLimit shared = hourly("shared", 3);
        try (TestClient client = start(app -> {
            app.get("/a", req -> "a").rateLimit(shared);
            app.get("/b", req -> "b").rateLimit(shared);
            RouteGroup g = app.group("/g").rateLimit(hourly("group", 1));
            g.get("/x", req -> "x");
            g.get("/own", req -> "own").rateLimit(hourly("own", 2));
            app.get("/free", req -> "free");
        })) {
            try (Connection c = client.connect()) {
                assertThat(c.send(TestRequest.get("/a")).status()).isEqualTo(200);
                assertThat(c.send(TestRequest.get("/a")).status()).isEqualTo(200);
                assertThat(c.send(TestRequest.get("/b")).status()).isEqualTo(200);
                assertThat(c.send(TestRequest.get("/b")).status()).as("the shared budget is spent").isEqualTo(429);
                assertThat(c.send(TestRequest.get("/a")).status()).isEqualTo(429);
                assertThat(c.send(TestRequest.get("/g/x")).status()).isEqualTo(200);
                assertThat(c.send(TestRequest.get("/g/x")).status()).isEqualTo(429);
                assertThat(c.send(TestRequest.get("/g/own")).status()).as("its own limit, not the group's").isEqualTo(200);
                assertThat(c.send(TestRequest.get("/g/own")).status()).isEqualTo(200);
                assertThat(c.send(TestRequest.get("/g/own")).status()).isEqualTo(429);
                for (int i = 0; i < 10; i++) assertThat(c.send(TestRequest.get("/free")).status()).isEqualTo(200);
            }
        }
    }

    @Test
    void operationalRoutesAndPreflightsAreExempt() {
        try (TestClient client = start(app -> {
            app.rateLimit(hourly("app", 1));
            app.cors(Cors.builder().allowOrigins("https://app.example").allowMethods("PUT").build());
            app.get("/probe", req -> "live").operational(true); // an app's own operational route
            app.put("/data", req -> "put");
        })) {
            try (Connection c = client.connect()) {
                for (int i = 0; i < 10; i++) {
                    assertThat(c.send(TestRequest.get("/probe")).status()).isEqualTo(200);
                    assertThat(c.send(TestRequest.get("/livez")).status()).as("the server's own").isEqualTo(200);
                    assertThat(c.send(TestRequest.of("OPTIONS", "/data").header("Origin", "https://app.example")
                            .header("Access-Control-Request-Method", "PUT")).status()).isEqualTo(204);
                }
                assertThat(c.send(TestRequest.of("PUT", "/data")).status()).isEqualTo(200);
                assertThat(c.send(TestRequest.of("PUT", "/data")).status()).isEqualTo(429);
            }
        }
    }

    @Test
    void aHeaderKeyGivesEachValueItsBudgetAndItsAbsenceFallsBackToTheAddress() {
        try (TestClient client = start(app -> app.get("/r", req -> "ok")
                .rateLimit(RateLimit.builder("keyed").requests(1).per(Duration.ofHours(1)).byHeader("X-Api-Key").build()))) {
            try (Connection c = client.connect()) {
                assertThat(c.send(TestRequest.get("/r").header("X-Api-Key", "alice")).status()).isEqualTo(200);
                assertThat(c.send(TestRequest.get("/r").header("X-Api-Key", "alice")).status()).isEqualTo(429);
                assertThat(c.send(TestRequest.get("/r").header("X-Api-Key", "bob")).status()).isEqualTo(200);
                assertThat(c.send(TestRequest.get("/r")).status()).isEqualTo(200);
                assertThat(c.send(TestRequest.get("/r")).status()).as("no header: the address's budget").isEqualTo(429);
            }
        }
    }

    @Test
    void aKeyFunctionCanExemptARequest() {
        try (TestClient client = start(app -> app.get("/r", req -> "ok").rateLimit(RateLimit.builder("fn").requests(1)
                .per(Duration.ofHours(1)).by(req -> req.query("tier").filter(t -> !t.equals("internal"))).build()))) {
            try (Connection c = client.connect()) {
                assertThat(c.send(TestRequest.get("/r?tier=free")).status()).isEqualTo(200);
                assertThat(c.send(TestRequest.get("/r?tier=free")).status()).isEqualTo(429);
                for (int i = 0; i < 5; i++) assertThat(c.send(TestRequest.get("/r?tier=internal")).status()).isEqualTo(200);
                assertThat(c.send(TestRequest.get("/r")).status()).as("no key: exempt").isEqualTo(200);
            }
        }
    }

    @Test
    void theDecisionComesBeforeTheBodyIsRead() {
        AtomicInteger ran = new AtomicInteger();
        try (TestClient client = start(app -> app.post("/upload", req -> "got " + req.body().length + " " + ran.incrementAndGet())
                .rateLimit(hourly("upload", 1)))) {
            assertThat(client.post("/upload", "text/plain", "x").status()).isEqualTo(200);
            try (RawConnection raw = client.raw()) {
                // a head announcing a body that never comes: the 429 is the answer all the same
                raw.write("POST /upload HTTP/1.1\r\nHost: t\r\nContent-Type: text/plain\r\nContent-Length: 100000\r\n\r\n");
                TestResponse r = raw.readResponse();
                assertThat(r.status()).isEqualTo(429);
            }
            assertThat(ran).hasValue(1);
        }
    }

    @Test
    void manyKeysStayWithinMaxKeysAndNewKeysShareTheOverflowBudget() {
        try (TestClient client = start(app -> app.get("/r", req -> "ok").rateLimit(RateLimit.builder("many")
                .requests(1).per(Duration.ofHours(1)).byHeader("X-Key").maxKeys(100).build()))) {
            try (Connection c = client.connect()) {
                for (int i = 0; i < 100; i++) {
                    assertThat(c.send(TestRequest.get("/r").header("X-Key", "k" + i)).status()).isEqualTo(200);
                }
                // the table is full of active keys: the first newcomer takes the overflow budget, the next finds it spent
                assertThat(c.send(TestRequest.get("/r").header("X-Key", "new-1")).status()).isEqualTo(200);
                for (int i = 2; i < 1_000; i++) {
                    assertThat(c.send(TestRequest.get("/r").header("X-Key", "new-" + i)).status()).isEqualTo(429);
                }
                // keys already held keep their own budgets
                assertThat(c.send(TestRequest.get("/r").header("X-Key", "k5")).status()).isEqualTo(429);
            }
            assertThat(client.server().diagnostics().get("ratelimit.many.keys")).isEqualTo(101L); // 100 + the overflow budget
            assertThat(client.server().diagnostics().get("ratelimit.many.overflowed")).isEqualTo(999L);
        }
    }

    @Test
    void idleKeysAreSweptSoMemoryIsReturned() {
        try (TestClient client = start(app -> app.get("/r", req -> "ok").rateLimit(RateLimit.builder("sweep")
                .requests(100).per(Duration.ofSeconds(1)).burst(1).byHeader("X-Key").maxKeys(50).build()))) {
            try (Connection c = client.connect()) {
                // each key's budget is full again 10 ms after its request, so a full table is swept, never overflowed
                for (int i = 0; i < 500; i++) {
                    String key = "k" + i;
                    await().atMost(Duration.ofSeconds(10)).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(5))
                            .until(() -> c.send(TestRequest.get("/r").header("X-Key", key)).status() == 200);
                }
            }
            assertThat(client.server().diagnostics().get("ratelimit.sweep.keys")).isLessThanOrEqualTo(50L);
            assertThat(client.server().diagnostics().get("ratelimit.sweep.overflowed")).as("swept, never overflowed").isZero();
        }
    }

    @Test
    void aFunctionKeyedLimitSeesRequestParameters() {
        try (TestClient client = start(app -> app.get("/t/{tenant}", req -> "ok").rateLimit(RateLimit.builder("tenant")
                .requests(1).per(Duration.ofHours(1)).by(req -> Optional.of(req.pathParam("tenant"))).build()))) {
            try (Connection c = client.connect()) {
                assertThat(c.send(TestRequest.get("/t/a")).status()).isEqualTo(200);
                assertThat(c.send(TestRequest.get("/t/a")).status()).isEqualTo(429);
                assertThat(c.send(TestRequest.get("/t/b")).status()).isEqualTo(200);
            }
        }
    }
}
