package dev.tidemill.tests.tls;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.Tidemill;
import dev.tidemill.Tls;
import dev.tidemill.testing.TestClient;
import dev.tidemill.tests.support.ExternalTool;
import dev.tidemill.tests.support.TestCertificates;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * TLS session resumption with both providers, TLS 1.3 and 1.2: {@code openssl s_client} makes one
 * request, saves the session (a ticket: {@code TicketKeys} for OpenSSL, the JDK's own keys for
 * the JDK), and a second connection offers it back; the server resumes it ("Reused"), so a client
 * that comes back pays no full handshake. A server restarted in between has new keys and does not.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class TlsResumptionTest {
    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"OPENSSL, -tls1_3", "OPENSSL, -tls1_2", "JDK, -tls1_3", "JDK, -tls1_2"})
    void aReturningClientResumesItsSessionAndARestartedServerStartsAfresh(Tls.Provider provider, String version) throws Exception {
        TestCertificates.Pair pair = TestCertificates.selfSigned(dir, "server", "DNS:localhost,IP:127.0.0.1");
        Path session = dir.resolve("session.pem");
        try (TestClient client = TestClient.start(app(provider, pair))) {
            String first = connect(client, version, "-sess_out", session.toString());
            assertThat(first).contains("hello over tls").contains("New, TLSv1.");
            String second = connect(client, version, "-sess_in", session.toString());
            assertThat(second).as("the second connection").contains("hello over tls").contains("Reused, TLSv1.");
        }
        try (TestClient restarted = TestClient.start(app(provider, pair))) {
            String again = connect(restarted, version, "-sess_in", session.toString());
            assertThat(again).as("after a restart: keys only in memory").contains("hello over tls").contains("New, TLSv1.");
        }
    }

    private static Tidemill app(Tls.Provider provider, TestCertificates.Pair pair) {
        Tidemill app = Tidemill.create(TestClient.config()
                .tls(t -> t.port(0).provider(provider).certificate(pair.certificate()).key(pair.key())).build());
        app.get("/", req -> "hello over tls");
        return app;
    }

    /** One HTTP/1.1 request through {@code openssl s_client}; returns its whole output. */
    private static String connect(TestClient client, String version, String... session) throws Exception {
        List<String> command = new ArrayList<>(List.of("openssl", "s_client", "-connect",
                "127.0.0.1:" + client.server().tlsPort().orElseThrow(), "-servername", "localhost", version, "-alpn", "http/1.1",
                "-ign_eof"));
        command.addAll(List.of(session));
        ExternalTool.OPENSSL.require();
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        try (OutputStream in = p.getOutputStream()) {
            in.write("GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        return out;
    }
}
