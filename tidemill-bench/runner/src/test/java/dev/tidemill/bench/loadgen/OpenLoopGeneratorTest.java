package dev.tidemill.bench.loadgen;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The generator against a tiny in-process server: counts and the coordinated-omission correction, never speed. */
class OpenLoopGeneratorTest {
    private HttpServer server;

    private int serve(int stallAtRequest, long stallMillis) throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 64);
        AtomicInteger n = new AtomicInteger();
        byte[] body = "ok".getBytes(StandardCharsets.US_ASCII);
        server.createContext("/", ex -> {
            if (n.incrementAndGet() == stallAtRequest) {
                try {
                    Thread.sleep(stallMillis);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            ex.getRequestBody().readAllBytes();
            ex.sendResponseHeaders(200, body.length);
            try (OutputStream o = ex.getResponseBody()) {
                o.write(body);
            }
        });
        server.start(); // one dispatcher thread: a stall holds up every connection
        return server.getAddress().getPort();
    }

    @AfterEach
    void stop() {
        if (server != null) server.stop(0);
    }

    @Test
    void sendsRateTimesDurationAndRecordsEveryAnswer() throws Exception {
        int port = serve(-1, 0);
        OpenLoopGenerator.Result r = new OpenLoopGenerator("127.0.0.1", port, "/plaintext", 200, 4, 1_000, 3_000).run();
        assertThat(r.sent()).isEqualTo(200);
        assertThat(r.count()).isEqualTo(200);
        assertThat(r.histogram().getTotalCount()).isEqualTo(r.count());
        assertThat(r.errors()).isZero();
        assertThat(r.incomplete()).isZero();
        assertThat(r.p50Micros()).isLessThanOrEqualTo(r.p99Micros());
        assertThat(r.p99Micros()).isLessThanOrEqualTo(r.maxMicros());
    }

    @Test
    void aStallIsChargedToEveryRequestDueDuringIt() throws Exception {
        int port = serve(30, 200);
        OpenLoopGenerator.Result r = new OpenLoopGenerator("127.0.0.1", port, "/x", 100, 1, 1_000, 3_000).run();
        assertThat(r.count()).isEqualTo(100);
        assertThat(r.histogram().getTotalCount()).isEqualTo(100);
        // measured from intended send times: the stalled request itself, and the ~20 due behind it
        assertThat(r.maxMicros()).isGreaterThanOrEqualTo(190_000);
        long over100ms = r.histogram().getCountBetweenValues(100_000, r.histogram().getMaxValue());
        assertThat(over100ms).as("requests charged >= 100 ms (uncorrected there would be 1)").isGreaterThanOrEqualTo(5);
        assertThat(r.queuedSends()).isGreaterThanOrEqualTo(5);
    }

    @Test
    void answers503AreCountedAsShedNotAsErrorsOrServed() throws Exception {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 64);
        AtomicInteger n = new AtomicInteger();
        server.createContext("/", ex -> {
            ex.getRequestBody().readAllBytes();
            int status = n.incrementAndGet() % 2 == 0 ? 503 : 200; // every other request turned away
            byte[] body = (status == 503 ? "busy" : "ok").getBytes(StandardCharsets.US_ASCII);
            ex.sendResponseHeaders(status, body.length);
            try (OutputStream o = ex.getResponseBody()) {
                o.write(body);
            }
        });
        server.start();
        OpenLoopGenerator.Result r = new OpenLoopGenerator("127.0.0.1", server.getAddress().getPort(), "/", 100, 4, 1_000, 3_000)
                .run();
        assertThat(r.sent()).isEqualTo(100);
        assertThat(r.count()).isEqualTo(50);
        assertThat(r.shed()).isEqualTo(50);
        assertThat(r.errors()).isZero();
        assertThat(r.incomplete()).isZero();
        assertThat(r.histogram().getTotalCount()).as("served latencies only").isEqualTo(50);
        assertThat(r.shedP99Micros()).isPositive();
    }

    @Test
    void anUnreachableServerFailsFast() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() ->
                new OpenLoopGenerator("127.0.0.1", 1, "/", 10, 1, 100, 100).run()).isInstanceOf(Exception.class);
    }
}
