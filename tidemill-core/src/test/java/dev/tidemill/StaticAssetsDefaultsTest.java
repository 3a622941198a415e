package dev.tidemill;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** docs/static-assets.md's defaults table says what {@link StaticAssets.Builder} starts from. */
class StaticAssetsDefaultsTest {

    @Test
    void theDocsTableIsTheBuildersDefaults() throws Exception {
        StaticAssets d = StaticAssets.builder().build();
        Map<String, String> rows = new LinkedHashMap<>();
        for (String line : Files.readAllLines(Path.of("..", "docs", "static-assets.md"))) {
            if (!line.startsWith("| `")) continue;
            String[] cells = line.split("\\|");
            rows.put(cells[1].strip().replace("`", ""), cells[2].strip());
        }
        assertThat(rows.get("dotfiles")).isEqualTo(String.valueOf(d.dotfiles()));
        assertThat(rows.get("maxInMemoryBytes")).isEqualTo("1 MiB (1,048,576)");
        assertThat(d.maxInMemoryBytes()).isEqualTo(1_048_576);
        assertThat(rows.get("precompression.enabled")).isEqualTo(String.valueOf(d.precompression().enabled()));
        assertThat(rows.get("precompression.minBytes")).startsWith(d.precompression().minBytes() + " ");
        assertThat(d.precompression().minBytes()).as("response compression's, defined there").isEqualTo(Compression.DEFAULTS.minBytes());
        assertThat(rows.get("precompression.brotliLevel")).isEqualTo(String.valueOf(d.precompression().brotliLevel()));
        assertThat(rows.get("precompression.zstdLevel")).isEqualTo(String.valueOf(d.precompression().zstdLevel()));
        assertThat(rows.get("precompression.gzipLevel")).isEqualTo(String.valueOf(d.precompression().gzipLevel()));
        assertThat(d.names()).isEmpty();
    }

    @Test
    void theRangeIsChecked() {
        assertThatThrownBy(() -> StaticAssets.builder().maxInMemoryBytes(-1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("maxInMemoryBytes");
        assertThatThrownBy(() -> StaticAssets.builder().maxInMemoryBytes((1L << 30) + 1)).isInstanceOf(IllegalArgumentException.class);
    }
}
