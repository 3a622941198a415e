package dev.tidemill.tests.http2;

import static dev.tidemill.testing.H2Wire.*;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.Server;
import dev.tidemill.testing.H2Wire;
import dev.tidemill.testing.TestClient;
import dev.tidemill.tests.support.Setup;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * CASES.md H2-16, RFC 9113 6.8: a graceful stop with an HTTP/2 stream in flight sends GOAWAY with
 * the largest stream id and NO_ERROR, then a PING; a request the client sends before it answers the
 * PING is still served; after the ACK a second GOAWAY names the last stream taken, and a stream
 * opened after it never reaches a handler (it is refused, REFUSED_STREAM, or the connection ends first); the stream in flight finishes, then the connection
 * closes and the stop completes.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class Http2GracefulShutdownTest {
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modes")
    void twoGoAwaysAroundAPingAndTheStreamInFlightFinishes(Setup setup) throws Exception {
        CountDownLatch held = new CountDownLatch(1);
        CompletableFuture<String> release = new CompletableFuture<>();
        AtomicInteger hellos = new AtomicInteger();
        try (TestClient client = setup.start(app -> {
                    app.get("/held", req -> {
                        held.countDown();
                        return release;
                    });
                    app.get("/", req -> "hello " + hellos.incrementAndGet());
                });
                H2Wire w = H2Wire.open(client.port())) {
            Server server = client.server();
            w.request(1, "/held");
            assertThat(held.await(10, TimeUnit.SECONDS)).as("the handler started").isTrue();
            CompletableFuture<Void> stopped = CompletableFuture.runAsync(() -> server.stop(Duration.ofSeconds(10)),
                    r -> Thread.ofPlatform().name("test-stopper").start(r));

            Frame first = readUntil(w, f -> f.type() == GOAWAY);
            assertThat(lastStreamId(first)).as("the first GOAWAY: every stream id").isEqualTo(0x7fffffff);
            assertThat(first.errorCode()).isEqualTo(NO_ERROR);
            Frame ping = readUntil(w, f -> f.type() == PING && !f.has(ACK));

            w.request(3, "/"); // sent before the client answered the PING: still taken
            assertThat(w.expectStatus(3)).isEqualTo(200);
            assertThat(new String(w.expectBody(3))).isEqualTo("hello 1");

            w.ping(ACK, ping.payload());
            Frame second = readUntil(w, f -> f.type() == GOAWAY);
            assertThat(lastStreamId(second)).as("the second GOAWAY: the last stream taken").isEqualTo(3);
            assertThat(second.errorCode()).isEqualTo(NO_ERROR);

            w.request(5, "/"); // past the last stream named: refused
            release.complete("late");
            assertThat(w.expectStatus(1)).as("the stream in flight finishes").isEqualTo(200);
            assertThat(new String(w.expectBody(1))).isEqualTo("late");
            w.expectClosed();
            stopped.get(20, TimeUnit.SECONDS);
            assertThat(hellos.get()).as("handler calls for / (stream 5 never reached one)").isEqualTo(1);
            // at most REFUSED_STREAM (RFC 9113 8.7: never processed, safe to retry), if it came before the close
            assertThat(w.seen()).filteredOn(f -> f.streamId() == 5).as("frames on stream 5")
                    .allSatisfy(f -> assertThat(f.type() == RST_STREAM && f.errorCode() == REFUSED_STREAM).as("%s", f).isTrue());
        }
    }

    private static Frame readUntil(H2Wire w, Predicate<Frame> wanted) {
        for (;;) {
            Frame f = w.read();
            if (f == null) throw new AssertionError("closed; saw " + w.seen());
            if (wanted.test(f)) return f;
        }
    }

    private static int lastStreamId(Frame goAway) {
        byte[] p = goAway.payload();
        return ((p[0] & 0x7f) << 24) | ((p[1] & 0xff) << 16) | ((p[2] & 0xff) << 8) | (p[3] & 0xff);
    }
}
