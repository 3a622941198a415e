package dev.tidemill.tests.modes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemill.ExecutionMode;
import dev.tidemill.Request;
import dev.tidemill.testing.Connection;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestRequest;
import dev.tidemill.testing.TestResponse;
import dev.tidemill.tests.support.Diagnostics;
import dev.tidemill.tests.support.Setup;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Execution modes: IO handlers run on the connection's event loop, LOOP handlers on a worker loop,
 * VIRTUAL handlers on a virtual thread; a route's mode overrides the app's; a LOOP handler awaiting
 * a CompletionStage does not hold its loop.
 */
@Timeout(60)
class ExecutionModesTest {

    /** The handler's thread, as {@code name|virtual}. */
    private static String where(Request req) {
        Thread t = Thread.currentThread();
        return t.getName() + "|" + t.isVirtual();
    }

    private static void assertRanIn(ExecutionMode mode, TestResponse r) {
        assertThat(r.status()).as("%s", r).isEqualTo(200);
        String[] thread = r.text().split("\\|");
        switch (mode) {
            case IO -> {
                assertThat(thread[0]).as("IO handler thread").startsWith("tidemill-io");
                assertThat(thread[1]).isEqualTo("false");
            }
            case LOOP -> {
                assertThat(thread[0]).as("LOOP handler thread").matches("tidemill-loop-\\d+");
                assertThat(thread[1]).isEqualTo("false");
            }
            case VIRTUAL -> assertThat(thread[1]).as("VIRTUAL handler on a virtual thread (%s)", thread[0]).isEqualTo("true");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#all")
    void handlerRunsWhereTheAppModeSays(Setup setup) {
        try (TestClient client = setup.start(app -> app.get("/where", ExecutionModesTest::where))) {
            try (Connection c = client.connect()) {
                for (int i = 0; i < 3; i++) assertRanIn(setup.mode(), c.send(TestRequest.get("/where")));
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#all")
    void routeModeOverridesTheAppMode(Setup setup) {
        try (TestClient client = setup.start(app -> {
            app.get("/io", ExecutionModesTest::where).mode(ExecutionMode.IO);
            app.get("/loop", ExecutionModesTest::where).mode(ExecutionMode.LOOP);
            app.get("/virtual", ExecutionModesTest::where).mode(ExecutionMode.VIRTUAL);
        })) {
            try (Connection c = client.connect()) {
                assertRanIn(ExecutionMode.IO, c.send(TestRequest.get("/io")));
                assertRanIn(ExecutionMode.LOOP, c.send(TestRequest.get("/loop")));
                assertRanIn(ExecutionMode.VIRTUAL, c.send(TestRequest.get("/virtual")));
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modes")
    void groupModeAppliesToItsRoutesAndNestedGroups(Setup setup) {
        ExecutionMode groupMode = setup.mode() == ExecutionMode.VIRTUAL ? ExecutionMode.IO : ExecutionMode.VIRTUAL;
        try (TestClient client = setup.start(app -> {
            var group = app.group("/g").mode(groupMode);
            group.get("/where", ExecutionModesTest::where);
            group.group("/inner").get("/where", ExecutionModesTest::where); // inherits the enclosing group's mode
            group.get("/loop", ExecutionModesTest::where).mode(ExecutionMode.LOOP); // the route beats its group
            app.get("/app", ExecutionModesTest::where);
        })) {
            try (Connection c = client.connect()) {
                assertRanIn(groupMode, c.send(TestRequest.get("/g/where")));
                assertRanIn(groupMode, c.send(TestRequest.get("/g/inner/where")));
                assertRanIn(ExecutionMode.LOOP, c.send(TestRequest.get("/g/loop")));
                assertRanIn(setup.mode(), c.send(TestRequest.get("/app")));
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#transports")
    void loopHandlerAwaitingAFutureDoesNotHoldItsLoop(Setup setup) throws Exception {
        CompletableFuture<String> answer = new CompletableFuture<>();
        CountDownLatch pendingStarted = new CountDownLatch(1);
        String[] pendingThread = new String[1];
        try (TestClient client = setup.start(b -> b.workerLoops(1), app -> {
            app.get("/pending", req -> {
                pendingThread[0] = Thread.currentThread().getName();
                pendingStarted.countDown();
                return answer;
            });
            app.get("/quick", ExecutionModesTest::where);
        })) {
            try (Connection waiting = client.connect()) {
                waiting.write(("GET /pending HTTP/1.1\r\nHost: x\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
                assertThat(pendingStarted.await(10, TimeUnit.SECONDS)).as("the /pending handler ran").isTrue();
                assertThat(pendingThread[0]).isEqualTo("tidemill-loop-0");

                // The only loop returned from /pending: it serves other requests while the future is open.
                for (int i = 0; i < 3; i++) {
                    TestResponse quick = client.get("/quick");
                    assertThat(quick.text()).isEqualTo("tidemill-loop-0|false");
                }
                assertThat(answer).isNotDone();
                assertThat(Diagnostics.totalLoopLoad(client))
                        .as("the awaiting request still holds its slot").isEqualTo(1);

                answer.complete("finally");
                TestResponse late = waiting.read();
                assertThat(late.status()).isEqualTo(200);
                assertThat(late.text()).isEqualTo("finally");
            }
            Diagnostics.awaitSlotsReleased(client);
        }
    }
}
