package dev.tidemill.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scaffold builds and its tests pass: {@code new} into a temporary directory, then
 * {@code mvn -o -B -q test} there, offline, against the local repository this build installs
 * into ({@code tidemill.localRepository}, the outer build's {@code settings.localRepository}),
 * on the JDK running this test. Under {@code mvn install} (./tidemill test) the BOM, the core and
 * the testing module are installed before this module's tests run: this module depends on them.
 */
class ScaffoldBuildTest {

    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void theScaffoldBuildsAndItsSocketAndInMemoryTestsPass(@TempDir Path dir) throws Exception {
        ScaffoldTest.Outcome created = ScaffoldTest.cli("new", "hello-tide", "--dir", dir.toString());
        assertThat(created.status()).as(created.err()).isZero();
        Path project = dir.resolve("hello-tide");
        String repo = System.getProperty("tidemill.localRepository",
                Path.of(System.getProperty("user.home"), ".m2", "repository").toString());
        Path installed = Path.of(repo, "dev", "tidemill", "tidemill-bom", System.getProperty("tidemill.version", "0.1.0-SNAPSHOT"));
        assertThat(installed).as("tidemill-bom installed in %s (build with mvn install, e.g. ./tidemill test)", repo).isDirectory();

        List<String> cmd = new ArrayList<>(List.of("mvn", "-o", "-B", "-q", "-Dstyle.color=never", "-Dmaven.repo.local=" + repo, "test"));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(project.toFile()).redirectErrorStream(true)
                .redirectOutput(dir.resolve("build.log").toFile());
        Map<String, String> env = pb.environment();
        String javaHome = System.getProperty("java.home");
        env.put("JAVA_HOME", javaHome);
        env.put("PATH", Path.of(javaHome, "bin") + java.io.File.pathSeparator + env.getOrDefault("PATH", ""));
        if (Runtime.version().feature() >= 23) env.put("MAVEN_OPTS", "--sun-misc-unsafe-memory-access=allow"); // Maven's own Guava
        Process build = pb.start();
        boolean ended = build.waitFor(8, TimeUnit.MINUTES);
        if (!ended) build.destroyForcibly().waitFor();
        String log = Files.readString(dir.resolve("build.log"), StandardCharsets.UTF_8);
        assertThat(ended).as("the scaffold's build ended within 8 minutes; log:%n%s", log).isTrue();
        assertThat(build.exitValue()).as("mvn test in the scaffold; log:%n%s", log).isZero();

        Path reports = project.resolve("target/surefire-reports");
        int tests = 0;
        try (Stream<Path> files = Files.list(reports)) {
            for (Path f : files.filter(f -> f.getFileName().toString().startsWith("TEST-")).toList()) {
                String xml = Files.readString(f);
                tests += attribute(xml, "tests");
                assertThat(attribute(xml, "failures") + attribute(xml, "errors") + attribute(xml, "skipped")).as(f.toString()).isZero();
            }
        }
        assertThat(tests).as("HelloTest (2) and HelloInMemoryTest (1) ran").isEqualTo(3);
    }

    private static int attribute(String xml, String name) throws IOException {
        Matcher m = Pattern.compile("<testsuite[^>]*\\s" + name + "=\"(\\d+)\"").matcher(xml);
        if (!m.find()) throw new IOException("no " + name + " in a surefire report");
        return Integer.parseInt(m.group(1));
    }
}
