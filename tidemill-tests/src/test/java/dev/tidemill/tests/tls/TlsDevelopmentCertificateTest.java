package dev.tidemill.tests.tls;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.Config;
import dev.tidemill.Tidemill;
import dev.tidemill.testing.TestClient;
import dev.tidemill.tests.support.TestCertificates;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Map;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.Test;

/**
 * The self-signed development certificate: only on request ({@code TIDEMILL_TLS_SELF_SIGNED}),
 * for localhost and the loopback addresses, and the fingerprint the startup report prints is the
 * one the server presents.
 */
class TlsDevelopmentCertificateTest {

    @Test
    void isOffByDefault() {
        assertThat(Config.defaults().tls().enabled()).isFalse();
        Tidemill app = Tidemill.create(TestClient.config().build());
        try (TestClient plain = TestClient.start(app)) {
            assertThat(plain.server().tlsPort()).isEmpty();
            assertThat(plain.server().startupReport()).noneMatch(l -> l.startsWith("tls"));
        }
    }

    @Test
    void theServedCertificateIsTheOneWhoseFingerprintIsReported() throws Exception {
        Config config = Config.fromEnvironment(Map.of("TIDEMILL_TLS_SELF_SIGNED", "true", "TIDEMILL_TLS_PORT", "0",
                "TIDEMILL_PORT", "0"));
        Tidemill app = Tidemill.create(config);
        app.get("/hello", req -> "hello");
        try (TestClient plain = TestClient.start(app);
                SSLSocket s = (SSLSocket) TestCertificates.trustingAnything().getSocketFactory()
                        .createSocket("127.0.0.1", plain.server().tlsPort().orElseThrow())) {
            s.startHandshake();
            X509Certificate served = (X509Certificate) s.getSession().getPeerCertificates()[0];
            String fingerprint = TestCertificates.fingerprint(served);
            assertThat(plain.server().startupReport())
                    .anyMatch(l -> l.contains("self-signed development certificate") && l.contains("SHA-256 " + fingerprint));
            List<String> names = served.getSubjectAlternativeNames().stream().map(e -> String.valueOf(e.get(1))).toList();
            assertThat(names).contains("localhost", "127.0.0.1");
            served.verify(served.getPublicKey()); // self-signed
            assertThat(List.of(served.getExtendedKeyUsage().toArray())).contains("1.3.6.1.5.5.7.3.1");
            try (TestClient https = plain.tls(TestCertificates.trustingAnything())) {
                assertThat(https.get("/hello").text()).isEqualTo("hello");
            }
        }
    }
}
