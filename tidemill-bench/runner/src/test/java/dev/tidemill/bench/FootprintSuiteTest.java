package dev.tidemill.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The footprint suite's reading of an app's class path and its table; the measuring is the run's. */
class FootprintSuiteTest {

    @Test
    void readsTheJarsOfABuildClasspathFile(@TempDir Path dir) throws Exception {
        Path a = Files.write(dir.resolve("a.jar"), new byte[100]);
        Path b = Files.write(dir.resolve("b.jar"), new byte[250]);
        Path cp = Files.writeString(dir.resolve("classpath.txt"), a + File.pathSeparator + b + "\n");
        assertThat(FootprintSuite.classPath(cp)).containsExactly(a, b);
        Path classes = Files.createDirectories(dir.resolve("classes/x"));
        Files.write(classes.resolve("Main.class"), new byte[7]);
        assertThat(FootprintSuite.directoryBytes(dir.resolve("classes"))).isEqualTo(7);
    }

    @Test
    void aMissingClasspathOrJarFailsInsteadOfCountingZero(@TempDir Path dir) throws Exception {
        assertThatThrownBy(() -> FootprintSuite.classPath(dir.resolve("classpath.txt")))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("build the apps first");
        Path cp = Files.writeString(dir.resolve("classpath.txt"), dir.resolve("gone.jar").toString());
        assertThatThrownBy(() -> FootprintSuite.classPath(cp)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("not a file");
    }

    @Test
    void theTableHasARowPerApp() {
        List<FootprintSuite.Row> rows = List.of(
                new FootprintSuite.Row("tidemill", "Tidemill", 12, 3_456_789, List.of(300.0, 310.0, 290.0), 300.0,
                        List.of(60_000L), 60_000, List.of("a.jar")),
                new FootprintSuite.Row("javalin", "Javalin 7", 36, 7_251_789, List.of(500.0), 500.0, List.of(80_000L), 80_000,
                        List.of("b.jar")));
        assertThat(FootprintSuite.table(rows)).contains("| Tidemill | 12 | 3,456,789 | 300 ms | 58.6 MiB |")
                .contains("| Javalin 7 | 36 | 7,251,789 | 500 ms | 78.1 MiB |");
        assertThat(FootprintSuite.medianLong(List.of(5L, 1L, 3L))).isEqualTo(3);
    }
}
