package dev.tidemill.tests.timeouts;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.ExecutionMode;
import dev.tidemill.testing.Connection;
import dev.tidemill.testing.RawConnection;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestRequest;
import dev.tidemill.testing.TestResponse;
import dev.tidemill.tests.support.Setup;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Read timeouts, configured short; the tests assert what happens (a close, a 408), never when:
 * each wait is a generous upper bound. The other timeouts are set long, so only the one under test
 * can explain the effect.
 */
@Timeout(60)
class ReadTimeoutsTest {
    private static final Setup ONE = Setup.onDefaultTransport(ExecutionMode.LOOP);
    private static final Duration SHORT = Duration.ofMillis(300);
    private static final Duration LONG = Duration.ofSeconds(60);
    private static final Duration EVENTUALLY = Duration.ofSeconds(10);

    private final ScheduledExecutorService trickler = Executors.newSingleThreadScheduledExecutor();
    private final AtomicInteger handled = new AtomicInteger();

    @AfterEach
    void stopTrickler() {
        trickler.shutdownNow();
    }

    private TestClient start(Duration idle, Duration headerRead, Duration bodyStall) {
        return ONE.start(b -> b.idleTimeout(idle).headerReadTimeout(headerRead).bodyStallTimeout(bodyStall), app -> {
            app.get("/hello", req -> "hello");
            app.post("/upload", req -> {
                handled.incrementAndGet();
                return "got " + req.body().length;
            });
            app.get("/slow", req -> {
                Thread.sleep(1000); // longer than the idle timeout, inside the handler
                return "slow";
            }).mode(ExecutionMode.VIRTUAL);
        });
    }

    @Test
    void idleKeepAliveConnectionIsClosed() {
        try (TestClient client = start(SHORT, LONG, LONG); Connection c = client.connect()) {
            assertThat(c.send(TestRequest.get("/hello")).status()).isEqualTo(200);
            assertThat(c.isClosedByServer(EVENTUALLY)).isTrue();
        }
    }

    @Test
    void connectionThatSendsNothingIsClosed() {
        try (TestClient client = start(SHORT, LONG, LONG); RawConnection raw = client.raw()) {
            assertThat(raw.awaitClosed(EVENTUALLY)).isTrue();
            assertThat(raw.readAllUntilClose()).isEmpty();
        }
    }

    @Test
    void idleTimeoutDoesNotCutARequestInProgress() {
        try (TestClient client = start(Duration.ofMillis(200), LONG, LONG); Connection c = client.connect()) {
            TestResponse r = c.send(TestRequest.get("/slow"));
            assertThat(r.status()).as("%s", r).isEqualTo(200);
            assertThat(r.text()).isEqualTo("slow");
        }
    }

    @Test
    void trickledHeadIsClosedAfterTheHeaderReadTimeoutWhileOthersAreServed() {
        try (TestClient client = start(LONG, SHORT, LONG); RawConnection slowloris = client.raw()) {
            slowloris.write("GET /hello HTTP/1.1\r\nHost: x\r\n");
            AtomicInteger sent = new AtomicInteger();
            trickler.scheduleWithFixedDelay(() -> {
                try {
                    slowloris.write("X-Trickle-" + sent.incrementAndGet() + ": v\r\n");
                } catch (UncheckedIOException closed) {
                    throw closed; // ends the schedule
                }
            }, 50, 50, TimeUnit.MILLISECONDS);
            for (int i = 0; i < 3; i++) {
                assertThat(client.get("/hello").status()).as("a normal client meanwhile").isEqualTo(200);
            }
            assertThat(slowloris.awaitClosed(EVENTUALLY)).as("slowloris connection closed").isTrue();
            assertThat(sent.get()).as("header lines trickled before the close").isPositive();
        }
    }

    @Test
    void trickledSecondHeadOnAKeepAliveConnectionIsClosedToo() {
        try (TestClient client = start(LONG, SHORT, LONG); RawConnection raw = client.raw()) {
            raw.write("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n");
            assertThat(raw.readResponse().text()).isEqualTo("hello");
            raw.write("GET /hello HTTP/1.1\r\n");
            AtomicInteger sent = new AtomicInteger();
            trickler.scheduleWithFixedDelay(() -> raw.write("X-Trickle-" + sent.incrementAndGet() + ": v\r\n"),
                    50, 50, TimeUnit.MILLISECONDS);
            assertThat(raw.awaitClosed(EVENTUALLY)).as("closed while trickling the second head").isTrue();
        }
    }

    /**
     * The head of the next request starts in the same packet as the previous request, then stops:
     * the header-read timeout runs from its first byte, so it closes the connection (the idle
     * timeout, set long here, must not be what ends it).
     */
    @Test
    void partialHeadSentTogetherWithTheRequestBeforeItIsClosed() {
        try (TestClient client = start(LONG, SHORT, LONG); RawConnection raw = client.raw()) {
            raw.write("GET /hello HTTP/1.1\r\nHost: x\r\n\r\nGET /hello HTTP/1.1\r\nHost: x\r\n");
            assertThat(raw.readResponse().text()).isEqualTo("hello");
            assertThat(raw.awaitClosed(EVENTUALLY)).as("closed with an unfinished head").isTrue();
        }
    }

    @Test
    void refusedRequestWhoseBodyNeverComesIsClosedAfterTheDrainTimeout() {
        try (TestClient client = ONE.start(b -> b.idleTimeout(LONG).headerReadTimeout(LONG).bodyStallTimeout(LONG)
                .drainTimeout(SHORT), app -> app.get("/hello", req -> "hello"));
                RawConnection raw = client.raw()) {
            // 404 with a body small enough to drain, but it never comes.
            raw.write("POST /nowhere HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n");
            TestResponse r = raw.readResponse();
            assertThat(r.status()).as("%s", r).isEqualTo(404);
            assertThat(raw.awaitClosed(EVENTUALLY)).as("closed once the drain timed out").isTrue();
        }
    }

    @Test
    void stalledBodyGets408AndClose() {
        try (TestClient client = start(LONG, LONG, SHORT)) {
            try (RawConnection raw = client.raw()) {
                raw.write("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n12345");
                TestResponse r = raw.readResponse();
                assertThat(r.status()).as("%s", r).isEqualTo(408);
                assertThat(r.header("Content-Type")).hasValue("application/problem+json");
                assertThat(r.jsonTree().get("status").asInt()).isEqualTo(408);
                assertThat(r.text()).contains("bodyStallTimeout");
                assertThat(raw.awaitClosed(Duration.ofSeconds(5))).isTrue();
            }
            assertThat(handled).hasValue(0);
            assertThat(client.get("/hello").status()).isEqualTo(200);
        }
    }

    @Test
    void bodyThatKeepsMovingIsNotAStall() {
        try (TestClient client = start(LONG, LONG, SHORT); RawConnection raw = client.raw()) {
            raw.write("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 20\r\n\r\n");
            // 20 bytes, one every 100 ms: 2 s in all, far longer than the 300 ms stall timeout.
            AtomicInteger sent = new AtomicInteger();
            trickler.scheduleWithFixedDelay(() -> {
                if (sent.get() < 20) {
                    raw.write("b");
                    sent.incrementAndGet();
                }
            }, 100, 100, TimeUnit.MILLISECONDS);
            TestResponse r = raw.readResponse();
            assertThat(r.status()).as("%s", r).isEqualTo(200);
            assertThat(r.text()).isEqualTo("got 20");
        }
    }
}
