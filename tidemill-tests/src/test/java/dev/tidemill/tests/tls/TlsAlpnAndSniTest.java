package dev.tidemill.tests.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidemill.Tidemill;
import dev.tidemill.Tls;
import dev.tidemill.testing.TestClient;
import dev.tidemill.tests.support.TestCertificates;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * ALPN (CASES TLS-02, TLS-03) and SNI, with both providers. Until HTTP/2 lands ALPN offers only
 * {@code h2} and {@code http/1.1}: an offer of {@code h2, http/1.1} gets {@code h2}, of only
 * {@code http/1.1} or only {@code h2} that one, an offer of only {@code spdy/3} (or {@code foo})
 * the fatal {@code no_application_protocol} alert. Two SNI
 * names get their own certificates, an unknown one the default. After each refusal the server
 * still serves.
 */
class TlsAlpnAndSniTest {
    @TempDir
    Path dir;

    private TestClient start(Tls.Provider provider, TestCertificates.Pair main, TestCertificates.Pair a,
            TestCertificates.Pair b) {
        Tidemill app = Tidemill.create(TestClient.config().tls(t -> t.port(0).provider(provider)
                .certificate(main.certificate()).key(main.key())
                .sni("a.example.test", Tls.Identity.of(a.certificate(), a.key()))
                .sni("*.b.example.test", Tls.Identity.of(b.certificate(), b.key()))).build());
        app.get("/hello", req -> "hello");
        return TestClient.start(app);
    }

    /** Handshakes with the given SNI name and ALPN offer; returns the socket (handshake done). */
    private static SSLSocket handshake(int port, String sni, String... alpn) throws IOException {
        SSLContext ctx = TestCertificates.trustingAnything();
        SSLSocket s = (SSLSocket) ctx.getSocketFactory().createSocket("127.0.0.1", port);
        s.setSoTimeout(10_000);
        SSLParameters p = s.getSSLParameters();
        if (sni != null) p.setServerNames(List.of(new SNIHostName(sni)));
        if (alpn.length > 0) p.setApplicationProtocols(alpn);
        s.setSSLParameters(p);
        s.startHandshake();
        return s;
    }

    private static String get(SSLSocket s) throws IOException {
        s.getOutputStream().write("GET /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        return new String(s.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
    }

    @ParameterizedTest
    @EnumSource(value = Tls.Provider.class, names = {"OPENSSL", "JDK"})
    void alpnChoosesH2OrHttp11AndRefusesAnOfferOfNeither(Tls.Provider provider) throws Exception {
        TestCertificates.Pair main = TestCertificates.selfSigned(dir, "main", "DNS:localhost");
        try (TestClient client = start(provider, main, main, main)) {
            int port = client.server().tlsPort().orElseThrow();
            try (SSLSocket s = handshake(port, null, "h2", "http/1.1")) {
                assertThat(s.getApplicationProtocol()).isEqualTo("h2"); // the client's preference, served
                // The server speaks HTTP/2 at once: its connection preface is a SETTINGS frame (type 4, stream 0).
                byte[] frame = s.getInputStream().readNBytes(9);
                assertThat(frame[3]).as("frame type").isEqualTo((byte) 4);
                assertThat(frame[5] | frame[6] | frame[7] | frame[8]).as("stream id").isZero();
            }
            try (SSLSocket s = handshake(port, null, "http/1.1")) {
                assertThat(s.getApplicationProtocol()).isEqualTo("http/1.1");
                assertThat(get(s)).startsWith("HTTP/1.1 200");
            }
            try (SSLSocket s = handshake(port, null)) { // no ALPN at all: HTTP/1.1
                assertThat(s.getApplicationProtocol()).isEmpty();
                assertThat(get(s)).startsWith("HTTP/1.1 200");
            }
            try (SSLSocket s = handshake(port, null, "h2")) {
                assertThat(s.getApplicationProtocol()).isEqualTo("h2");
            }
            for (String[] offer : List.of(new String[] {"spdy/3"}, new String[] {"foo"})) {
                assertThatThrownBy(() -> handshake(port, null, offer).close())
                        .as("ALPN offer %s", List.of(offer))
                        .isInstanceOf(SSLHandshakeException.class)
                        .hasMessageContaining("no_application_protocol");
            }
            assertThat(client.server().diagnostics().get("tls.alpn.refused")).isEqualTo(2L);
            try (SSLSocket s = handshake(port, null, "http/1.1")) { // still serving
                assertThat(get(s)).startsWith("HTTP/1.1 200");
            }
        }
    }

    @ParameterizedTest
    @EnumSource(value = Tls.Provider.class, names = {"OPENSSL", "JDK"})
    void sniPicksTheCertificateForTheName(Tls.Provider provider) throws Exception {
        TestCertificates.Pair main = TestCertificates.selfSigned(dir, "main", "DNS:localhost");
        TestCertificates.Pair a = TestCertificates.selfSigned(dir, "a", "DNS:a.example.test");
        TestCertificates.Pair b = TestCertificates.selfSigned(dir, "b", "DNS:*.b.example.test");
        try (TestClient client = start(provider, main, a, b)) {
            int port = client.server().tlsPort().orElseThrow();
            assertThat(served(port, "a.example.test")).isEqualTo(fingerprint(a));
            assertThat(served(port, "A.Example.Test")).isEqualTo(fingerprint(a)); // names are case-insensitive
            assertThat(served(port, "x.b.example.test")).isEqualTo(fingerprint(b));
            assertThat(served(port, "x.y.b.example.test")).as("a wildcard covers one label").isEqualTo(fingerprint(main));
            assertThat(served(port, "other.example.test")).isEqualTo(fingerprint(main));
            assertThat(served(port, null)).isEqualTo(fingerprint(main));
            try (SSLSocket s = handshake(port, "a.example.test", "http/1.1")) {
                assertThat(get(s)).startsWith("HTTP/1.1 200");
            }
        }
    }

    private static String served(int port, String sni) throws IOException {
        try (SSLSocket s = handshake(port, sni)) {
            return TestCertificates.fingerprint(s.getSession().getPeerCertificates()[0]);
        }
    }

    private static String fingerprint(TestCertificates.Pair p) {
        return TestCertificates.fingerprint(TestCertificates.certificates(p.certificate()).get(0));
    }

}
