package dev.tidemill.tests.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemill.testing.TestClient;
import java.time.Duration;

/**
 * What the integration suite reads from a running server's diagnostics: the concurrency slots
 * held and each worker loop's load. Reading them never waits; a test that needs one to settle
 * waits with Awaitility, like every other wait in the suite, for a bound that limits a hung
 * server and is never a measurement.
 */
public final class Diagnostics {
    private Diagnostics() {}

    /** @return every concurrency slot held (requests admitted, any mode), from the server's diagnostics */
    public static int slots(TestClient client) {
        return Math.toIntExact(client.server().diagnostics().get("requests.in_flight"));
    }

    /** @return worker loop {@code i}'s load (queued + in flight), from the server's diagnostics */
    public static int loopLoad(TestClient client, int i) {
        return Math.toIntExact(client.server().diagnostics().get("loop." + i + ".load"));
    }

    /** @return every worker loop's load, summed */
    public static int totalLoopLoad(TestClient client) {
        int total = 0;
        for (int i = 0; i < client.server().workerLoops(); i++) total += loopLoad(client, i);
        return total;
    }

    /** Waits (at most 10 s) until the server holds no concurrency slot, on the worker loops or elsewhere. */
    public static void awaitSlotsReleased(TestClient client) {
        await("every concurrency slot released").atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> assertThat(slots(client) + totalLoopLoad(client)).as("slots held + loop load").isZero());
    }
}
