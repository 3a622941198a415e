package dev.tidemill.tests.tls;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.Tidemill;
import dev.tidemill.Tls;
import dev.tidemill.testing.TestClient;
import dev.tidemill.tests.support.ExternalTool;
import dev.tidemill.tests.support.TestCertificates;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * CASES TLS-07 and TLS-01: Debian's {@code sslscan} against a test server, with each provider,
 * and {@code openssl s_client} for what sslscan does not show (ALPN). The verdict: SSLv2, SSLv3,
 * TLS 1.0 and 1.1 disabled; every accepted suite TLS 1.2 or 1.3, forward-secret and AEAD;
 * {@code h2} chosen from {@code h2,http/1.1}; an offer of only {@code spdy/3} refused with
 * {@code no_application_protocol}. The scan's output is written to
 * {@code target/tls-scan-<provider>.txt} (docs/security.md quotes it). Takes a few seconds, so it
 * runs by default; tagged {@code tls-scan} to run alone: {@code -Dgroups=tls-scan}.
 */
@Tag("tls-scan")
class TlsScanTest {
    private static final Pattern ACCEPTED = Pattern.compile("^(Preferred|Accepted)\\s+(\\S+)\\s+\\d+ bits\\s+(\\S+)", Pattern.MULTILINE);

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(value = Tls.Provider.class, names = {"OPENSSL", "JDK"})
    void onlyModernProtocolsAndSuitesAreAccepted(Tls.Provider provider) throws Exception {
        ExternalTool.SSLSCAN.require();
        TestCertificates.Pair pair = TestCertificates.selfSigned(dir, "server", "DNS:localhost,IP:127.0.0.1");
        Tidemill app = Tidemill.create(TestClient.config().tls(t -> t.port(0).provider(provider)
                .certificate(pair.certificate()).key(pair.key())).build());
        app.get("/hello", req -> "hello");
        try (TestClient plain = TestClient.start(app)) {
            String target = "127.0.0.1:" + plain.server().tlsPort().orElseThrow();
            String scan = TestCertificates.run(null, false, "sslscan", "--no-colour", "--no-heartbleed", target);
            Files.writeString(Path.of("target", "tls-scan-" + provider.name().toLowerCase() + ".txt"), scan);
            for (String old : List.of("SSLv2", "SSLv3", "TLSv1.0", "TLSv1.1")) {
                assertThat(scan).as("sslscan: %s", scan).containsPattern("(?m)^" + Pattern.quote(old) + "\\s+(disabled|not supported)");
            }
            assertThat(scan).containsPattern("(?m)^TLSv1.2\\s+enabled").containsPattern("(?m)^TLSv1.3\\s+enabled");
            Matcher m = ACCEPTED.matcher(scan);
            int suites = 0;
            while (m.find()) {
                suites++;
                assertThat(m.group(2)).as("protocol of %s", m.group(3)).isIn("TLSv1.2", "TLSv1.3");
                assertThat(m.group(3)).as("an AEAD suite").containsAnyOf("GCM", "CHACHA20");
                if (m.group(2).equals("TLSv1.2")) assertThat(m.group(3)).as("forward secrecy").startsWith("ECDHE-");
            }
            assertThat(suites).as("accepted suites in %s", scan).isGreaterThanOrEqualTo(4);

            String h2 = TestCertificates.run(null, false, "openssl", "s_client", "-connect", target, "-alpn", "h2,http/1.1");
            assertThat(h2).contains("ALPN protocol: h2");
            String spdy = TestCertificates.run(null, false, "openssl", "s_client", "-connect", target, "-alpn", "spdy/3");
            assertThat(spdy).contains("no application protocol");
            String tls11 = TestCertificates.run(null, false, "openssl", "s_client", "-connect", target, "-tls1_1",
                    "-cipher", "DEFAULT:@SECLEVEL=0");
            // TLS-01 (RFC 8996): the protocol_version alert (70), no cipher agreed
            assertThat(tls11).contains("alert protocol version").contains("Cipher is (NONE)");
            assertThat(plain.get("/hello").status()).isEqualTo(200);
        }
    }
}
