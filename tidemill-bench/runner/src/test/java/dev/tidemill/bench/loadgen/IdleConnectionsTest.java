package dev.tidemill.bench.loadgen;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Opening idle keep-alive connections in batches against an in-process server: counts, never speed. */
class IdleConnectionsTest {

    @Test
    void opensEveryConnectionAndKeepsItOpenAfterItsOneAnswer() throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 128);
        AtomicInteger requests = new AtomicInteger();
        server.createContext("/", ex -> {
            requests.incrementAndGet();
            byte[] body = "ok".getBytes(StandardCharsets.US_ASCII);
            ex.sendResponseHeaders(200, body.length);
            try (OutputStream o = ex.getResponseBody()) {
                o.write(body);
            }
        });
        server.start();
        try (IdleConnections c = IdleConnections.open("127.0.0.1", server.getAddress().getPort(), "/plaintext", 120, 50, 10_000)) {
            assertThat(c.answered()).isEqualTo(120);
            assertThat(c.failed()).isZero();
            assertThat(c.closedEarly()).isZero();
            assertThat(requests.get()).as("one request per connection").isEqualTo(120);
        } finally {
            server.stop(0);
        }
    }

    @Test
    void aRefusedConnectionIsCountedAsFailed() throws Exception {
        try (IdleConnections c = IdleConnections.open("127.0.0.1", 1, "/", 3, 2, 2_000)) {
            assertThat(c.answered()).isZero();
            assertThat(c.failed()).isEqualTo(3);
        }
    }
}
