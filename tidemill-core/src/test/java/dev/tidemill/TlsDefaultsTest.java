package dev.tidemill;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The README's TLS rows say what {@link Tls#DEFAULTS}, its ranges and the environment reader say,
 * and the TLS variables are read and checked like the others (never echoing a value).
 */
class TlsDefaultsTest {

    private static List<String> row(String label) throws Exception {
        List<List<String>> found = new ArrayList<>();
        for (String line : Files.readString(Path.of("..", "README.md")).lines().toList()) {
            if (line.startsWith("| " + label + " | ")) found.add(List.of(line.substring(2, line.length() - 2).split(" \\| ", -1)));
        }
        assertThat(found).as("rows labelled '%s'", label).hasSize(1);
        return found.get(0);
    }

    private static void check(String label, String defaultCell, Range range, String variable) throws Exception {
        List<String> cells = row(label);
        assertThat(cells.get(1)).as("default of %s", label).isEqualTo(defaultCell);
        if (range != null) assertThat(cells.get(2)).as("range of %s", label).isEqualTo(range.span());
        assertThat(cells.get(4)).isEqualTo("`" + variable + "`");
        assertThat(EnvironmentConfig.variables()).containsKey(variable);
    }

    @Test
    void theReadmeRowsMatchTheRecord() throws Exception {
        Tls d = Tls.DEFAULTS;
        check("TLS port", Integer.toString(d.port()), Tls.PORT, "TIDEMILL_TLS_PORT");
        check("TLS certificate files checked for changes every", d.reloadInterval().toSeconds() + " s", Tls.RELOAD_INTERVAL,
                "TIDEMILL_TLS_RELOAD_INTERVAL");
        check("TLS handshake timeout (TCP accept -> handshake done)", d.handshakeTimeout().toSeconds() + " s",
                Tls.HANDSHAKE_TIMEOUT, "TIDEMILL_TLS_HANDSHAKE_TIMEOUT");
        check("TLS handshakes in progress at once", Integer.toString(d.maxHandshakes()), Tls.MAX_HANDSHAKES,
                "TIDEMILL_TLS_MAX_HANDSHAKES");
        check("TLS session ticket key rotation (OpenSSL provider)", d.ticketKeyRotation().toHours() + " h",
                Tls.TICKET_KEY_ROTATION, "TIDEMILL_TLS_TICKET_ROTATION");
        check("HSTS `max-age` on TLS responses (0: no header)", d.hstsMaxAge().toSeconds() + " s", Tls.HSTS_MAX_AGE,
                "TIDEMILL_TLS_HSTS_MAX_AGE");
        check("TLS self-signed development certificate (never by default)", Boolean.toString(d.selfSigned()), null,
                "TIDEMILL_TLS_SELF_SIGNED");
        check("HTTP -> HTTPS redirect on the plain port", Boolean.toString(d.redirectHttp()), null, "TIDEMILL_TLS_REDIRECT_HTTP");
        check("TLS provider", d.provider().name().toLowerCase(java.util.Locale.ROOT), null, "TIDEMILL_TLS_PROVIDER");
        check("TLS client certificates (mTLS)", d.clientAuth().name().toLowerCase(java.util.Locale.ROOT), null,
                "TIDEMILL_TLS_CLIENT_AUTH");
        assertThat(d.enabled()).as("TLS is off by default").isFalse();
    }

    @Test
    void theEnvironmentSetsTlsAndRefusesHalfAnIdentityWithoutQuotingValues() {
        Config c = Config.fromEnvironment(Map.of("TIDEMILL_TLS_CERT", "/etc/tls/a.crt", "TIDEMILL_TLS_KEY", "/etc/tls/a.key",
                "TIDEMILL_TLS_KEY_PASSWORD", "hunter2", "TIDEMILL_TLS_PORT", "9443", "TIDEMILL_TLS_MAX_HANDSHAKES", "32",
                "TIDEMILL_TLS_HSTS_MAX_AGE", "P365D", "TIDEMILL_TLS_CLIENT_AUTH", "optional",
                "TIDEMILL_TLS_CLIENT_TRUST", "/etc/tls/ca.crt"));
        Tls tls = c.tls();
        assertThat(tls.enabled()).isTrue();
        assertThat(tls.identity().orElseThrow().keyPassword()).contains("hunter2");
        assertThat(tls.toString()).doesNotContain("hunter2");
        assertThat(tls.port()).isEqualTo(9443);
        assertThat(tls.maxHandshakes()).isEqualTo(32);
        assertThat(tls.hstsMaxAge()).isEqualTo(Duration.ofDays(365));
        assertThat(tls.clientAuth()).isEqualTo(Tls.ClientAuth.OPTIONAL);
        assertThatThrownBy(() -> Config.fromEnvironment(Map.of("TIDEMILL_TLS_CERT", "/etc/tls/secret-name.crt")))
                .hasMessageContaining("tls.certificate and tls.key go together").hasMessageNotContaining("secret-name");
        assertThatThrownBy(() -> Config.fromEnvironment(Map.of("TIDEMILL_TLS_MAX_HANDSHAKES", "0")))
                .hasMessage("TIDEMILL_TLS_MAX_HANDSHAKES must be an integer 1-65536");
        assertThatThrownBy(() -> Config.fromEnvironment(Map.of("TIDEMILL_TLS_CLIENT_AUTH", "require")))
                .hasMessageContaining("tls.clientTrust is required");
        assertThatThrownBy(() -> Tls.builder().sni("Upper.Example", Tls.Identity.of(Path.of("a"), Path.of("b"))).build())
                .hasMessageContaining("lower-case");
    }
}
