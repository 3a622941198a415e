package dev.tidemill.tests.tls;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.Tidemill;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestRequest;
import dev.tidemill.testing.TestResponse;
import dev.tidemill.tests.support.TestCertificates;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code Tls.redirectHttp}: the plain port answers 308 to the same path and query on the TLS port
 * (a POST too), serves nothing of the app, keeps a hostile Host out of the Location, and the TLS
 * port serves the app. Off by default: the plain port serves the app.
 */
class TlsRedirectTest {
    @TempDir
    Path dir;

    @Test
    void thePlainPortRedirectsToHttps() {
        TestCertificates.Pair pair = TestCertificates.selfSigned(dir, "server", "DNS:localhost,IP:127.0.0.1");
        Tidemill app = Tidemill.create(TestClient.config()
                .tls(t -> t.port(0).certificate(pair.certificate()).key(pair.key()).redirectHttp(true)).build());
        app.get("/items", req -> "items");
        try (TestClient plain = TestClient.start(app);
                TestClient https = plain.tls(TestClient.trusting(pair.certificate()))) {
            int tlsPort = plain.server().tlsPort().orElseThrow();
            TestResponse r = plain.get("/items?page=2&q=a%20b");
            assertThat(r.status()).isEqualTo(308);
            assertThat(r.header("Location")).contains("https://127.0.0.1:" + tlsPort + "/items?page=2&q=a%20b");
            assertThat(r.text()).isEmpty();
            assertThat(plain.post("/items", "text/plain", "x").status()).isEqualTo(308);
            TestResponse evil = plain.send(TestRequest.get("/items").header("Host", "evil.example\"<x>:80"));
            assertThat(evil.header("Location")).contains("https://127.0.0.1:" + tlsPort + "/items");
            TestResponse named = plain.send(TestRequest.get("/").header("Host", "shop.example:8080"));
            assertThat(named.header("Location")).contains("https://shop.example:" + tlsPort + "/");
            assertThat(https.get("/items").text()).isEqualTo("items");
        }
    }

    @Test
    void withoutTheOptionThePlainPortServesTheApp() {
        TestCertificates.Pair pair = TestCertificates.selfSigned(dir, "server", "DNS:localhost,IP:127.0.0.1");
        Tidemill app = Tidemill.create(TestClient.config().tls(t -> t.port(0).certificate(pair.certificate()).key(pair.key())).build());
        app.get("/items", req -> "items");
        try (TestClient plain = TestClient.start(app)) {
            assertThat(plain.get("/items").text()).isEqualTo("items");
        }
    }
}
