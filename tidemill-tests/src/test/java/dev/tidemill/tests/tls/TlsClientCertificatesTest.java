package dev.tidemill.tests.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidemill.ExecutionMode;
import dev.tidemill.Tidemill;
import dev.tidemill.Tls;
import dev.tidemill.testing.TestClient;
import dev.tidemill.tests.support.Setup;
import dev.tidemill.tests.support.TestCertificates;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Client certificates (mTLS): the verified principal reaches the handler through the exchange, in
 * every mode; REQUIRE refuses a client without a certificate, or with one from another CA, and
 * OPTIONAL serves it without a principal; the server keeps serving after each refusal.
 */
class TlsClientCertificatesTest {
    @TempDir
    Path dir;

    private TestClient start(ExecutionMode mode, Tls.ClientAuth auth, TestCertificates.Pair server, Path trust) {
        Tidemill app = Tidemill.create(Setup.onDefaultTransport(mode).config().tls(t -> t.port(0)
                .certificate(server.certificate()).key(server.key()).clientAuth(auth).clientTrust(trust)).build());
        app.get("/whoami", req -> req.tlsPrincipal().map(p -> p.getName()).orElse("anonymous")
                + " " + req.tlsPeerCertificates().size());
        return TestClient.start(app);
    }

    @ParameterizedTest
    @EnumSource(ExecutionMode.class)
    void requireGivesTheHandlerTheVerifiedPrincipalAndRefusesOthers(ExecutionMode mode) {
        TestCertificates.Pair server = TestCertificates.selfSigned(dir, "server", "DNS:localhost,IP:127.0.0.1");
        TestCertificates.Pair ca = TestCertificates.authority(dir, "Test CA");
        TestCertificates.Pair alice = TestCertificates.client(dir, "alice", ca);
        TestCertificates.Pair otherCa = TestCertificates.authority(dir, "Other CA");
        TestCertificates.Pair mallory = TestCertificates.client(dir, "mallory", otherCa);
        try (TestClient plain = start(mode, Tls.ClientAuth.REQUIRE, server, ca.certificate());
                TestClient asAlice = plain.tls(TestCertificates.clientWithCertificate(server.certificate(), alice));
                TestClient anonymous = plain.tls(TestClient.trusting(server.certificate()));
                TestClient asMallory = plain.tls(TestCertificates.clientWithCertificate(server.certificate(), mallory))) {
            assertThat(asAlice.get("/whoami").text()).isEqualTo("CN=alice 1");
            // TLS 1.3: the client learns of the refusal on its first read, after its handshake "succeeded"
            assertThatThrownBy(() -> anonymous.get("/whoami")).isInstanceOf(UncheckedIOException.class);
            assertThatThrownBy(() -> asMallory.get("/whoami")).isInstanceOf(UncheckedIOException.class);
            assertThat(asAlice.get("/whoami").text()).isEqualTo("CN=alice 1");
            assertThat(plain.get("/whoami").text()).as("the plain port has no principal").isEqualTo("anonymous 0");
        }
    }

    @ParameterizedTest
    @EnumSource(value = Tls.Provider.class, names = {"OPENSSL", "JDK"})
    void optionalServesClientsWithoutACertificate(Tls.Provider provider) {
        TestCertificates.Pair server = TestCertificates.selfSigned(dir, "server", "DNS:localhost,IP:127.0.0.1");
        TestCertificates.Pair ca = TestCertificates.authority(dir, "Test CA");
        TestCertificates.Pair alice = TestCertificates.client(dir, "alice", ca);
        Tidemill app = Tidemill.create(TestClient.config().tls(t -> t.port(0).provider(provider)
                .certificate(server.certificate()).key(server.key())
                .clientAuth(Tls.ClientAuth.OPTIONAL).clientTrust(ca.certificate())).build());
        app.get("/whoami", req -> req.tlsPrincipal().map(p -> p.getName()).orElse("anonymous"));
        try (TestClient plain = TestClient.start(app);
                TestClient asAlice = plain.tls(TestCertificates.clientWithCertificate(server.certificate(), alice));
                TestClient anonymous = plain.tls(TestClient.trusting(server.certificate()))) {
            assertThat(anonymous.get("/whoami").text()).isEqualTo("anonymous");
            assertThat(asAlice.get("/whoami").text()).isEqualTo("CN=alice");
        }
    }
}
