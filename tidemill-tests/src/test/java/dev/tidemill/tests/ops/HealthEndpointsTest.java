package dev.tidemill.tests.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemill.ExecutionMode;
import dev.tidemill.Health;
import dev.tidemill.Operations;
import dev.tidemill.testing.Connection;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestResponse;
import dev.tidemill.tests.support.Setup;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;

/**
 * {@code /livez} and {@code /readyz}: on by default, HEAD-able, never cached; liveness fails only
 * while a worker loop cannot run the probe it was sent (a handler that never returns), naming the
 * loop, and recovers when it returns; readiness runs every registered check within its timeout
 * (unhealthy, throwing and too slow each named) and fails while the server drains.
 */
@Timeout(60)
class HealthEndpointsTest {

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modes")
    void bothAnswerUpByDefaultAndHeadWorks(Setup setup) {
        try (TestClient client = setup.start(app -> app.get("/", req -> "ok"))) {
            for (String path : new String[] {"/livez", "/readyz"}) {
                TestResponse r = client.get(path);
                assertThat(r.status()).as("%s %s", path, r).isEqualTo(200);
                assertThat(r.header("Content-Type")).hasValue("application/json");
                assertThat(r.header("Cache-Control")).hasValue("no-store");
                assertThat(r.jsonTree().get("status").asString()).isEqualTo("up");
                TestResponse head = client.head(path);
                assertThat(head.status()).isEqualTo(200);
                assertThat(head.body()).isEmpty();
                assertThat(head.header("Cache-Control")).hasValue("no-store");
            }
            assertThat(client.get("/livez").jsonTree().get("stuck").size()).isZero();
        }
    }

    @Test
    void aWorkerLoopThatNeverReturnsFailsLivenessNamingIt() throws Exception {
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        try (TestClient client = Setup.onDefaultTransport(ExecutionMode.LOOP).start(
                b -> b.workerLoops(1).operations(Operations.builder().stuckAfter(Duration.ofMillis(300)).build()),
                app -> app.get("/spin", req -> {
                    running.countDown();
                    release.await(); // holds the worker loop's thread: what a handler stuck in a loop does
                    return "done";
                }).requestTimeout(Duration.ofSeconds(50)))) {
            assertThat(client.get("/livez").status()).isEqualTo(200);
            try (Connection c = client.connect()) {
                c.write("GET /spin HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
                assertThat(running.await(10, TimeUnit.SECONDS)).isTrue();
                JsonNode[] body = new JsonNode[1];
                await("/livez fails").atMost(Duration.ofSeconds(10)).until(() -> {
                    TestResponse r = client.get("/livez");
                    body[0] = r.jsonTree();
                    return r.status() == 503;
                });
                assertThat(body[0].get("status").asString()).isEqualTo("down");
                assertThat(body[0].get("stuckAfterMs").asLong()).isEqualTo(300);
                assertThat(body[0].get("stuck").size()).isEqualTo(1);
                assertThat(body[0].get("stuck").get(0).get("loop").asString()).isEqualTo("tidemill-loop-0");
                assertThat(body[0].get("stuck").get(0).get("kind").asString()).isEqualTo("worker");
                assertThat(body[0].get("stuck").get(0).get("unansweredMs").asLong()).as("more than 300 ms, in whole ms").isGreaterThanOrEqualTo(300);
                release.countDown();
                assertThat(c.read().text()).isEqualTo("done");
            }
            await("/livez recovers").atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(client.get("/livez").status()).isEqualTo(200));
        }
    }

