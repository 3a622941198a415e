package dev.tidemill.tests.ops;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.ExecutionMode;
import dev.tidemill.Transport;
import dev.tidemill.testing.Connection;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestRequest;
import dev.tidemill.tests.support.Setup;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code Server.diagnostics()}: the counters the benchmark divides by requests. A LOOP request
 * wakes a worker and is answered through a reply drain; an IO request never touches a worker.
 */
@Timeout(60)
class DiagnosticsTest {
    private static final int REQUESTS = 5;

    @Test
    void loopRequestsWakeWorkersAndDrainReplies() {
        try (TestClient client = new Setup(Transport.NIO, ExecutionMode.LOOP).start(app -> app.get("/", req -> "hi"))) {
            Map<String, Long> before = client.server().diagnostics();
            assertThat(before).containsKeys("worker.wakeups", "reply.drains", "requests.in_flight", "connections.open", "loop.0.load");
            send(client);
            Map<String, Long> after = client.server().diagnostics();
            // Requests on one connection are answered one at a time here, so every one is a burst of its own.
            assertThat(after.get("worker.wakeups") - before.get("worker.wakeups")).isBetween(1L, (long) REQUESTS);
            assertThat(after.get("reply.drains") - before.get("reply.drains")).isPositive();
        }
    }

    @Test
    void ioRequestsNeverWakeAWorker() {
        try (TestClient client = new Setup(Transport.NIO, ExecutionMode.IO).start(app -> app.get("/", req -> "hi"))) {
            send(client);
            assertThat(client.server().diagnostics()).containsEntry("worker.wakeups", 0L);
        }
    }

    private static void send(TestClient client) {
        try (Connection c = client.connect()) {
            for (int i = 0; i < REQUESTS; i++) assertThat(c.send(TestRequest.get("/")).status()).isEqualTo(200);
        }
    }
}
