package dev.tidemill.tests.hardening;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemill.testing.RawConnection;
import dev.tidemill.testing.TestResponse;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Category 6, slow clients: slowloris (a head trickled byte by byte), a connection that sends
 * nothing, a stalled body, a client that never reads its response, an idle keep-alive connection.
 * Each is cut off by its timeout (2 s on this server) while a normal client keeps being served; a
 * head that never completes gets no response (the header-read timeout closes silently), a stalled
 * body gets 408.
 * Nothing here asserts a duration: the waits are upper bounds for the cut-off to have happened.
 */
@Timeout(120)
class SlowClientsTest extends OnHostileServer {
    static final String CAT = "6 slow clients and timeouts";
    private static final Duration CUT_OFF = HostileServer.SHORT.multipliedBy(5);
    @Test
    void slowlorisConnectionsAreCutWhileANormalClientIsServed() throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        List<RawConnection> slow = new ArrayList<>();
        List<Thread> tricklers = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            RawConnection raw = server().client.raw();
            raw.write("GET /echo HTTP/1.1\r\nHost: x\r\n");
            slow.add(raw);
            tricklers.add(Thread.ofPlatform().daemon().start(() -> {
                // one header byte every 100 ms: the head never completes, and bytes keep arriving
                while (!stop.get()) {
                    try {
                        raw.write("X");
                        Thread.sleep(100);
                    } catch (RuntimeException | InterruptedException closed) {
                        return;
                    }
                }
            }));
        }
        try {
            for (int i = 0; i < 20; i++) assertThat(server().client.get("/ok").status()).as("normal client, request %d", i).isEqualTo(200);
            for (RawConnection raw : slow) {
                assertThat(raw.awaitClosed(CUT_OFF)).as("slowloris connection cut").isTrue();
                // the header-read timeout closes without answering (there is no request to answer);
                // bytes that arrived before the close were kept by awaitClosed and would show here
                assertThat(raw.readResponseOrClose()).as("what the server sent before closing").isEmpty();
            }
        } finally {
            stop.set(true);
            for (Thread t : tricklers) t.join(1_000);
            slow.forEach(RawConnection::close);
        }
        assertThat(server().echoed).hasValue(0);
        assertThat(server().client.get("/ok").status()).as("the next client, after the cut").isEqualTo(200);
    }

    @Test
    void aConnectionThatSendsNothingIsClosed() {
        try (RawConnection raw = server().client.raw()) {
            assertThat(raw.awaitClosed(CUT_OFF)).isTrue();
            assertThat(raw.readResponseOrClose()).as("closed without a response").isEmpty();
        }
        assertThat(server().client.get("/ok").status()).isEqualTo(200);
    }

    @Test
    void aStalledBodyGets408AndTheConnectionCloses() {
        try (RawConnection raw = server().client.raw()) {
            raw.write("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n0123456789");
            TestResponse r = raw.readResponse();
            assertThat(r.status()).isEqualTo(408);
            assertThat(r.header("Content-Type")).hasValue("application/problem+json");
            assertThat(raw.awaitClosed(CUT_OFF)).isTrue();
        }
        assertThat(server().echoed).hasValue(0);
        assertThat(server().client.get("/ok").status()).isEqualTo(200);
    }

    @Test
    void anIdleKeepAliveConnectionIsClosed() {
        try (RawConnection raw = server().client.raw()) {
            raw.write("GET /ok HTTP/1.1\r\nHost: x\r\n\r\n");
            assertThat(raw.readResponse().status()).isEqualTo(200);
            assertThat(raw.awaitClosed(CUT_OFF)).isTrue();
        }
    }

    @Test
    void aClientThatNeverReadsItsResponseIsCutByTheWriteStallTimeout() throws Exception {
        int before = server().client.server().openConnections();
        try (Socket s = new Socket()) {
            s.setReceiveBufferSize(4096);
            s.connect(new InetSocketAddress("127.0.0.1", server().client.port()));
            OutputStream out = s.getOutputStream();
            out.write("GET /big HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            await().atMost(CUT_OFF.multipliedBy(2)).untilAsserted(() ->
                    assertThat(server().client.server().openConnections()).as("the server dropped the non-reading client")
                            .isLessThanOrEqualTo(before));
            for (int i = 0; i < 10; i++) assertThat(server().client.get("/ok").status()).isEqualTo(200);
        }
    }

    @Test
    void aSlowReaderThatKeepsReadingIsNotCut() throws IOException {
        // Reads at most 64 KiB every 5 ms: slow, but progress resets the write-stall timer; all 8 MiB arrive.
        try (Socket s = new Socket()) {
            s.setReceiveBufferSize(64 * 1024);
            s.connect(new InetSocketAddress("127.0.0.1", server().client.port()));
            s.getOutputStream().write("GET /big HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            long total = 0;
            byte[] buf = new byte[64 * 1024];
            int n;
            while ((n = s.getInputStream().read(buf)) > 0) {
                total += n;
                try {
                    Thread.sleep(5);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
            assertThat(total).isGreaterThan(HostileServer.BIG_BYTES);
        }
    }
}
