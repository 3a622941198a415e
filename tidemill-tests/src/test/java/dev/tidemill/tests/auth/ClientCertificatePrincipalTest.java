package dev.tidemill.tests.auth;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.ExecutionMode;
import dev.tidemill.Requirement;
import dev.tidemill.Tidemill;
import dev.tidemill.Tls;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestResponse;
import dev.tidemill.tests.support.Setup;
import dev.tidemill.tests.support.TestCertificates;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A verified TLS client certificate is a credential: on a route that requires a caller, its subject
 * is the principal, {@code via mtls}, with no scopes; without a certificate (OPTIONAL client auth)
 * the route answers 401, and a route that needs a scope answers 403.
 */
class ClientCertificatePrincipalTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(ExecutionMode.class)
    void theCertificatesSubjectIsTheCaller(ExecutionMode mode) {
        TestCertificates.Pair server = TestCertificates.selfSigned(dir, "server", "DNS:localhost,IP:127.0.0.1");
        TestCertificates.Pair ca = TestCertificates.authority(dir, "Test CA");
        TestCertificates.Pair alice = TestCertificates.client(dir, "alice", ca);
        Tidemill app = Tidemill.create(Setup.onDefaultTransport(mode).config().tls(t -> t.port(0)
                .certificate(server.certificate()).key(server.key()).clientAuth(Tls.ClientAuth.OPTIONAL)
                .clientTrust(ca.certificate())).build());
        app.get("/me", req -> req.principal().map(p -> p.subject() + " via " + p.via() + " scopes " + p.scopes()).orElseThrow())
                .requires(Requirement.authenticated());
        app.get("/admin", req -> "admin").requires(Requirement.scope("admin"));
        try (TestClient plain = TestClient.start(app);
                TestClient asAlice = plain.tls(TestCertificates.clientWithCertificate(server.certificate(), alice));
                TestClient anonymous = plain.tls(TestClient.trusting(server.certificate()))) {
            assertThat(asAlice.get("/me").text()).isEqualTo("CN=alice via mtls scopes []");
            TestResponse forbidden = asAlice.get("/admin");
            assertThat(forbidden.status()).as("%s", forbidden).isEqualTo(403);
            assertThat(forbidden.header("Content-Type")).hasValue("application/problem+json");
            TestResponse nobody = anonymous.get("/me");
            assertThat(nobody.status()).as("%s", nobody).isEqualTo(401);
            assertThat(nobody.header("WWW-Authenticate")).hasValue("Bearer");
            assertThat(plain.get("/me").status()).as("the plain port has no certificate").isEqualTo(401);
        }
    }
}
