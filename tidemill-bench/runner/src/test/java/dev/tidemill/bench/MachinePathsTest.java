package dev.tidemill.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MachinePathsTest {
    /** A host whose checkout and Maven repository lie under the home directory, as they often do. */
    private final MachinePaths paths = new MachinePaths(Path.of("/u/ci/src/tidemill"), Path.of("/u/ci/.m2/repository"),
            Path.of("/var/scratch"), Path.of("/u/ci"));

    @Test
    void aClassPathBecomesRelativeToTheCheckoutAndTheMavenRepository() {
        String cp = "/u/ci/src/tidemill/tidemill-core/target/tidemill-core-0.1.0-SNAPSHOT.jar:"
                + "/u/ci/.m2/repository/io/netty/netty-common/4.2.18.Final/netty-common-4.2.18.Final.jar:/u/ci/lib/x.jar";
        assertThat(paths.strip(cp)).isEqualTo("tidemill-core/target/tidemill-core-0.1.0-SNAPSHOT.jar:"
                + "${maven.repo}/io/netty/netty-common/4.2.18.Final/netty-common-4.2.18.Final.jar:~/lib/x.jar");
    }

    @Test
    void temporaryDirectoriesURIsAndTheRootItselfAreNamedToo() {
        assertThat(paths.strip("-Djava.io.tmpdir=/var/scratch/tidemill-bench-uploads-1/jetty/check/tmp"))
                .isEqualTo("-Djava.io.tmpdir=${java.io.tmpdir}/tidemill-bench-uploads-1/jetty/check/tmp");
        assertThat(paths.strip("\"outDir\" : \"file:///u/ci/src/tidemill/bench/results/\", \"repoRoot\" : \"file:///u/ci/src/tidemill/\""))
                .isEqualTo("\"outDir\" : \"./bench/results/\", \"repoRoot\" : \"./\"");
        assertThat(paths.strip("cwd /u/ci/src/tidemill, -s /var/scratch/b/wrk/post.lua")).isEqualTo("cwd ., -s ${java.io.tmpdir}/b/wrk/post.lua");
    }

    @Test
    void onlyWholePathsAreReplaced() {
        // a longer name, or the same name deeper in another path, is someone else's directory
        assertThat(paths.strip("/u/ci/src/tidemill-old/x /opt/u/ci/y /var/scratchpad/z /u/circle"))
                .isEqualTo("~/src/tidemill-old/x /opt/u/ci/y /var/scratchpad/z /u/circle");
    }

    @Test
    void theResultFilesWrittenNameNoPathOfThisMachine(@TempDir Path dir) throws Exception {
        String here = Path.of("").toAbsolutePath().toString();
        String tmp = Path.of(System.getProperty("java.io.tmpdir")).toAbsolutePath().toString();
        Map<String, Object> result = Map.of("command", List.of("java", "-cp", here + "/tidemill-core/target/classes:"
                + System.getProperty("java.class.path"), "-Djava.io.tmpdir=" + tmp + "/tidemill-bench-x"));
        Path json = ResultFile.write(dir, "paths", result, "`" + here + "/bench/prof-h2.sh`\n");
        String written = Files.readString(json);
        assertThat(written).contains("\"tidemill-core/target/classes:", "${java.io.tmpdir}/tidemill-bench-x").doesNotContain(here + "/");
        if (tmp.length() > 1) assertThat(written).doesNotContain(tmp + "/");
        assertThat(Files.readString(dir.resolve(json.getFileName().toString().replace(".json", ".md")))).isEqualTo("`bench/prof-h2.sh`\n");
    }
}
