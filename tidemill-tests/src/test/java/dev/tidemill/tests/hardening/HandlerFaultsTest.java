package dev.tidemill.tests.hardening;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemill.Response;
import dev.tidemill.tests.support.Setup;
import dev.tidemill.testing.RawConnection;
import dev.tidemill.testing.StreamingResponse;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestRequest;
import dev.tidemill.testing.TestResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Category 12, faults in handlers, in every execution mode: exceptions before and after the
 * response started, a handler that never completes, clients that leave mid-request and
 * mid-response. The server answers what it still can, notifies the handler, releases the slot
 * (proven by a concurrency limit of two that would otherwise fill up), releases every buffer
 * (Netty's leak detector tracking every buffer reports none) and keeps serving.
 */
@Timeout(120)
class HandlerFaultsTest {
    static final String CAT = "12 faults in handlers";
    /** Slots per loop: two stuck requests would fill the server if a slot leaked. */
    private static final int SLOTS = 2;

    private static BufferLeaks leaks;

    @BeforeAll
    static void watchBuffers() {
        leaks = BufferLeaks.watch();
    }

    @AfterAll
    static void stopWatching() {
        leaks.close();
    }

    /** Closes the app, then checks no buffer it allocated was dropped unreleased. */
    private static void assertNothingLeaked(App app) throws Exception {
        app.client().close();
        assertThat(leaks.newLeaks()).as("buffers collected without being released").isEmpty();
    }

    private record App(TestClient client, AtomicInteger started, CountDownLatch streamClosed) {}

    private static App start(Setup setup) {
        AtomicInteger started = new AtomicInteger();
        CountDownLatch streamClosed = new CountDownLatch(1);
        TestClient client = setup.start(b -> b.workerLoops(1).concurrencyPerLoop(SLOTS).requestTimeout(Duration.ofSeconds(1)), app -> {
            app.get("/ok", req -> "ok");
            app.get("/throw", req -> {
                throw new IllegalStateException("secret internal detail");
            });
            app.get("/throw-mid-stream", req -> Response.stream("text/plain", s -> {
                s.write("first part");
                throw new IllegalStateException("after the head");
            }));
            app.get("/never", req -> {
                started.incrementAndGet();
                return new CompletableFuture<String>();
            });
            app.post("/echo", req -> {
                started.incrementAndGet();
                return req.body();
            });
            app.get("/endless", req -> Response.stream("text/plain", s -> {
                s.closed().thenRun(streamClosed::countDown);
                Thread.ofPlatform().daemon().start(() -> {
                    while (s.isOpen()) {
                        s.write("tick\n");
                        try {
                            Thread.sleep(10);
                        } catch (InterruptedException e) {
                            return;
                        }
                    }
                });
            }));
        });
        return new App(client, started, streamClosed);
    }

    /** Every slot free: as many concurrent requests as there are slots are all served. */
    private static void assertSlotsFree(TestClient client) throws Exception {
        List<CompletableFuture<Integer>> calls = new ArrayList<>();
        for (int i = 0; i < SLOTS; i++) calls.add(CompletableFuture.supplyAsync(() -> client.get("/ok").status()));
        for (CompletableFuture<Integer> c : calls) assertThat(c.get(10, TimeUnit.SECONDS)).as("slot free").isEqualTo(200);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modes")
    void anExceptionBeforeTheResponseIsA500WithoutItsMessage(Setup setup) throws Exception {
        App app = start(setup);
        try (TestClient client = app.client()) {
            TestResponse r = client.get("/throw");
            assertThat(r.status()).isEqualTo(500);
            assertThat(r.header("Content-Type")).hasValue("application/problem+json");
            assertThat(r.text()).doesNotContain("secret internal detail").doesNotContain("IllegalStateException");
            assertSlotsFree(client);
        }
        assertNothingLeaked(app);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modes")
    void anExceptionAfterTheHeadTruncatesTheBodyAndClosesTheConnection(Setup setup) throws Exception {
        App app = start(setup);
        try (TestClient client = app.client(); RawConnection raw = client.raw()) {
            raw.write("GET /throw-mid-stream HTTP/1.1\r\nHost: x\r\n\r\n");
            String wire = new String(raw.readAllUntilClose(), StandardCharsets.ISO_8859_1);
            assertThat(wire).startsWith("HTTP/1.1 200").contains("first part").doesNotEndWith("0\r\n\r\n");
            assertSlotsFree(client);
        }
        assertNothingLeaked(app);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modes")
    void aHandlerThatNeverCompletesTimesOutAndGivesItsSlotBack(Setup setup) throws Exception {
        App app = start(setup);
        try (TestClient client = app.client()) {
            for (int i = 0; i < SLOTS * 2; i++) {
                TestResponse r = client.get("/never");
                assertThat(r.status()).as("request timeout").isEqualTo(504);
                assertThat(r.header("Content-Type")).hasValue("application/problem+json");
            }
            assertThat(app.started()).hasValue(SLOTS * 2);
            assertSlotsFree(client);
        }
        assertNothingLeaked(app);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modes")
    void aClientLeavingMidRequestNeverReachesTheHandler(Setup setup) throws Exception {
        App app = start(setup);
        try (TestClient client = app.client()) {
            int before = client.server().openConnections();
            for (int i = 0; i < 20; i++) {
                try (RawConnection raw = client.raw()) {
                    raw.write("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n" + "x".repeat(100));
                }
            }
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                    assertThat(client.server().openConnections()).isLessThanOrEqualTo(before));
            assertThat(app.started()).hasValue(0);
            assertSlotsFree(client);
        }
        assertNothingLeaked(app);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modes")
    void aClientLeavingMidResponseIsNoticedAndItsSlotFreed(Setup setup) throws Exception {
        App app = start(setup);
        try (TestClient client = app.client()) {
            try (StreamingResponse s = client.stream(TestRequest.get("/endless"))) {
                assertThat(s.status()).isEqualTo(200);
                assertThat(s.nextChunkText()).contains("tick");
            } // the client leaves with the stream still running
            assertThat(app.streamClosed().await(10, TimeUnit.SECONDS)).as("the producer saw the client leave").isTrue();
            assertSlotsFree(client);
        }
        assertNothingLeaked(app);
    }
}
