package dev.tidemill.tests.timeouts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemill.ExecutionMode;
import dev.tidemill.testing.Connection;
import dev.tidemill.testing.RawConnection;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestRequest;
import dev.tidemill.testing.TestResponse;
import dev.tidemill.tests.support.Diagnostics;
import dev.tidemill.tests.support.Setup;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Persistent connections: HTTP/1.1 keep-alive, {@code Connection: close}, HTTP/1.0 with and without keep-alive. */
@Timeout(60)
class KeepAliveTest {
    private static final Setup ONE = Setup.onDefaultTransport(ExecutionMode.LOOP);

    private final AtomicInteger calls = new AtomicInteger();

    private TestClient start(Setup setup) {
        return setup.start(app -> app.get("/n", req -> {
            calls.incrementAndGet();
            return "n" + req.query("i").orElse("-");
        }));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#all")
    void servesManyRequestsOnOneConnection(Setup setup) {
        try (TestClient client = start(setup); Connection c = client.connect()) {
            for (int i = 0; i < 50; i++) {
                TestResponse r = c.send(TestRequest.get("/n?i=" + i));
                assertThat(r.status()).as("%s", r).isEqualTo(200);
                assertThat(r.text()).isEqualTo("n" + i);
                assertThat(r.header("Connection")).as("%s", r).isEmpty();
            }
            assertThat(calls).hasValue(50);
        }
    }

    @Test
    void connectionCloseIsAnsweredWithCloseAndTheServerCloses() {
        try (TestClient client = start(ONE); RawConnection raw = client.raw()) {
            raw.write("GET /n?i=1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
            TestResponse r = raw.readResponse();
            assertThat(r.status()).as("%s", r).isEqualTo(200);
            assertThat(r.text()).isEqualTo("n1");
            assertThat(r.header("Connection")).as("%s", r).hasValueSatisfying(v -> assertThat(v).isEqualToIgnoringCase("close"));
            assertThat(raw.awaitClosed(Duration.ofSeconds(5))).isTrue();
            assertThat(calls).hasValue(1);
        }
    }

    /**
     * RFC 9112 9.6: after a request that closes the connection, the server MUST NOT process any
     * further request received on it. The next request is in the same write; the first handler
     * waits (up to a second) for it to start, so a server that does process it is caught every time.
     */
    static Stream<Named<String>> closingRequests() {
        return Stream.of(
                Named.of("HTTP/1.1 with Connection: close", "GET /first HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"),
                Named.of("HTTP/1.0 without keep-alive", "GET /first HTTP/1.0\r\n\r\n"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("closingRequests")
    void noRequestIsProcessedAfterTheOneThatClosesTheConnection(String closing) {
        AtomicInteger later = new AtomicInteger();
        try (TestClient client = Setup.onDefaultTransport(ExecutionMode.VIRTUAL).start(app -> {
            app.get("/first", req -> "first");
            app.post("/later", req -> {
                later.incrementAndGet();
                return "later";
            });
        }); RawConnection raw = client.raw()) {
            raw.write(closing + "POST /later HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n");
            TestResponse r = raw.readResponse();
            assertThat(r.text()).isEqualTo("first");
            assertThat(raw.awaitClosed(Duration.ofSeconds(5))).isTrue();
            assertThat(raw.readAllUntilClose()).as("bytes after the response that closes").isEmpty();
            // Both requests arrived in one write: a /later the server had dispatched holds a slot
            // until its handler returns, so once every slot is free it would have run.
            Diagnostics.awaitSlotsReleased(client);
            assertThat(later).as("invocations of the request sent after the closing one").hasValue(0);
        }
    }

    @Test
    void connectionCloseOnAKeepAliveConnectionEndsIt() {
        try (TestClient client = start(ONE); Connection c = client.connect()) {
            assertThat(c.send(TestRequest.get("/n?i=1")).status()).isEqualTo(200);
            TestResponse last = c.send(TestRequest.get("/n?i=2").header("Connection", "close"));
            assertThat(last.status()).isEqualTo(200);
            assertThat(last.header("Connection")).hasValueSatisfying(v -> assertThat(v).isEqualToIgnoringCase("close"));
            assertThat(c.isClosedByServer(Duration.ofSeconds(5))).isTrue();
        }
    }

    /** A client that sends FIN while its request is in flight is treated as gone (RFC 9112 9.6 allows either). */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#transports")
    void aClientFinMeansTheClientIsGoneAndItsHandlerIsAbandoned(Setup setup) throws Exception {
        // Design choice: a FIN cannot be told apart from a client that closed its socket and left,
        // and noticing departures (cancelling handlers, releasing slots) matters more than serving
        // the rare client that half-closes; so a FIN abandons what is still in flight.
        java.util.concurrent.CountDownLatch interrupted = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch started = new java.util.concurrent.CountDownLatch(1);
        try (TestClient client = setup.start(app -> app.get("/slowish", req -> {
            started.countDown();
            try {
                new java.util.concurrent.CountDownLatch(1).await();
            } catch (InterruptedException e) {
                interrupted.countDown();
                throw e;
            }
            return "slowish";
        }).mode(ExecutionMode.VIRTUAL)); RawConnection raw = client.raw()) {
            raw.write("GET /slowish HTTP/1.1\r\nHost: x\r\n\r\n");
            assertThat(started.await(10, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
            raw.shutdownOutput();
            assertThat(raw.awaitClosed(Duration.ofSeconds(10))).as("closed after the client's FIN").isTrue();
            assertThat(interrupted.await(10, java.util.concurrent.TimeUnit.SECONDS)).as("handler interrupted").isTrue();
        }
    }

    @Test
    void http10WithoutKeepAliveIsAnsweredThenClosed() {
        try (TestClient client = start(ONE); RawConnection raw = client.raw()) {
            raw.write("GET /n?i=10 HTTP/1.0\r\n\r\n");
            TestResponse r = raw.readResponse();
            assertThat(r.status()).as("%s", r).isEqualTo(200);
            assertThat(r.text()).isEqualTo("n10");
            assertThat(r.header("Connection")).as("%s", r)
                    .satisfiesAnyOf(h -> assertThat(h).isEmpty(), h -> assertThat(h.get()).isEqualToIgnoringCase("close"));
            assertThat(raw.awaitClosed(Duration.ofSeconds(5))).isTrue();
        }
    }

    @Test
    void http10WithKeepAliveStaysOpen() {
        try (TestClient client = start(ONE); RawConnection raw = client.raw()) {
            for (int i = 0; i < 3; i++) {
                raw.write("GET /n?i=" + i + " HTTP/1.0\r\nConnection: keep-alive\r\n\r\n");
                TestResponse r = raw.readResponse();
                assertThat(r.status()).as("%s", r).isEqualTo(200);
                assertThat(r.text()).isEqualTo("n" + i);
                assertThat(r.header("Connection")).as("%s", r)
                        .hasValueSatisfying(v -> assertThat(v).isEqualToIgnoringCase("keep-alive"));
                // still open: the next request on this connection (the next turn, or n9 below) is answered
            }
            // Ending the sequence without keep-alive closes it.
            raw.write("GET /n?i=9 HTTP/1.0\r\n\r\n");
            assertThat(raw.readResponse().text()).isEqualTo("n9");
            assertThat(raw.awaitClosed(Duration.ofSeconds(5))).isTrue();
        }
    }
}
