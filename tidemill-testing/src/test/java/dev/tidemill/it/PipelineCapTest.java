package dev.tidemill.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemill.ExecutionMode;
import dev.tidemill.testing.Connection;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code maxPipelined}: a connection never has more requests in the server than the cap; the rest
 * stay unread (or parked) until responses catch up, then everything is answered in order.
 */
@Timeout(60)
class PipelineCapTest {

    @Test
    void noMoreThanTheCapIsInFlightPerConnection() {
        AtomicInteger started = new AtomicInteger();
        CountDownLatch release = new CountDownLatch(1);
        Setup setup = Setup.onDefaultTransport(ExecutionMode.VIRTUAL);
        try (TestClient client = setup.start(b -> b.maxPipelined(4), app -> app.get("/n", req -> {
            started.incrementAndGet();
            release.await();
            return req.query("i").orElseThrow();
        }))) {
            StringBuilder burst = new StringBuilder();
            for (int i = 0; i < 20; i++) burst.append("GET /n?i=").append(i).append(" HTTP/1.1\r\nHost: x\r\n\r\n");
            try (Connection c = client.connect()) {
                c.write(burst.toString().getBytes(StandardCharsets.ISO_8859_1));
                await().atMost(Duration.ofSeconds(10)).until(() -> started.get() == 4);
                // It stays at the cap while nothing is answered (checked over a short window).
                await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(5)).until(() -> started.get() == 4);
                release.countDown();
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
