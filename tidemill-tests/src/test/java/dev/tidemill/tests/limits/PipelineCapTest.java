package dev.tidemill.tests.limits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemill.ExecutionMode;
import dev.tidemill.testing.Connection;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestResponse;
import dev.tidemill.tests.support.Setup;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code maxPipelined}: a connection never has more requests in the server than the cap; the rest
 * stay unread (or parked) until responses catch up, then everything is answered in order.
 */
@Timeout(60)
class PipelineCapTest {

    /**
     * Handlers run in IO mode, inline on the connection's one event loop, and wait on a future the
     * test completes. The positive signal that the server is not going to start a fifth: a request
     * on a second connection, served by the same (only) event loop, is answered. That loop already
     * holds all 20 requests (one write), and a server without the cap would have started all of them
     * in the same read, before it could turn to the second connection.
     */
    @Test
    void noMoreThanTheCapIsInFlightPerConnection() {
        AtomicInteger started = new AtomicInteger();
        CompletableFuture<Void> release = new CompletableFuture<>();
        Setup setup = Setup.onDefaultTransport(ExecutionMode.IO);
        try (TestClient client = setup.start(b -> b.maxPipelined(4).ioThreads(1), app -> {
            app.get("/n", req -> {
                started.incrementAndGet();
                String i = req.query("i").orElseThrow();
                return release.thenApply(v -> i);
            });
            app.get("/other", req -> "other");
        })) {
            StringBuilder burst = new StringBuilder();
            for (int i = 0; i < 20; i++) burst.append("GET /n?i=").append(i).append(" HTTP/1.1\r\nHost: x\r\n\r\n");
            try (Connection c = client.connect()) {
                c.write(burst.toString().getBytes(StandardCharsets.ISO_8859_1));
                await().atMost(Duration.ofSeconds(10)).until(() -> started.get() >= 4);
                assertThat(client.get("/other").text()).as("another connection on the same event loop").isEqualTo("other");
                assertThat(started.get()).as("requests of the first connection started, nothing answered yet").isEqualTo(4);
                release.complete(null);
                List<String> bodies = new ArrayList<>();
                for (int i = 0; i < 20; i++) {
                    TestResponse r = c.read();
                    assertThat(r.status()).isEqualTo(200);
                    bodies.add(r.text());
                }
                List<String> expected = new ArrayList<>();
                for (int i = 0; i < 20; i++) expected.add(Integer.toString(i));
                assertThat(bodies).containsExactlyElementsOf(expected);
                assertThat(started.get()).isEqualTo(20);
            }
        }
    }
}
