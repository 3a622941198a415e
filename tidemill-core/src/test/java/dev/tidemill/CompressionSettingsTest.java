package dev.tidemill;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The compression settings: defaults on, one range check per field, the environment reader and the builders agree. */
class CompressionSettingsTest {

    @Test
    void onByDefault() {
        Compression c = Config.defaults().compression();
        assertThat(c).isEqualTo(Compression.DEFAULTS);
        assertThat(c.enabled()).isTrue();
        assertThat(c.minBytes()).isEqualTo(512);
    }

    @Test
    void levelsOutsideTheirRangeAreRefusedNamingTheField() {
        assertThatThrownBy(() -> Compression.builder().brotliLevel(12).build()).hasMessageContaining("brotliLevel");
        assertThatThrownBy(() -> Compression.builder().zstdLevel(0).build()).hasMessageContaining("zstdLevel");
        assertThatThrownBy(() -> Compression.builder().gzipLevel(10).build()).hasMessageContaining("gzipLevel");
        assertThatThrownBy(() -> Config.builder().compressionMinBytes(-1).build()).hasMessageContaining("minBytes");
        assertThat(Compression.builder().brotliLevel(0).zstdLevel(22).gzipLevel(1).build().zstdLevel()).isEqualTo(22);
    }

    @Test
    void theEnvironmentTurnsItOffAndSetsTheMinimum() {
        Config c = Config.fromEnvironment(Map.of("TIDEMILL_COMPRESSION", "false", "TIDEMILL_COMPRESSION_MIN_SIZE", "1KiB"));
        assertThat(c.compression().enabled()).isFalse();
        assertThat(c.compression().minBytes()).isEqualTo(1024);
        assertThatThrownBy(() -> Config.fromEnvironment(Map.of("TIDEMILL_COMPRESSION", "maybe")))
                .hasMessageContaining("TIDEMILL_COMPRESSION");
    }

    @Test
    void toBuilderKeepsTheCompressionSettings() {
        Config c = Config.builder().compression(Compression.builder().gzipLevel(9).build()).compression(false).build();
        assertThat(c.toBuilder().build().compression()).isEqualTo(new Compression(false, 512, 4, 3, 9));
    }
}
