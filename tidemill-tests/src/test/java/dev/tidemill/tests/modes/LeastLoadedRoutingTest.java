package dev.tidemill.tests.modes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemill.Assignment;
import dev.tidemill.ExecutionMode;
import dev.tidemill.testing.Connection;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestResponse;
import dev.tidemill.tests.support.Diagnostics;
import dev.tidemill.tests.support.Setup;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Loop assignment with two worker loops, one of them stuck in a handler that blocks its thread:
 * least-loaded routes every new request to the free loop, round-robin queues some behind the stuck
 * one.
 */
@Timeout(60)
class LeastLoadedRoutingTest {
    private static final int QUICK = 50;
    private static final byte[] BLOCK = "GET /block HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1);

    private final CountDownLatch blocked = new CountDownLatch(1);
    private final CountDownLatch unblock = new CountDownLatch(1);
    private volatile String stuckThread;

    private TestClient start(Assignment assignment) {
        Setup setup = Setup.onDefaultTransport(ExecutionMode.LOOP);
        return setup.start(b -> b.workerLoops(2).assignment(assignment), app -> {
            app.get("/block", req -> {
                stuckThread = Thread.currentThread().getName();
                blocked.countDown();
                unblock.await(); // holds the worker loop thread itself
                return "unblocked";
            });
            app.get("/quick", req -> Thread.currentThread().getName());
        });
    }

    private int stuckIndex() {
        return Integer.parseInt(stuckThread.substring("tidemill-loop-".length()));
    }

    @Test
    void leastLoadedRoutesAroundAStuckLoop() throws Exception {
        try (TestClient client = start(Assignment.LEAST_LOADED); Connection blocker = client.connect()) {
            try {
                leastLoaded(client, blocker);
            } finally {
                unblock.countDown();
            }
        }
    }

    private void leastLoaded(TestClient client, Connection blocker) throws Exception {
        blocker.write(BLOCK);
        assertThat(blocked.await(10, TimeUnit.SECONDS)).as("the blocking handler runs").isTrue();
        String other = stuckThread.equals("tidemill-loop-0") ? "tidemill-loop-1" : "tidemill-loop-0";

        client.timeout(Duration.ofSeconds(5)); // a request queued behind the stuck loop fails fast
        for (int i = 0; i < QUICK; i++) {
            TestResponse r = client.get("/quick");
            assertThat(r.status()).as("quick request %d: %s", i, r).isEqualTo(200);
            assertThat(r.text()).as("quick request %d ran on the free loop", i).isEqualTo(other);
        }
        assertThat(Diagnostics.loopLoad(client, stuckIndex())).as("nothing queued on the stuck loop").isEqualTo(1);

        unblock.countDown();
        assertThat(blocker.read().text()).isEqualTo("unblocked");
        Diagnostics.awaitSlotsReleased(client);
    }

    @Test
    void roundRobinQueuesWorkBehindAStuckLoop() throws Exception {
        try (TestClient client = start(Assignment.ROUND_ROBIN); Connection blocker = client.connect();
                ExecutorService senders = Executors.newVirtualThreadPerTaskExecutor()) {
            try {
                roundRobin(client, blocker, senders);
            } finally {
                unblock.countDown(); // before the executor's close waits for the senders
            }
        }
    }

    private void roundRobin(TestClient client, Connection blocker, ExecutorService senders) throws Exception {
        blocker.write(BLOCK);
        assertThat(blocked.await(10, TimeUnit.SECONDS)).as("the blocking handler runs").isTrue();
        int stuck = stuckIndex();

        List<Future<TestResponse>> quick = new ArrayList<>();
        for (int i = 0; i < QUICK; i++) quick.add(senders.submit(() -> client.get("/quick")));

        // Every quick request is either answered by the free loop or queued on the stuck one.
        await("every quick request answered or queued behind the stuck loop").atMost(Duration.ofSeconds(10)).until(() ->
                quick.stream().filter(Future::isDone).count() + Diagnostics.loopLoad(client, stuck) - 1 == QUICK);
        int queued = Diagnostics.loopLoad(client, stuck) - 1;
        assertThat(queued).as("round-robin queued quick requests on the stuck loop").isPositive();
        assertThat(quick.stream().filter(Future::isDone).count())
                .as("quick requests stuck behind the blocked loop have not completed").isEqualTo(QUICK - queued);

        unblock.countDown();
        assertThat(blocker.read().text()).isEqualTo("unblocked");
        for (Future<TestResponse> f : quick) assertThat(f.get(20, TimeUnit.SECONDS).status()).isEqualTo(200);
        Diagnostics.awaitSlotsReleased(client);
    }
}
