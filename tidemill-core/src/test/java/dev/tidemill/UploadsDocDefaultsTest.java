package dev.tidemill;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** docs/uploads.md's table of multipart limits says what {@link Limits#DEFAULTS} holds. */
class UploadsDocDefaultsTest {

    @Test
    void theMultipartLimitsTableIsTheDefaults() throws Exception {
        Map<String, String> rows = new LinkedHashMap<>();
        for (String line : Files.readAllLines(Path.of("..", "docs", "uploads.md"))) {
            if (!line.startsWith("| `")) continue;
            String[] cells = line.split("\\|");
            String name = cells[1].strip();
            rows.put(name.substring(1, name.indexOf('`', 1)), cells[2].strip());
        }
        Limits d = Limits.DEFAULTS;
        assertThat(rows.get("maxBodyBytes")).isEqualTo(d.maxBodyBytes() / (1 << 20) + " MiB");
        assertThat(rows.get("maxParts")).isEqualTo(String.format(java.util.Locale.ROOT, "%,d", d.maxParts()));
        assertThat(rows.get("maxPartHeaderBytes")).isEqualTo(d.maxPartHeaderBytes() / 1024 + " KiB (" + String.format(java.util.Locale.ROOT, "%,d", d.maxPartHeaderBytes()) + ")");
        assertThat(rows.get("maxFieldBytes")).isEqualTo(d.maxFieldBytes() / 1024 + " KiB (" + String.format(java.util.Locale.ROOT, "%,d", d.maxFieldBytes()) + ")");
        assertThat(rows.get("maxFileBytes")).isEqualTo(d.maxFileBytes() / (1 << 30) + " GiB (" + String.format(java.util.Locale.ROOT, "%,d", d.maxFileBytes()) + ")");
        assertThat(rows.get("uploadMemoryBytes")).isEqualTo(d.uploadMemoryBytes() / 1024 + " KiB (" + String.format(java.util.Locale.ROOT, "%,d", d.uploadMemoryBytes()) + ")");
    }
}
