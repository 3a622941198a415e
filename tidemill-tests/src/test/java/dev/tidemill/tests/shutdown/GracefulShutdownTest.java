package dev.tidemill.tests.shutdown;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.tidemill.ExecutionMode;
import dev.tidemill.Response;
import dev.tidemill.ResponseStream;
import dev.tidemill.Server;
import dev.tidemill.testing.Connection;
import dev.tidemill.testing.RawConnection;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestRequest;
import dev.tidemill.testing.TestResponse;
import dev.tidemill.tests.support.Setup;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link Server#stop(Duration)}: stop accepting, close idle keep-alive connections at once, let an
 * in-flight request finish (answered with {@code Connection: close}), then complete
 * {@link Server#terminated()}; past the grace the remaining connections are closed; {@link
 * Server#stopNow()} cuts the grace short.
 */
@Timeout(60)
class GracefulShutdownTest {
    private static final String HOLD = "GET /hold HTTP/1.1\r\nHost: x\r\n\r\n";

    /**
     * Starts an app whose {@code /hold} is held until {@code release} completes: IO mode with a
     * future (it must not block the event loop), LOOP and VIRTUAL blocking their thread.
     */
    private static TestClient start(Setup setup, CountDownLatch started, CompletableFuture<Void> release) {
        return setup.start(app -> {
            app.get("/hold", req -> {
                started.countDown();
                if (setup.mode() == ExecutionMode.IO) return release.thenApply(v -> "done");
                release.get(); // blocks the worker loop or virtual thread
                return "done";
            });
            app.get("/quick", req -> "quick");
        });
    }

    private static CompletableFuture<Void> stopInBackground(Server server, Duration grace) {
        return CompletableFuture.runAsync(() -> server.stop(grace), r -> Thread.ofPlatform().name("test-stopper").start(r));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modesAndProtocols")
    void inFlightRequestFinishesWhileIdleConnectionsCloseAndNewOnesAreRefused(Setup setup) throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CompletableFuture<Void> release = new CompletableFuture<>();
        try (TestClient client = start(setup, started, release);
                Connection idle = client.connect();
                RawConnection inFlight = client.raw()) {
            Server server = client.server();
            assertThat(idle.send(TestRequest.get("/quick")).text()).isEqualTo("quick");
            inFlight.write(HOLD);
            assertThat(started.await(10, TimeUnit.SECONDS)).as("the in-flight handler runs").isTrue();

            CompletableFuture<Void> stopped = stopInBackground(server, Duration.ofSeconds(5));
            try {
                assertThat(idle.isClosedByServer(Duration.ofSeconds(10)))
                        .as("the idle keep-alive connection is closed while the in-flight request still runs").isTrue();
                assertThatThrownBy(client::connect).as("new connections are refused once stop began")
                        .isInstanceOf(UncheckedIOException.class);
                assertThat(stopped).as("stop waits for the in-flight request").isNotDone();
                assertThat(server.terminated().toCompletableFuture()).isNotDone();
            } finally {
                release.complete(null); // released by this thread, after stop began on another
            }
            TestResponse r = inFlight.readResponse();
            assertThat(r.status()).as("%s", r).isEqualTo(200);
            assertThat(r.text()).isEqualTo("done");
            assertThat(r.header("Connection")).hasValueSatisfying(v -> assertThat(v).isEqualToIgnoringCase("close"));
            assertThat(inFlight.awaitClosed(Duration.ofSeconds(10))).as("closed after its answer").isTrue();

            stopped.get(10, TimeUnit.SECONDS);
            assertThat(server.terminated().toCompletableFuture()).isCompleted();
            await("every worker loop thread stopped").atMost(Duration.ofSeconds(10))
                    .untilAsserted(() -> assertThat(server.diagnostics().get("worker.loops_running")).isZero());
        } finally {
            release.complete(null);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modesAndProtocols")
    void streamInProgressFinishesDuringTheGrace(Setup setup) throws Exception {
        AtomicReference<ResponseStream> stream = new AtomicReference<>();
        try (TestClient client = setup.start(app -> app.get("/stream", req -> Response.stream("text/plain", out -> {
            stream.set(out); // before the write: the client can read the chunk before this line runs
            out.write("before ");
        })))) {
            Server server = client.server();
            try (var s = client.stream(TestRequest.get("/stream"))) {
                assertThat(s.nextChunkText()).isEqualTo("before ");
                CompletableFuture<Void> stopped = stopInBackground(server, Duration.ofSeconds(5));
                await("the graceful stop began").atMost(Duration.ofSeconds(10)).until(() -> client.server().diagnostics().get("server.draining") == 1L);
                assertThat(stream.get().isOpen()).as("a stream in progress is not cut").isTrue();
                stream.get().write("after");
                assertThat(s.nextChunkText()).isEqualTo("after");
                assertThat(stopped).isNotDone();
                stream.get().close();
                assertThat(s.nextChunk()).as("the stream ends normally").isEmpty();
                stopped.get(10, TimeUnit.SECONDS);
            }
            assertThat(server.terminated().toCompletableFuture()).isCompleted();
        }
    }

    @Test
    void streamStillOpenWhenTheGraceRunsOutIsCut() throws Exception {
        AtomicReference<ResponseStream> stream = new AtomicReference<>();
        try (TestClient client = Setup.onDefaultTransport(ExecutionMode.VIRTUAL).start(app ->
                app.get("/stream", req -> Response.stream("text/plain", out -> {
                    stream.set(out); // never closed; set before the write, which the client can read first
                    out.write("endless ");
                })))) {
            Server server = client.server();
            try (var s = client.stream(TestRequest.get("/stream"))) {
                assertThat(s.nextChunkText()).isEqualTo("endless ");
                CompletableFuture<Void> stopped = stopInBackground(server, Duration.ofMillis(300));
                assertThatThrownBy(s::nextChunk).as("the body is cut off, not ended").isInstanceOf(UncheckedIOException.class);
                stopped.get(10, TimeUnit.SECONDS);
                ResponseStream out = stream.get();
                await("the producer learns the stream is gone").atMost(Duration.ofSeconds(10)).until(() -> out.closed().toCompletableFuture().isDone());
                assertThat(out.isOpen()).isFalse();
                assertThat(out.write("more").toCompletableFuture()).isCompletedExceptionally();
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modesAndProtocols")
    void pipelinedRequestsInFlightAreAllAnsweredAndTheLastClosesTheConnection(Setup setup) throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CompletableFuture<Void> release = new CompletableFuture<>();
        try (TestClient client = start(setup, started, release); RawConnection c = client.raw()) {
            Server server = client.server();
            c.write(HOLD + "GET /quick HTTP/1.1\r\nHost: x\r\n\r\n");
            assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
            CompletableFuture<Void> stopped = stopInBackground(server, Duration.ofSeconds(5));
            await("the graceful stop began").atMost(Duration.ofSeconds(10)).until(() -> client.server().diagnostics().get("server.draining") == 1L);
            release.complete(null);
            TestResponse first = c.readResponse();
            assertThat(first.text()).isEqualTo("done");
            TestResponse second = c.readResponse();
            assertThat(second.status()).as("%s", second).isEqualTo(200);
            assertThat(second.text()).isEqualTo("quick");
            assertThat(second.header("Connection")).hasValueSatisfying(v -> assertThat(v).isEqualToIgnoringCase("close"));
            assertThat(c.awaitClosed(Duration.ofSeconds(10))).isTrue();
            stopped.get(10, TimeUnit.SECONDS);
        } finally {
            release.complete(null);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modesAndProtocols")
    void connectionsStillBusyAfterTheGraceAreClosed(Setup setup) throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CompletableFuture<Void> release = new CompletableFuture<>(); // never completed before the end
        try (TestClient client = start(setup, started, release); RawConnection inFlight = client.raw()) {
            Server server = client.server();
            inFlight.write(HOLD);
            assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();

            CompletableFuture<Void> stopped = stopInBackground(server, Duration.ofMillis(300));
            assertThat(inFlight.awaitClosed(Duration.ofSeconds(10))).as("closed once the grace ran out").isTrue();
            stopped.get(15, TimeUnit.SECONDS); // a LOOP handler that never returns is waited for 5 s at most
            assertThat(server.terminated().toCompletableFuture()).isCompleted();
        } finally {
            release.complete(null);
        }
    }

    @Test
    void stopNowCutsTheGraceShort() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CompletableFuture<Void> release = new CompletableFuture<>();
        try (TestClient client = start(Setup.onDefaultTransport(ExecutionMode.VIRTUAL), started, release);
                RawConnection inFlight = client.raw()) {
            Server server = client.server();
            inFlight.write(HOLD);
            assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();

            CompletableFuture<Void> stopped = stopInBackground(server, Duration.ofMinutes(5));
            await("the graceful stop began").atMost(Duration.ofSeconds(10)).until(() -> client.server().diagnostics().get("server.draining") == 1L);
            assertThat(stopped).isNotDone();
            server.stopNow();
            stopped.get(10, TimeUnit.SECONDS); // far less than the 5-minute grace
            assertThat(inFlight.awaitClosed(Duration.ofSeconds(10))).isTrue();
            assertThat(server.terminated().toCompletableFuture()).isCompleted();
        } finally {
            release.complete(null);
        }
    }
}
