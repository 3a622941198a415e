package dev.tidemill.tests.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemill.Tidemill;
import dev.tidemill.Tls;
import dev.tidemill.testing.TestClient;
import dev.tidemill.tests.support.TestCertificates;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * OCSP stapling (RFC 6066 8) from {@code Tls.Identity.ocspResponse}: a CA, a server certificate it
 * signed and two OCSP responses for it, "good" and "revoked", all made by the {@code openssl}
 * command (its {@code ocsp} responder run offline, as a renewal job would). {@code openssl s_client
 * -status} asks for the staple: with the OpenSSL provider it gets the response in the file, and
 * the one that replaces it once the file changes; with the JDK provider, which cannot staple a given
 * response, it gets none and the startup report says why.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class TlsOcspStaplingTest {
    @TempDir
    Path dir;

    @Test
    void theOpenSslProviderStaplesTheResponseAndTheOneThatReplacesIt() throws Exception {
        TestCertificates.Pair ca = TestCertificates.authority(dir, "ocsp-ca");
        TestCertificates.Pair server = TestCertificates.client(dir, "localhost", ca);
        Path good = response(ca, server, "V", "good");
        Path revoked = response(ca, server, "R", "revoked");
        Path staple = dir.resolve("staple.der");
        Files.copy(good, staple);
        try (TestClient client = TestClient.start(app(Tls.Provider.OPENSSL, server, staple))) {
            assertThat(String.join("\n", client.server().startupReport())).contains("stapled");
            String out = status(client);
            assertThat(out).contains("OCSP Response Status: successful").contains("Cert Status: good");

            Files.copy(revoked, staple, StandardCopyOption.REPLACE_EXISTING); // what a renewal job does
            await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(200))
                    .until(() -> status(client).contains("Cert Status: revoked"));
        }
    }

    @Test
    void theJdkProviderStaplesNothingAndSaysSo() throws Exception {
        TestCertificates.Pair ca = TestCertificates.authority(dir, "ocsp-ca");
        TestCertificates.Pair server = TestCertificates.client(dir, "localhost", ca);
        Path good = response(ca, server, "V", "good");
        try (TestClient client = TestClient.start(app(Tls.Provider.JDK, server, good))) {
            assertThat(String.join("\n", client.server().startupReport())).contains("not stapled: JDK");
            assertThat(status(client)).contains("OCSP response: no response sent");
        }
    }

    @Test
    void aFileThatIsNotAnOcspResponseIsRefusedAtStartNamingIt() throws Exception {
        TestCertificates.Pair ca = TestCertificates.authority(dir, "ocsp-ca");
        TestCertificates.Pair server = TestCertificates.client(dir, "localhost", ca);
        Path pem = dir.resolve("staple.pem");
        Files.writeString(pem, "-----BEGIN OCSP RESPONSE-----\nAAAA\n-----END OCSP RESPONSE-----\n");
        Tidemill app = app(Tls.Provider.OPENSSL, server, pem);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> TestClient.start(app).close())
                .hasStackTraceContaining("ocspResponse " + pem).hasStackTraceContaining("not a DER OCSP response");
    }

    private static Tidemill app(Tls.Provider provider, TestCertificates.Pair server, Path staple) {
        Tidemill app = Tidemill.create(TestClient.config().tls(t -> t.port(0).provider(provider)
                .identity(Tls.Identity.of(server.certificate(), server.key()).withOcspResponse(staple))
                .reloadInterval(Duration.ofSeconds(1))).build());
        app.get("/", req -> "hello");
        return app;
    }

    /** @return {@code openssl s_client -status}'s report of the staple */
    private static String status(TestClient client) {
        return TestCertificates.run(null, false, "openssl", "s_client", "-connect",
                "127.0.0.1:" + client.server().tlsPort().orElseThrow(), "-servername", "localhost", "-status");
    }

    /** An OCSP response for {@code server}, signed by {@code ca}, from an index whose entry has {@code flag} (V or R). */
    private Path response(TestCertificates.Pair ca, TestCertificates.Pair server, String flag, String name) throws Exception {
        String serial = TestCertificates.exec(dir, "openssl", "x509", "-in", server.certificate().toString(), "-noout", "-serial")
                .strip().replace("serial=", "");
        Path index = dir.resolve(name + ".index");
        String revokedAt = flag.equals("R") ? "260101000000Z" : "";
        Files.writeString(index, flag + "\t301231235959Z\t" + revokedAt + "\t" + serial + "\tunknown\t/CN=localhost\n");
        Path request = dir.resolve(name + ".req");
        Path out = dir.resolve(name + ".der");
        TestCertificates.exec(dir, "openssl", "ocsp", "-issuer", ca.certificate().toString(), "-cert",
                server.certificate().toString(), "-reqout", request.toString(), "-no_nonce");
        TestCertificates.exec(dir, "openssl", "ocsp", "-index", index.toString(), "-rsigner", ca.certificate().toString(),
                "-rkey", ca.key().toString(), "-CA", ca.certificate().toString(), "-reqin", request.toString(),
                "-respout", out.toString(), "-ndays", "1");
        return out;
    }
}
