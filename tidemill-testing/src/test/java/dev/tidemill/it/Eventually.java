package dev.tidemill.it;

import dev.tidemill.testing.TestClient;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * "Eventually" checks for the integration suite, in the spirit of Awaitility: poll a condition
 * every few milliseconds up to a generous bound. The bounds are limits for a hung server, never
 * measurements: no test asserts how long something took. There is deliberately no "stays true for
 * a while" check: a test that something does not happen waits for the event that proves it (a
 * follow-up request answered in order, a slot released, a connection cut by its timeout).
 */
final class Eventually {
    /** The default bound: generous, so a loaded CI machine never fails a correct server. */
    static final Duration BOUND = Duration.ofSeconds(10);

    private static final long POLL_NANOS = Duration.ofMillis(5).toNanos();

    private Eventually() {}

    /** Waits until {@code condition} holds, at most {@link #BOUND}; fails naming {@code what}. */
    static void until(String what, BooleanSupplier condition) {
        until(BOUND, what, condition);
    }

    /** Waits until {@code condition} holds, at most {@code max}; fails naming {@code what}. */
    static void until(Duration max, String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + max.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("not true within " + max.toMillis() + " ms: " + what);
            }
            LockSupport.parkNanos(POLL_NANOS);
        }
    }

    /** Waits until {@code value} returns {@code expected}, at most {@link #BOUND}; fails showing the last value. */
    static <T> void equals(String what, T expected, Supplier<T> value) {
        Object[] last = new Object[1];
        try {
            until(BOUND, what, () -> {
                last[0] = value.get();
                return java.util.Objects.equals(last[0], expected);
            });
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + ": expected " + expected + " but was " + last[0], e);
        }
    }

    /** @return every concurrency slot held (requests admitted, any mode), from the server's diagnostics */
    static int slots(TestClient client) {
        return Math.toIntExact(client.server().diagnostics().get("requests.in_flight"));
    }

    /** @return worker loop {@code i}'s load (queued + in flight), from the server's diagnostics */
    static int loopLoad(TestClient client, int i) {
        return Math.toIntExact(client.server().diagnostics().get("loop." + i + ".load"));
    }

    /** @return every worker loop's load, summed */
    static int totalLoopLoad(TestClient client) {
        int total = 0;
        for (int i = 0; i < client.server().workerLoops(); i++) total += loopLoad(client, i);
        return total;
    }

    /** Waits until the server holds no concurrency slot, on the worker loops or elsewhere. */
    static void slotsReleased(TestClient client) {
        equals("every concurrency slot released", 0, () -> slots(client) + totalLoopLoad(client));
    }
}
