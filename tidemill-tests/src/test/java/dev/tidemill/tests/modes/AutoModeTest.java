package dev.tidemill.tests.modes;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.ExecutionMode;
import dev.tidemill.Request;
import dev.tidemill.RouteMode;
import dev.tidemill.Tidemill;
import dev.tidemill.testing.Connection;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestRequest;
import dev.tidemill.testing.TestResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link ExecutionMode#AUTO} over real sockets: a route starts on VIRTUAL and moves by what its calls
 * measure. Each way: a trivial handler to LOOP and then IO; a computing one to LOOP and no further; a
 * blocking one stays on VIRTUAL; off IO at the first stall (to LOOP, then VIRTUAL once its CPU time
 * shows the wait) or when it computes; off LOOP at the second stall within 64 calls. It does not flap (a handler that
 * blocks on one call in 20 moves a few times in thousands of calls, each try twice as far apart), a
 * handler that returns a CompletionStage is timed until it returns the stage, and an explicit mode is
 * never moved. Where a route runs is read from {@link dev.tidemill.Server#routeModes()} and from the
 * thread each answer names.
 */
@Timeout(120)
class AutoModeTest {
    /** The test's clients: a virtual thread each, so that none waits for a pool the server's code uses. */
    private static final java.util.concurrent.Executor DRIVERS = command -> Thread.ofVirtual().name("auto-mode-client").start(command);
    /** Completes the stages /later returns, off the common pool. */
    private static final java.util.concurrent.ScheduledExecutorService LATER = java.util.concurrent.Executors.newSingleThreadScheduledExecutor();
    /** The handler's thread kind: io, loop or virtual. */
    static String where() {
        Thread t = Thread.currentThread();
        if (t.isVirtual()) return "virtual";
        if (t.getName().startsWith("tidemill-loop")) return "loop";
        if (t.getName().startsWith("tidemill-io")) return "io";
        return "other " + t.getName();
    }

    /** Computes (not waits) for {@code micros}: a spin on the clock, which is CPU time unless the thread is preempted. */
    static String compute(long micros) {
        long end = System.nanoTime() + micros * 1_000;
        long x = 0;
        while (System.nanoTime() < end) x += System.identityHashCode(x);
        return where() + (x == 42 ? "!" : "");
    }

    /** Waits {@code millis} without computing, as a blocking call does. */
    static String block(long millis) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        for (long left; (left = deadline - System.nanoTime()) > 0; ) LockSupport.parkNanos(left);
        return where();
    }

    private static TestClient start(java.util.function.Consumer<Tidemill> routes) {
        Tidemill app = Tidemill.create(TestClient.config().executionMode(ExecutionMode.AUTO).workerLoops(2).build());
        routes.accept(app);
        return TestClient.start(app);
    }

    private static RouteMode mode(TestClient client, String pattern) {
        return client.server().routeModes().stream().filter(m -> m.pattern().equals(pattern)).findFirst().orElseThrow();
    }

    /** @return the value of the /trivial route's series of {@code name} for that mode and reason, from /metrics */
    private static String metric(TestClient client, String name, String mode, String reason) {
        String series = name + "{method=\"GET\",mode=\"" + mode + "\",reason=\"" + reason + "\",route=\"/trivial\"} ";
        return client.get("/metrics").text().lines().filter(l -> l.startsWith(series)).map(l -> l.substring(series.length()))
                .findFirst().orElseThrow(() -> new AssertionError("no series " + series));
    }

    /** Sends GET {@code path} on one connection until the route runs in {@code target}, at most {@code max} times. @return calls sent */
    private static int driveUntil(TestClient client, String path, ExecutionMode target, int max) {
        try (Connection c = client.connect()) {
            for (int i = 1; i <= max; i++) {
                TestResponse r = c.send(TestRequest.get(path));
                assertThat(r.status()).as("%s", r).isEqualTo(200);
                if (mode(client, path).current() == target) return i;
            }
        }
        return max + 1;
    }

    /** As {@link #driveUntil(TestClient, String, ExecutionMode, int)}, over {@code connections} connections at once. @return calls sent */
    private static int driveUntil(TestClient client, String path, ExecutionMode target, int max, int connections) throws Exception {
        AtomicInteger sent = new AtomicInteger();
        List<CompletableFuture<Void>> all = new ArrayList<>();
        for (int k = 0; k < connections; k++) {
            all.add(CompletableFuture.runAsync(() -> {
                try (Connection c = client.connect()) {
                    while (mode(client, path).current() != target && sent.incrementAndGet() <= max) {
                        assertThat(c.send(TestRequest.get(path)).status()).isEqualTo(200);
                    }
                }
            }, DRIVERS));
        }
        for (CompletableFuture<Void> f : all) f.get(100, TimeUnit.SECONDS);
        return mode(client, path).current() == target ? Math.min(sent.get(), max) : max + 1;
    }

    /** Sends GET {@code path} {@code count} times over {@code connections} connections at once. @return the thread kinds answered, in order per connection */
    private static List<String> send(TestClient client, String path, int count, int connections) throws Exception {
        List<CompletableFuture<List<String>>> all = new ArrayList<>();
        AtomicInteger left = new AtomicInteger(count);
        for (int k = 0; k < connections; k++) {
            all.add(CompletableFuture.supplyAsync(() -> {
                List<String> seen = new ArrayList<>();
                try (Connection c = client.connect()) {
                    while (left.getAndDecrement() > 0) {
                        TestResponse r = c.send(TestRequest.get(path));
                        assertThat(r.status()).as("%s", r).isEqualTo(200);
                        seen.add(r.text());
                    }
                }
                return seen;
            }, DRIVERS));
        }
        List<String> out = new ArrayList<>();
        for (CompletableFuture<List<String>> f : all) out.addAll(f.get(100, TimeUnit.SECONDS));
        return out;
    }

    @Test
    void aTrivialRouteMovesFromVirtualToLoopThenToIo() {
        try (TestClient client = start(app -> app.get("/trivial", req -> where()))) {
            RouteMode first = mode(client, "/trivial");
            assertThat(first.declared()).isEqualTo(ExecutionMode.AUTO);
            assertThat(first.current()).isEqualTo(ExecutionMode.VIRTUAL);
            assertThat(first.why()).startsWith("start");
            assertThat(client.get("/trivial").text()).isEqualTo("virtual");
            assertThat(metric(client, "tidemill_route_mode", "VIRTUAL", "start")).isEqualTo("1.0");
            assertThat(driveUntil(client, "/trivial", ExecutionMode.LOOP, 2_000)).as("calls to LOOP").isLessThanOrEqualTo(2_000);
            assertThat(mode(client, "/trivial").why()).startsWith("not blocking");
            assertThat(client.get("/trivial").text()).isEqualTo("loop");
            assertThat(driveUntil(client, "/trivial", ExecutionMode.IO, 30_000)).as("calls to IO").isLessThanOrEqualTo(30_000);
            RouteMode io = mode(client, "/trivial");
            assertThat(io.why()).startsWith("short: ");
            assertThat(io.moves()).isEqualTo(2);
            assertThat(client.get("/trivial").text()).isEqualTo("io");
            assertThat(metric(client, "tidemill_route_mode", "VIRTUAL", "start")).as("the mode it left").isEqualTo("0.0");
            assertThat(metric(client, "tidemill_route_mode", "IO", "short")).isEqualTo("1.0");
            assertThat(client.get("/metrics").text()).contains("tidemill_route_mode_moves_total{method=\"GET\",route=\"/trivial\"} 2.0");
            assertThat(client.server().startupReport()).anySatisfy(line -> assertThat(line).startsWith("mode AUTO for 1 route(s) (GET /trivial)"));
        }
    }

    @Test
    void aComputingRouteSettlesOnLoopAndIsNotPromoted() throws Exception {
        try (TestClient client = start(app -> app.get("/compute", req -> compute(300)))) {
            assertThat(driveUntil(client, "/compute", ExecutionMode.LOOP, 2_000)).isLessThanOrEqualTo(2_000);
            // a window of 10,000 calls, one in 4 timed (300 us is over the 200 us from which they are): none promotes it
            List<String> after = send(client, "/compute", 10_500, 2);
            assertThat(after).as("every call after the move ran on a worker loop").containsOnly("loop");
            RouteMode m = mode(client, "/compute");
            assertThat(m.current()).isEqualTo(ExecutionMode.LOOP);
            assertThat(m.moves()).isEqualTo(1);
            assertThat(m.why()).startsWith("CPU-bound: ");
        }
    }

    @Test
    void aBlockingRouteStaysOnVirtualAndItsTriesBackOff() throws Exception {
        try (TestClient client = start(app -> app.get("/block", req -> block(3)))) {
            List<String> seen = send(client, "/block", 1_200, 16);
            RouteMode m = mode(client, "/block");
            assertThat(m.current()).isEqualTo(ExecutionMode.VIRTUAL);
            assertThat(m.moves()).isZero();
            assertThat(m.why()).startsWith("blocking: a call tried on a worker loop waited ").contains("next try in 1024 calls");
            // 1,200 calls: tries at the 256th and 512 calls later, each a single call; the rest on virtual threads
            assertThat(seen.stream().filter("loop"::equals).count()).as("calls tried on a worker loop").isEqualTo(2);
        }
    }

    @Test
    void anIoRouteLeavesAtItsFirstStallAndEndsOnVirtual() {
        AtomicReference<Boolean> blocking = new AtomicReference<>(false);
        try (TestClient client = start(app -> app.get("/turns", req -> blocking.get() ? block(3) : where()))) {
            assertThat(driveUntil(client, "/turns", ExecutionMode.IO, 40_000)).isLessThanOrEqualTo(40_000);
            blocking.set(true);
            try (Connection c = client.connect()) {
                assertThat(c.send(TestRequest.get("/turns")).text()).as("the stalling call itself").isEqualTo("io");
                // Off IO at the first stall; should the I/O thread have been preempted since its clocks were
                // last read (a busy host), that stall is not certain, and the next call, timed, decides.
                if (mode(client, "/turns").current() == ExecutionMode.IO) assertThat(c.send(TestRequest.get("/turns")).text()).isEqualTo("io");
                RouteMode off = mode(client, "/turns");
                assertThat(off.current()).as("off IO (%s)", off.why()).isNotEqualTo(ExecutionMode.IO);
                if (off.current() == ExecutionMode.LOOP) { // its CPU time was not read (255 calls in 256): timed on the loop next
                    assertThat(off.why()).startsWith("held an I/O thread");
                    // the calls there are timed: the second that waits moves it
                    for (int i = 0; i < 2 && mode(client, "/turns").current() == ExecutionMode.LOOP; i++) {
                        assertThat(c.send(TestRequest.get("/turns")).text()).isEqualTo("loop");
                    }
                }
                RouteMode virtual = mode(client, "/turns");
                assertThat(virtual.current()).as("the wait shows in a timed call (%s)", virtual.why()).isEqualTo(ExecutionMode.VIRTUAL);
                assertThat(virtual.why()).startsWith("stall: a call waited ");
                assertThat(c.send(TestRequest.get("/turns")).text()).isEqualTo("virtual");
            }
            assertThat(mode(client, "/turns").moves()).isBetween(3L, 4L);
        }
    }

    @Test
    void anIoRouteThatStartsComputingMovesToLoop() {
        AtomicReference<Boolean> computing = new AtomicReference<>(false);
        try (TestClient client = start(app -> app.get("/grows", req -> computing.get() ? compute(150) : where()))) {
            assertThat(driveUntil(client, "/grows", ExecutionMode.IO, 40_000)).isLessThanOrEqualTo(40_000);
            computing.set(true);
            // the first timed call over the 20 us ceiling (one call in 256 is timed) makes the next ones timed: four in a row move it
            assertThat(driveUntil(client, "/grows", ExecutionMode.LOOP, 600)).isLessThanOrEqualTo(600);
            RouteMode m = mode(client, "/grows");
            // or, should a call be slowed past 1 ms (the host busy), held the I/O thread too long: off IO either way
            assertThat(m.why()).satisfiesAnyOf(w -> assertThat(w).startsWith("CPU-bound: 4 timed calls in a row took 20.0 us CPU or more"),
                    w -> assertThat(w).startsWith("held an I/O thread"));
            assertThat(client.get("/grows").text()).isEqualTo("loop");
        }
    }

    @Test
    void aLoopRouteLeavesAtItsSecondStall() {
        AtomicReference<Boolean> blocking = new AtomicReference<>(false);
        try (TestClient client = start(app -> app.get("/then-waits", req -> blocking.get() ? block(3) : compute(300)))) {
            assertThat(driveUntil(client, "/then-waits", ExecutionMode.LOOP, 2_000)).isLessThanOrEqualTo(2_000);
            blocking.set(true);
            try (Connection c = client.connect()) {
                assertThat(c.send(TestRequest.get("/then-waits")).text()).isEqualTo("loop");
                assertThat(mode(client, "/then-waits").current()).as("one wait may be the host's").isEqualTo(ExecutionMode.LOOP);
                // one call in 4 of 200 us or more is timed; a long call makes the next ones timed: the second or third wait moves it
                for (int i = 0; i < 2 && mode(client, "/then-waits").current() == ExecutionMode.LOOP; i++) {
                    assertThat(c.send(TestRequest.get("/then-waits")).text()).isEqualTo("loop");
                }
                RouteMode m = mode(client, "/then-waits");
                assertThat(m.current()).as("a second wait within 64 calls moves it (%s)", m.why()).isEqualTo(ExecutionMode.VIRTUAL);
                assertThat(m.why()).startsWith("stall: a call waited ");
                assertThat(c.send(TestRequest.get("/then-waits")).text()).isEqualTo("virtual");
            }
        }
    }

    @Test
    void aRouteThatBlocksNowAndThenDoesNotFlap() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        try (TestClient client = start(app -> app.get("/sometimes", req -> calls.incrementAndGet() % 20 == 0 ? block(3) : where()))) {
            send(client, "/sometimes", 6_000, 8);
            RouteMode m = mode(client, "/sometimes");
            // Each try of a worker loop succeeds (19 calls in 20 are quick), each ends at the next stall,
            // and each failure doubles the wait: tries near calls 256, 800, 1,850, 3,900: at most 8 moves
            // in 6,000 calls. Without the back-off a try every 256 calls would make over 40.
            assertThat(m.moves()).as("moves in 6,000 calls (%s)", m.why()).isBetween(2L, 8L);
            assertThat(m.current()).isIn(ExecutionMode.VIRTUAL, ExecutionMode.LOOP);
        }
    }

    @Test
    void aTrivialRouteOnIoStaysThere() throws Exception {
        try (TestClient client = start(app -> app.get("/steady", req -> where()))) {
            assertThat(driveUntil(client, "/steady", ExecutionMode.IO, 30_000)).isLessThanOrEqualTo(30_000);
            List<String> after = send(client, "/steady", 20_000, 4);
            if (after.stream().allMatch("io"::equals)) {
                assertThat(mode(client, "/steady").moves()).isEqualTo(2);
                return;
            }
            // A call the I/O thread spent 1 ms or more on that neither its run-queue delay nor a collection
            // explains (on a loaded CI host: a safepoint for another thread, a burst of page faults) leaves IO
            // at once, as a real stall must: its CPU time was not read, so it cannot tell. What the route must
            // not do is flap: it went to a worker loop only (never VIRTUAL: no timed call waited), and it
            // comes back to IO once the doubled window of quiet calls has passed.
            assertThat(after).as("off IO only to a worker loop").containsOnly("io", "loop");
            assertThat(driveUntil(client, "/steady", ExecutionMode.IO, 60_000, 4)).isLessThanOrEqualTo(60_000);
            assertThat(mode(client, "/steady").moves()).isBetween(4L, 6L);
        }
    }

    @Test
    void aCompletionStageIsTimedUntilItIsReturnedNotUntilItCompletes() throws Exception {
        try (TestClient client = start(app -> app.get("/later", (Request req) -> {
            String ran = where();
            CompletableFuture<String> answer = new CompletableFuture<>();
            LATER.schedule(() -> answer.complete(ran), 3, TimeUnit.MILLISECONDS);
            return answer;
        }))) {
            assertThat(driveUntil(client, "/later", ExecutionMode.IO, 30_000, 32)).as("awaiting 3 ms is not blocking: it reaches IO")
                    .isLessThanOrEqualTo(30_000);
            assertThat(client.get("/later").text()).isEqualTo("io");
        }
    }

    @Test
    void anExplicitModeWinsOverTheAppsAuto() throws Exception {
        try (TestClient client = start(app -> {
            app.get("/pinned", req -> where()).mode(ExecutionMode.LOOP);
            app.group("/blocking").mode(ExecutionMode.VIRTUAL).get("/trivial", req -> where());
        })) {
            assertThat(send(client, "/pinned", 12_000, 4)).containsOnly("loop");
            assertThat(send(client, "/blocking/trivial", 1_000, 4)).containsOnly("virtual");
            for (String pattern : List.of("/pinned", "/blocking/trivial")) {
                RouteMode m = mode(client, pattern);
                assertThat(m.declared()).isEqualTo(m.current()).isNotEqualTo(ExecutionMode.AUTO);
                assertThat(m.why()).isEqualTo("explicit");
                assertThat(m.moves()).isZero();
            }
            assertThat(client.server().startupReport()).noneSatisfy(line -> assertThat(line).startsWith("mode AUTO for"));
        }
    }
}
