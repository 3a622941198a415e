package dev.tidemill.tests.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemill.ExecutionMode;
import dev.tidemill.Tidemill;
import dev.tidemill.testing.TestClient;
import dev.tidemill.tests.support.Setup;
import dev.tidemill.tests.support.TestCertificates;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Hostile TLS clients (CASES TLS-05, TLS-06, and the handshake flood): many raw TCP connections
 * that never send a ClientHello or stall halfway through one, a ClientHello dribbled two bytes at a
 * time, one that declares 16 MiB, and plain HTTP on the TLS port. While the flood is open, an
 * established TLS keep-alive connection keeps getting answers; the flood is cut by the handshake
 * limit and timeout; afterwards new TLS and plain clients are served.
 */
class TlsHandshakeFloodTest {
    private static final int FLOOD = 60;
    private static final int MAX_HANDSHAKES = 16;

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(ExecutionMode.class)
    void stalledHandshakesDoNotStarveAnEstablishedConnection(ExecutionMode mode) throws Exception {
        TestCertificates.Pair pair = TestCertificates.selfSigned(dir, "server", "DNS:localhost,IP:127.0.0.1");
        Tidemill app = Tidemill.create(Setup.onDefaultTransport(mode).config().tls(t -> t.port(0)
                .certificate(pair.certificate()).key(pair.key())
                .maxHandshakes(MAX_HANDSHAKES).handshakeTimeout(Duration.ofSeconds(2))).build());
        app.get("/hello", req -> "hello");
        try (TestClient plain = TestClient.start(app);
                TestClient https = plain.tls(TestClient.trusting(pair.certificate()));
                dev.tidemill.testing.Connection established = https.connect()) {
            int port = plain.server().tlsPort().orElseThrow();
            assertThat(established.send(dev.tidemill.testing.TestRequest.get("/hello")).status()).isEqualTo(200);
            List<Socket> flood = new ArrayList<>();
            try {
                for (int i = 0; i < FLOOD; i++) {
                    Socket s = new Socket("127.0.0.1", port);
                    // half send the start of a record header and stall, half send nothing at all
                    if (i % 2 == 0) s.getOutputStream().write(new byte[] {0x16, 0x03, 0x01, 0x02});
                    flood.add(s);
                }
                await().atMost(Duration.ofSeconds(30)).until(() -> plain.server().diagnostics().get("tls.handshakes.over_limit") > 0);
                for (int i = 0; i < 20; i++) {
                    assertThat(established.send(dev.tidemill.testing.TestRequest.get("/hello")).text())
                            .as("request %d during the flood, on the established connection", i).isEqualTo("hello");
                }
                await().atMost(Duration.ofSeconds(30)).until(() -> plain.server().diagnostics().get("tls.handshakes.timed_out") > 0);
                for (Socket s : flood) assertThat(closedByServer(s)).as("a stalled handshake is cut").isTrue();
            } finally {
                for (Socket s : flood) s.close();
            }
            assertThat(plain.server().diagnostics().get("tls.handshakes.over_limit")).isPositive();
            try (TestClient fresh = plain.tls(TestClient.trusting(pair.certificate()))) {
                assertThat(fresh.get("/hello").status()).isEqualTo(200);
            }
            assertThat(plain.get("/hello").status()).isEqualTo(200);
            assertThat(established.send(dev.tidemill.testing.TestRequest.get("/hello")).status()).isEqualTo(200);
        }
    }

    @ParameterizedTest
    @EnumSource(value = dev.tidemill.Tls.Provider.class, names = {"OPENSSL", "JDK"})
    void dribbledOversizedAndPlainTextHellosAreClosed(dev.tidemill.Tls.Provider provider) throws Exception {
        TestCertificates.Pair pair = TestCertificates.selfSigned(dir, "server", "DNS:localhost,IP:127.0.0.1");
        Tidemill app = Tidemill.create(TestClient.config().tls(t -> t.port(0).provider(provider)
                .certificate(pair.certificate()).key(pair.key()).handshakeTimeout(Duration.ofSeconds(2))).build());
        app.get("/hello", req -> "hello");
        try (TestClient plain = TestClient.start(app);
                TestClient https = plain.tls(TestClient.trusting(pair.certificate()))) {
            int port = plain.server().tlsPort().orElseThrow();
            // TLS-05: plain HTTP on the TLS port is closed without an HTTP answer
            try (Socket s = new Socket("127.0.0.1", port)) {
                s.getOutputStream().write("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                assertThat(closedByServer(s)).isTrue();
            }
            assertThat(plain.server().diagnostics().get("tls.not_tls")).isEqualTo(1L);
            // TLS-06: a handshake record declaring a 16 MiB ClientHello is refused at its header
            try (Socket s = new Socket("127.0.0.1", port)) {
                s.getOutputStream().write(new byte[] {0x16, 0x03, 0x01, 0x40, 0x00, 0x01, (byte) 0xff, (byte) 0xff, (byte) 0xff});
                assertThat(closedByServer(s)).isTrue();
            }
            // TLS-06: a ClientHello two bytes at a time, slower than the handshake timeout allows
            try (Socket s = new Socket("127.0.0.1", port)) {
                byte[] start = {0x16, 0x03, 0x01, 0x00, (byte) 0xc8, 0x01, 0x00, 0x00, (byte) 0xc4, 0x03, 0x03};
                s.setSoTimeout(200);
                boolean closed = false;
                for (int i = 0; i + 2 <= start.length && !closed; i += 2) {
                    try {
                        s.getOutputStream().write(start, i, 2);
                    } catch (IOException reset) {
                        closed = true;
                    }
                    Thread.sleep(500);
                }
                s.setSoTimeout(30_000);
                assertThat(closed || closedByServer(s)).isTrue();
            }
            await().atMost(Duration.ofSeconds(30)).until(() -> plain.server().diagnostics().get("tls.handshakes.timed_out") >= 1);
            assertThat(https.get("/hello").text()).isEqualTo("hello");
            assertThat(plain.get("/hello").text()).isEqualTo("hello");
        }
    }

    /** @return whether the server closed the socket (EOF or reset) within 30 s, having sent no HTTP */
    private static boolean closedByServer(Socket s) throws IOException {
        s.setSoTimeout(30_000);
        InputStream in = s.getInputStream();
        try {
            byte[] buf = new byte[512];
            for (int n; (n = in.read(buf)) >= 0; ) {
                if (new String(buf, 0, n, StandardCharsets.ISO_8859_1).startsWith("HTTP/")) return false;
            }
            return true;
        } catch (java.net.SocketException reset) {
            return true;
        }
    }
}