    @Test
    void readinessRunsEveryCheckWithItsTimeout() {
        AtomicBoolean dbUp = new AtomicBoolean(true);
        CountDownLatch never = new CountDownLatch(1);
        try (TestClient client = Setup.onDefaultTransport(ExecutionMode.LOOP).start(
                b -> b.operations(Operations.builder().readinessTimeout(Duration.ofMillis(200)).build()),
                app -> app.readiness("db", () -> dbUp.get() ? Health.ok("3 idle") : Health.unhealthy("refused"))
                        .get("/", req -> "ok"))) {
            JsonNode ok = client.get("/readyz").jsonTree();
            assertThat(ok.get("status").asString()).isEqualTo("up");
            assertThat(ok.get("draining").asBoolean()).isFalse();
            assertThat(ok.get("checks").get(0).get("name").asString()).isEqualTo("db");
            assertThat(ok.get("checks").get(0).get("detail").asString()).isEqualTo("3 idle");

            dbUp.set(false);
            TestResponse down = client.get("/readyz");
            assertThat(down.status()).isEqualTo(503);
            assertThat(down.jsonTree().get("checks").get(0).get("status").asString()).isEqualTo("down");
            assertThat(down.jsonTree().get("checks").get(0).get("detail").asString()).isEqualTo("refused");
            assertThat(client.head("/readyz").status()).isEqualTo(503);
            dbUp.set(true);
            assertThat(client.get("/readyz").status()).isEqualTo(200);
        }
        try (TestClient client = Setup.onDefaultTransport(ExecutionMode.LOOP).start(
                b -> b.operations(Operations.builder().readinessTimeout(Duration.ofMillis(200)).build()),
                app -> app.readiness("slow", () -> {
                    try {
                        never.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    return Health.ok();
                }).readiness("broken", () -> {
                    throw new IllegalStateException("password=hunter2");
                }).get("/", req -> "ok"))) {
            for (int i = 0; i < 2; i++) { // the second request awaits the same hung run, it does not start another
                TestResponse r = client.get("/readyz");
                assertThat(r.status()).isEqualTo(503);
                JsonNode checks = r.jsonTree().get("checks");
                assertThat(checks.get(0).get("name").asString()).isEqualTo("slow");
                assertThat(checks.get(0).get("status").asString()).isEqualTo("timeout");
                assertThat(checks.get(1).get("status").asString()).isEqualTo("down");
                assertThat(checks.get(1).get("detail").asString()).isEqualTo("threw java.lang.IllegalStateException");
                assertThat(r.text()).doesNotContain("hunter2");
            }
        } finally {
            never.countDown();
        }
    }

    @Test
    void readinessFailsWhileDraining() throws Exception {
        CompletableFuture<String> held = new CompletableFuture<>();
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch asked = new CountDownLatch(1);
        TestClient client = Setup.onDefaultTransport(ExecutionMode.LOOP).start(app -> app.readiness("asked", () -> {
            asked.countDown();
            return Health.ok();
        }).get("/hold", req -> {
            holding.countDown();
            return held;
        }));
        try (Connection c = client.connect()) {
            c.write("GET /hold HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
            assertThat(holding.await(10, TimeUnit.SECONDS)).isTrue();
            Thread stopper = Thread.ofVirtual().start(() -> client.server().stop(Duration.ofSeconds(20)));
            await("draining").atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(client.server().diagnostics().get("server.draining")).isEqualTo(1L));
            // Pipelined behind the held request: read while the server drains.
            c.write("GET /readyz HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
            assertThat(asked.await(10, TimeUnit.SECONDS)).as("/readyz ran its check").isTrue();
            held.complete("released");
            assertThat(c.read().text()).isEqualTo("released");
            TestResponse ready = c.read();
            assertThat(ready.status()).isEqualTo(503);
            assertThat(ready.jsonTree().get("draining").asBoolean()).isTrue();
            assertThat(ready.jsonTree().get("status").asString()).isEqualTo("down");
            stopper.join();
        } finally {
            client.close();
        }
    }

    @Test
    void healthCanBeTurnedOffOrMoved() {
        try (TestClient client = Setup.onDefaultTransport(ExecutionMode.LOOP).start(b -> b.health(false), app -> app.get("/", req -> "ok"))) {
            assertThat(client.get("/livez").status()).isEqualTo(404);
            assertThat(client.get("/readyz").status()).isEqualTo(404);
        }
        try (TestClient client = Setup.onDefaultTransport(ExecutionMode.LOOP).start(
                b -> b.operations(Operations.builder().livenessPath("/health/live").readinessPath("/health/ready").build()),
                app -> app.get("/livez", req -> "mine"))) {
            assertThat(client.get("/livez").text()).isEqualTo("mine");
            assertThat(client.get("/health/live").status()).isEqualTo(200);
            assertThat(client.get("/health/ready").status()).isEqualTo(200);
        }
    }
}
