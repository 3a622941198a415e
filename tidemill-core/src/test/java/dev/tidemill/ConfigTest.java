package dev.tidemill;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConfigTest {

    @Test
    void defaultsAreTheDocumentedOnes() {
        Config c = Config.defaults();
        assertThat(c.host()).isEqualTo("127.0.0.1");
        assertThat(c.port()).isEqualTo(8080);
        assertThat(c.executionMode()).isEqualTo(ExecutionMode.LOOP);
        assertThat(c.transport()).isEqualTo(Transport.AUTO);
        assertThat(c.assignment()).isEqualTo(Assignment.LEAST_LOADED);
        assertThat(c.limits()).isEqualTo(Limits.DEFAULTS);
        assertThat(c.timeouts()).isEqualTo(Timeouts.DEFAULTS);
        assertThat(c.limits().concurrencyPerLoop()).isEqualTo(1024);
        assertThat(c.limits().maxConnections()).isEqualTo(10_000);
        assertThat(c.limits().maxRequestLineBytes()).isEqualTo(8192);
        assertThat(c.limits().maxHeaderBytes()).isEqualTo(16384);
        assertThat(c.limits().maxHeaderCount()).isEqualTo(100);
        assertThat(c.limits().maxBodyBytes()).isEqualTo(16L * 1024 * 1024);
        assertThat(c.limits().maxPipelined()).isEqualTo(16);
        assertThat(c.timeouts().request()).isEqualTo(Duration.ofSeconds(30));
        assertThat(c.timeouts().headerRead()).isEqualTo(Duration.ofSeconds(15));
        assertThat(c.timeouts().idle()).isEqualTo(Duration.ofSeconds(15));
        assertThat(c.timeouts().bodyStall()).isEqualTo(Duration.ofSeconds(30));
        assertThat(c.timeouts().shutdownGrace()).isEqualTo(Duration.ofSeconds(10));
    }

    @Test
    void environmentOverridesEveryKindOfSetting() {
        Config c = Config.fromEnvironment(Map.of(
                "TIDEMILL_HOST", "0.0.0.0",
                "TIDEMILL_PORT", "9090",
                "TIDEMILL_LOOPS", "3",
                "TIDEMILL_MODE", "virtual",
                "TIDEMILL_TRANSPORT", "io_uring",
                "TIDEMILL_MAX_BODY", "1MiB",
                "TIDEMILL_REQUEST_TIMEOUT", "500ms",
                "TIDEMILL_DEBUG", "yes",
                "TIDEMILL_ASSIGNMENT", "round-robin",
                "PATH", "/usr/bin"));
        assertThat(c.host()).isEqualTo("0.0.0.0");
        assertThat(c.port()).isEqualTo(9090);
        assertThat(c.workerLoops()).isEqualTo(3);
        assertThat(c.executionMode()).isEqualTo(ExecutionMode.VIRTUAL);
        assertThat(c.transport()).isEqualTo(Transport.IO_URING);
        assertThat(c.limits().maxBodyBytes()).isEqualTo(1024 * 1024);
        assertThat(c.timeouts().request()).isEqualTo(Duration.ofMillis(500));
        assertThat(c.debug()).isTrue();
        assertThat(c.assignment()).isEqualTo(Assignment.ROUND_ROBIN);
    }

    @Test
    void aBadValueNamesTheVariableAndWhatItExpectsButNeverEchoesTheValue() {
        String secret = "hunter2-secret-token";
        assertThatThrownBy(() -> Config.fromEnvironment(Map.of("TIDEMILL_PORT", secret)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("TIDEMILL_PORT")
                .hasMessageContaining("0-65535")
                .hasMessageNotContaining(secret);
        assertThatThrownBy(() -> Config.fromEnvironment(Map.of("TIDEMILL_MAX_BODY", secret)))
                .hasMessageContaining("TIDEMILL_MAX_BODY").hasMessageNotContaining(secret);
        assertThatThrownBy(() -> Config.fromEnvironment(Map.of("TIDEMILL_MODE", secret)))
                .hasMessageContaining("io, loop, virtual").hasMessageNotContaining(secret);
        assertThatThrownBy(() -> Config.fromEnvironment(Map.of("TIDEMILL_PORT", "65536")))
                .hasMessageContaining("TIDEMILL_PORT");
        assertThatThrownBy(() -> Config.fromEnvironment(Map.of("TIDEMILL_REQUEST_TIMEOUT", "0s")))
                .hasMessageContaining("TIDEMILL_REQUEST_TIMEOUT");
    }

    @Test
    void anUnknownTidemillVariableIsRefusedSoTyposDoNotFallBackToDefaults() {
        assertThatThrownBy(() -> Config.fromEnvironment(Map.of("TIDEMILL_PROT", "80")))
                .hasMessageContaining("TIDEMILL_PROT is not a Tidemill setting");
    }

    @Test
    void builderRejectsOutOfRangeValuesNamingTheField() {
        assertThatThrownBy(() -> Config.builder().port(-1).build()).hasMessageContaining("port");
        assertThatThrownBy(() -> Config.builder().maxPipelined(0).build()).hasMessageContaining("maxPipelined");
        assertThatThrownBy(() -> Config.builder().serverHeader("a\r\nb").build()).hasMessageContaining("serverHeader");
    }
}
