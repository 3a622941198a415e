package dev.tidemill.tests.timeouts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemill.ExecutionMode;
import dev.tidemill.testing.Connection;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestRequest;
import dev.tidemill.testing.TestResponse;
import dev.tidemill.tests.support.Diagnostics;
import dev.tidemill.tests.support.Setup;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;

/**
 * The request timeout (request read to first response byte): a 504 problem naming
 * {@code requestTimeout}; the handler's future cancelled or its virtual thread interrupted; the slot
 * released (a LOOP handler stuck in CPU keeps it until it returns); the connection goes on; a
 * route's timeout overrides the app's.
 */
@Timeout(60)
class RequestTimeoutTest {
    private static final Duration TIMEOUT = Duration.ofMillis(300);

    private static void assert504(TestResponse r, long millis) {
        assertThat(r.status()).as("%s", r).isEqualTo(504);
        assertThat(r.header("Content-Type")).hasValue("application/problem+json");
        JsonNode p = r.jsonTree();
        assertThat(p.get("status").asInt()).isEqualTo(504);
        assertThat(p.get("detail").asString()).contains("requestTimeout").contains(millis + " ms");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modesAndProtocols")
    void neverAnsweringHandlerGets504AndItsFutureIsCancelled(Setup setup) {
        AtomicReference<CompletableFuture<String>> never = new AtomicReference<>();
        try (TestClient client = setup.start(b -> b.requestTimeout(TIMEOUT), app -> {
            app.get("/never", req -> {
                CompletableFuture<String> f = new CompletableFuture<>();
                never.set(f);
                return f;
            });
            app.get("/ok", req -> "ok");
        })) {
            try (Connection c = client.connect()) {
                assert504(c.send(TestRequest.get("/never")), TIMEOUT.toMillis());
                await("the handler's future is cancelled").atMost(Duration.ofSeconds(10)).until(() -> never.get() != null && never.get().isCancelled());
                Diagnostics.awaitSlotsReleased(client);
                TestResponse next = c.send(TestRequest.get("/ok"));
                assertThat(next.status()).isEqualTo(200);
                assertThat(next.text()).isEqualTo("ok");
                // A second timeout on the same connection works the same way.
                assert504(c.send(TestRequest.get("/never")), TIMEOUT.toMillis());
                assertThat(c.send(TestRequest.get("/ok")).text()).isEqualTo("ok");
                assertThat(c.send(TestRequest.get("/ok")).text()).as("the connection still serves").isEqualTo("ok");
            }
            Diagnostics.awaitSlotsReleased(client);
        }
    }

    @Test
    void blockedVirtualThreadIsInterrupted() throws Exception {
        CountDownLatch forever = new CountDownLatch(1);
        CountDownLatch interrupted = new CountDownLatch(1);
        Setup setup = Setup.onDefaultTransport(ExecutionMode.VIRTUAL);
        try (TestClient client = setup.start(b -> b.requestTimeout(TIMEOUT), app -> {
            app.get("/block", req -> {
                try {
                    forever.await();
                    return "released";
                } catch (InterruptedException e) {
                    interrupted.countDown();
                    throw e;
                }
            });
            app.get("/ok", req -> "ok");
        })) {
            try (Connection c = client.connect()) {
                assert504(c.send(TestRequest.get("/block")), TIMEOUT.toMillis());
                assertThat(interrupted.await(10, TimeUnit.SECONDS)).as("the virtual thread was interrupted").isTrue();
                Diagnostics.awaitSlotsReleased(client);
                assertThat(c.send(TestRequest.get("/ok")).text()).isEqualTo("ok");
            }
        } finally {
            forever.countDown();
        }
    }

    @Test
    void loopHandlerStuckInCpuKeepsItsSlotUntilItReturns() throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        CountDownLatch spinning = new CountDownLatch(1);
        CountDownLatch returned = new CountDownLatch(1);
        Setup setup = Setup.onDefaultTransport(ExecutionMode.LOOP);
        try (TestClient client = setup.start(b -> b.requestTimeout(TIMEOUT), app -> {
            app.get("/spin", req -> {
                spinning.countDown();
                long spins = 0;
                while (!stop.get()) {
                    spins++;
                    Thread.yield(); // busy, but lets other threads run on a small CI machine
                }
                returned.countDown();
                return "late " + spins;
            });
            // Generous: the quick route must not time out just because the spinning loop eats a CPU.
            app.get("/ok", req -> "ok").requestTimeout(Duration.ofSeconds(20));
        })) {
            try (Connection c = client.connect()) {
                assert504(c.send(TestRequest.get("/spin")), TIMEOUT.toMillis());
                assertThat(spinning.await(0, TimeUnit.SECONDS)).isTrue();
                assertThat(Diagnostics.totalLoopLoad(client)).as("the stuck handler keeps its loop slot").isEqualTo(1);
                assertThat(returned.getCount()).as("the handler is still spinning").isEqualTo(1);

                // The connection serves the next request meanwhile (on the other loop).
                assertThat(c.send(TestRequest.get("/ok")).text()).isEqualTo("ok");
                assertThat(Diagnostics.totalLoopLoad(client)).isEqualTo(1);

                stop.set(true);
                assertThat(returned.await(10, TimeUnit.SECONDS)).isTrue();
                await("the slot is released once the handler returns").atMost(Duration.ofSeconds(10))
                        .untilAsserted(() -> assertThat(Diagnostics.totalLoopLoad(client)).isZero());
                // Its late answer is dropped: the next response on the connection is the next request's.
                TestResponse next = c.send(TestRequest.get("/ok"));
                assertThat(next.text()).isEqualTo("ok");
                assertThat(c.send(TestRequest.get("/ok")).text()).as("the connection still serves").isEqualTo("ok");
            }
        } finally {
            stop.set(true);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modesAndProtocols")
    void routeTimeoutOverridesTheAppTimeout(Setup setup) {
        try (TestClient client = setup.start(b -> b.requestTimeout(TIMEOUT), app -> {
            app.get("/short", req -> new CompletableFuture<String>()).requestTimeout(Duration.ofMillis(150));
            app.get("/patient", req -> {
                if (setup.mode() == ExecutionMode.IO) { // must not block the event loop
                    return CompletableFuture.supplyAsync(() -> "patient",
                            CompletableFuture.delayedExecutor(3 * TIMEOUT.toMillis(), TimeUnit.MILLISECONDS));
                }
                Thread.sleep(3 * TIMEOUT.toMillis()); // longer than the app's timeout, well within the route's
                return "patient";
            }).requestTimeout(Duration.ofSeconds(20));
            app.get("/never", req -> new CompletableFuture<String>());
            var group = app.group("/g").requestTimeout(Duration.ofMillis(200));
            group.get("/never", req -> new CompletableFuture<String>());
            group.group("/inner").get("/never", req -> new CompletableFuture<String>());
            group.get("/route", req -> new CompletableFuture<String>()).requestTimeout(Duration.ofMillis(100));
        })) {
            try (Connection c = client.connect()) {
                assert504(c.send(TestRequest.get("/short")), 150);
                assert504(c.send(TestRequest.get("/g/never")), 200);
                assert504(c.send(TestRequest.get("/g/inner/never")), 200);
                assert504(c.send(TestRequest.get("/g/route")), 100);
                TestResponse patient = c.send(TestRequest.get("/patient"));
                assertThat(patient.status()).as("%s", patient).isEqualTo(200);
                assertThat(patient.text()).isEqualTo("patient");
                assert504(c.send(TestRequest.get("/never")), TIMEOUT.toMillis());
            }
            Diagnostics.awaitSlotsReleased(client);
        }
    }
}
