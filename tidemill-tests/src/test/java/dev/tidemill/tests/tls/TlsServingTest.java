package dev.tidemill.tests.tls;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.ExecutionMode;
import dev.tidemill.Response;
import dev.tidemill.Tidemill;
import dev.tidemill.Tls;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestResponse;
import dev.tidemill.tests.support.Curl;
import dev.tidemill.tests.support.Setup;
import dev.tidemill.tests.support.TestCertificates;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Stream;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * HTTPS serves the app as the plain port does, in every execution mode and with both providers:
 * PEM files from openssl (an encrypted key too), TLS 1.3 negotiated, the plain port unchanged,
 * HSTS only when asked and only over TLS, the provider named in the startup report, and curl
 * with {@code --cacert} as a client that is not ours.
 */
class TlsServingTest {
    @TempDir
    Path dir;

    static Stream<Arguments> modesAndProviders() {
        return Stream.of(ExecutionMode.values()).flatMap(m -> Stream.of(Tls.Provider.OPENSSL, Tls.Provider.JDK)
                .map(p -> Arguments.of(m, p)));
    }

    static Tidemill app(dev.tidemill.Config config) {
        Tidemill app = Tidemill.create(config);
        app.get("/hello", req -> "hello over " + (req.tlsPeerCertificates().isEmpty() ? "no client certificate" : "mTLS"));
        app.post("/echo", req -> Response.ok().text(req.bodyText()));
        return app;
    }

    @ParameterizedTest
    @MethodSource("modesAndProviders")
    void servesOverTlsAndPlainInEveryModeWithBothProviders(ExecutionMode mode, Tls.Provider provider) {
        TestCertificates.Pair pair = TestCertificates.selfSigned(dir, "server", "DNS:localhost,IP:127.0.0.1");
        Path encrypted = TestCertificates.encrypted(pair.key(), "s3cret pass");
        try (TestClient plain = TestClient.start(app(Setup.onDefaultTransport(mode).config()
                .tls(t -> t.port(0).provider(provider).certificate(pair.certificate()).key(encrypted).keyPassword("s3cret pass"))
                .build()));
                TestClient https = plain.tls(TestClient.trusting(pair.certificate()))) {
            assertThat(plain.server().startupReport()).anyMatch(l -> l.startsWith("tls provider " + provider));
            assertThat(plain.server().startupReport()).anyMatch(l -> l.contains(
                    TestCertificates.fingerprint(TestCertificates.certificates(pair.certificate()).get(0))));
            for (int i = 0; i < 3; i++) { // one connection, keep-alive: the same TLS session serves them all
                TestResponse r = https.get("/hello");
                assertThat(r.status()).isEqualTo(200);
                assertThat(r.text()).isEqualTo("hello over no client certificate");
                assertThat(r.header("Strict-Transport-Security")).isEmpty();
            }
            assertThat(https.post("/echo", "text/plain", "x".repeat(100_000)).text()).hasSize(100_000);
            assertThat(plain.get("/hello").status()).isEqualTo(200);
            assertThat(https.uri("/hello").toString()).startsWith("https://");
        }
    }

    @ParameterizedTest
    @EnumSource(value = Tls.Provider.class, names = {"OPENSSL", "JDK"})
    void negotiatesTls13WithAnAeadSuite(Tls.Provider provider) throws Exception {
        TestCertificates.Pair pair = TestCertificates.selfSigned(dir, "server", "DNS:localhost,IP:127.0.0.1");
        try (TestClient plain = TestClient.start(app(TestClient.config()
                .tls(t -> t.port(0).provider(provider).certificate(pair.certificate()).key(pair.key())).build()));
                SSLSocket s = (SSLSocket) TestClient.trusting(pair.certificate()).getSocketFactory()
                        .createSocket("127.0.0.1", plain.server().tlsPort().orElseThrow())) {
            s.startHandshake();
            assertThat(s.getSession().getProtocol()).isEqualTo("TLSv1.3");
            assertThat(s.getSession().getCipherSuite()).isIn("TLS_AES_128_GCM_SHA256", "TLS_AES_256_GCM_SHA384",
                    "TLS_CHACHA20_POLY1305_SHA256");
        }
    }

    @Test
    void hstsIsSentOverTlsOnlyWhenAsked() {
        TestCertificates.Pair pair = TestCertificates.selfSigned(dir, "server", "DNS:localhost,IP:127.0.0.1");
        try (TestClient plain = TestClient.start(app(TestClient.config()
                .tls(t -> t.port(0).certificate(pair.certificate()).key(pair.key()).hstsMaxAge(Duration.ofDays(1))).build()));
                TestClient https = plain.tls(TestClient.trusting(pair.certificate()))) {
            assertThat(https.get("/hello").header("Strict-Transport-Security")).contains("max-age=86400");
            assertThat(plain.get("/hello").header("Strict-Transport-Security")).isEmpty(); // RFC 6797 7.2: never over HTTP
        }
    }

    @Test
    void curlWithTheCertificateAsItsCaFetchesOverTls() throws Exception {
        TestCertificates.Pair pair = TestCertificates.selfSigned(dir, "server", "DNS:localhost,IP:127.0.0.1");
        try (TestClient plain = TestClient.start(app(TestClient.config()
                .tls(t -> t.port(0).certificate(pair.certificate()).key(pair.key())).build()))) {
            int port = plain.server().tlsPort().orElseThrow();
            String out = Curl.run(dir, "-sS", "--cacert", pair.certificate().toString(), "https://localhost:" + port + "/hello");
            assertThat(out).isEqualTo("hello over no client certificate");
            String h1 = Curl.run(dir, "-sS", "--http1.1", "-o", "/dev/null", "-w", "%{http_version}", "--cacert",
                    pair.certificate().toString(), "https://127.0.0.1:" + port + "/hello");
            assertThat(h1).isEqualTo("1.1");
        }
    }
}
