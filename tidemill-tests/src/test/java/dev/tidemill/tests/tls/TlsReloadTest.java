package dev.tidemill.tests.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemill.Tidemill;
import dev.tidemill.Tls;
import dev.tidemill.testing.TestClient;
import dev.tidemill.tests.support.TestCertificates;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Certificates are reloaded without a restart: rewriting the files changes the certificate new
 * connections get, while a connection opened before keeps working; a broken file (garbage, a key
 * that belongs to another certificate) keeps the old certificate serving until the files are
 * good again.
 */
class TlsReloadTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(value = Tls.Provider.class, names = {"OPENSSL", "JDK"})
    void rewrittenFilesAreServedToNewConnectionsAndBrokenOnesAreNot(Tls.Provider provider) throws Exception {
        Path live = Files.createDirectories(dir.resolve("live"));
        TestCertificates.Pair first = TestCertificates.selfSigned(dir, "first", "DNS:localhost,IP:127.0.0.1");
        TestCertificates.Pair second = TestCertificates.selfSigned(dir, "second", "DNS:localhost,IP:127.0.0.1");
        Path crt = live.resolve("server.crt");
        Path key = live.resolve("server.key");
        Files.copy(first.certificate(), crt);
        Files.copy(first.key(), key);
        Tidemill app = Tidemill.create(TestClient.config().tls(t -> t.port(0).provider(provider).certificate(crt).key(key)
                .reloadInterval(Duration.ofSeconds(1))).build());
        app.get("/hello", req -> "hello");
        try (TestClient plain = TestClient.start(app);
                TestClient before = plain.tls(TestCertificates.trustingAnything())) {
            int port = plain.server().tlsPort().orElseThrow();
            assertThat(served(port)).isEqualTo(fingerprint(first));
            assertThat(before.get("/hello").status()).isEqualTo(200); // opens a keep-alive connection on the first certificate

            // A key that is not the certificate's (the certificate rewritten first): still the first one.
            replace(second.certificate(), crt);
            await().atMost(Duration.ofSeconds(30)).until(() -> plain.server().diagnostics().get("tls.reload_failures") == 1);
            assertThat(plain.server().diagnostics().get("tls.reloads")).isZero();
            assertThat(served(port)).isEqualTo(fingerprint(first));
            replace(second.key(), key);
            await().atMost(Duration.ofSeconds(30)).until(() -> fingerprint(second).equals(served(port)));
            assertThat(plain.server().diagnostics().get("tls.reloads")).isEqualTo(1L);
            assertThat(before.get("/hello").status()).as("the connection opened before still works").isEqualTo(200);

            Files.writeString(crt, "-----BEGIN CERTIFICATE-----\nnot base64 at all\n-----END CERTIFICATE-----\n");
            await().atMost(Duration.ofSeconds(30)).until(() -> plain.server().diagnostics().get("tls.reload_failures") == 2);
            assertThat(served(port)).isEqualTo(fingerprint(second));
            replace(first.certificate(), crt);
            replace(first.key(), key);
            await().atMost(Duration.ofSeconds(30)).until(() -> fingerprint(first).equals(served(port)));
        }
    }

    private static void replace(Path from, Path to) throws IOException {
        Path tmp = to.resolveSibling(to.getFileName() + ".tmp");
        Files.copy(from, tmp, StandardCopyOption.REPLACE_EXISTING);
        Files.move(tmp, to, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    private static String served(int port) throws IOException {
        try (SSLSocket s = (SSLSocket) TestCertificates.trustingAnything().getSocketFactory().createSocket("127.0.0.1", port)) {
            s.startHandshake();
            return TestCertificates.fingerprint(s.getSession().getPeerCertificates()[0]);
        }
    }

    private static String fingerprint(TestCertificates.Pair p) {
        return TestCertificates.fingerprint(TestCertificates.certificates(p.certificate()).get(0));
    }
}
