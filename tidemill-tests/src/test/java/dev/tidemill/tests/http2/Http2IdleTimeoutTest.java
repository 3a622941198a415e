package dev.tidemill.tests.http2;

import static dev.tidemill.testing.H2Wire.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemill.Tidemill;
import dev.tidemill.testing.H2Wire;
import dev.tidemill.testing.TestClient;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The idle timeout over HTTP/2 ({@code Timeouts.idle}, here 500 ms): a connection with no stream
 * open ends with GOAWAY NO_ERROR and a close, whether it is silent or sends only PINGs; a stream
 * that takes longer than the timeout is not cut, and the count starts when it ends.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class Http2IdleTimeoutTest {
    static TestClient client;

    @BeforeAll
    static void start() {
        Tidemill app = Tidemill.create(TestClient.config().idleTimeout(Duration.ofMillis(500)).build());
        app.get("/", req -> "hello");
        app.get("/slow", req -> CompletableFuture.supplyAsync(() -> "late", CompletableFuture.delayedExecutor(1500, TimeUnit.MILLISECONDS)));
        client = TestClient.start(app);
    }

    @AfterAll
    static void stop() {
        client.close();
    }

    @Test
    void aSilentConnectionEndsWithGoAwayNoError() {
        try (H2Wire w = H2Wire.open(client.port())) {
            w.timeout(Duration.ofSeconds(10)).expectGoAway(NO_ERROR);
        }
    }

    @Test
    void pingsAloneDoNotKeepAConnectionOpen() {
        try (H2Wire w = H2Wire.open(client.port())) {
            w.timeout(Duration.ofSeconds(10));
            AtomicBoolean goAway = new AtomicBoolean();
            // a PING every 20 ms (Awaitility's poll interval paces it), each answered, until the server ends the connection
            await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20)).until(() -> {
                if (!w.tryRaw(frameBytes(PING, 0, 0, "keepopen".getBytes()))) return true;
                for (Frame f; (f = w.read()) != null; ) {
                    if (f.type() == GOAWAY) {
                        assertThat(f.errorCode()).isEqualTo(NO_ERROR);
                        goAway.set(true);
                        return true;
                    }
                    if (f.type() == PING && f.has(ACK)) return false;
                }
                return true;
            });
            assertThat(goAway).as("GOAWAY while the client only pinged").isTrue();
            w.expectClosed();
        }
    }

    @Test
    void aStreamLongerThanTheTimeoutFinishesAndTheCountStartsAfterIt() {
        try (H2Wire w = H2Wire.open(client.port())) {
            w.timeout(Duration.ofSeconds(10));
            w.request(1, "/slow");
            assertThat(w.expectStatus(1)).isEqualTo(200);
            assertThat(new String(w.expectBody(1))).isEqualTo("late");
            w.request(3, "/"); // right after: the connection is still open
            assertThat(w.expectStatus(3)).isEqualTo(200);
            assertThat(w.seen()).noneMatch(f -> f.type() == GOAWAY);
            w.expectGoAway(NO_ERROR);
        }
    }
}
