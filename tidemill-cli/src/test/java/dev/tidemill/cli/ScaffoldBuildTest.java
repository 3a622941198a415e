package dev.tidemill.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
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
 * on the JDK running this test. Under {@code mvn install} (./tidemill test) the BOM, the core, the
 * processor and the testing module are installed before this module's tests run: this module
 * depends on them.
 */
class ScaffoldBuildTest {

    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void theScaffoldBuildsAndItsSocketAndInMemoryTestsPass(@TempDir Path dir) throws Exception {
        Path project = scaffold(dir, "hello-tide");
        Map<String, Integer> suites = build(dir, project);
        assertThat(suites).as("HelloTest (2) and HelloInMemoryTest (1) ran")
                .isEqualTo(Map.of("com.example.hellotide.HelloInMemoryTest", 1, "com.example.hellotide.HelloTest", 2));
    }

    /**
     * {@code --controllers}: the processor runs in the scaffold's own build (its generated routes and
     * index are in target/), and the tests that call the controller's routes over a socket and in
     * memory pass. Without the processor they could not: app.controllers(...) would throw.
     */
    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void theControllersScaffoldRunsTheProcessorAndItsSocketAndInMemoryTestsPass(@TempDir Path dir) throws Exception {
        Path project = scaffold(dir, "hello-controllers", "--controllers", "--package", "org.acme.greet");
        Map<String, Integer> suites = build(dir, project);

        Path generated = project.resolve("target/generated-sources/annotations/org/acme/greet");
        assertThat(generated.resolve("GreetingControllerRoutes.java")).as("tidemill-processor wrote the routes").isRegularFile();
        assertThat(generated.resolve("TidemillControllers.java")).as("tidemill-processor wrote the index").isRegularFile();
        assertThat(Files.readString(project.resolve("target/classes/META-INF/services/dev.tidemill.ControllerIndex")).strip())
                .isEqualTo("org.acme.greet.TidemillControllers");
        assertThat(suites).as("GreetingTest (4) and GreetingInMemoryTest (1) ran")
                .isEqualTo(Map.of("org.acme.greet.GreetingInMemoryTest", 1, "org.acme.greet.GreetingTest", 4));
    }

    /** Runs {@code new NAME ARGS --dir DIR} and checks that it worked; @return the project */
    private static Path scaffold(Path dir, String name, String... args) {
        List<String> cmd = new ArrayList<>(List.of("new", name));
        cmd.addAll(List.of(args));
        cmd.addAll(List.of("--dir", dir.toString()));
        ScaffoldTest.Outcome created = ScaffoldTest.cli(cmd.toArray(String[]::new));
        assertThat(created.status()).as(created.err()).isZero();
        return dir.resolve(name);
    }

    /**
     * Runs {@code mvn -o test} in the project, which must succeed, and reads its Surefire reports.
     *
     * @return the tests run per test class; none failed, erred or was skipped
     */
    private static Map<String, Integer> build(Path dir, Path project) throws Exception {
        String repo = System.getProperty("tidemill.localRepository",
                Path.of(System.getProperty("user.home"), ".m2", "repository").toString());
        String version = System.getProperty("tidemill.version", "0.1.0-SNAPSHOT");
        for (String module : List.of("tidemill-bom", "tidemill-core", "tidemill-processor", "tidemill-testing")) {
            assertThat(Path.of(repo, "dev", "tidemill", module, version))
                    .as("%s installed in %s (build with mvn install, e.g. ./tidemill test)", module, repo).isDirectory();
        }

        Path buildLog = dir.resolve("build.log");
        List<String> cmd = new ArrayList<>(List.of("mvn", "-o", "-B", "-q", "-Dstyle.color=never", "-Dmaven.repo.local=" + repo, "test"));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(project.toFile()).redirectErrorStream(true)
                .redirectOutput(buildLog.toFile());
        Map<String, String> env = pb.environment();
        String javaHome = System.getProperty("java.home");
        env.put("JAVA_HOME", javaHome);
        env.put("PATH", Path.of(javaHome, "bin") + java.io.File.pathSeparator + env.getOrDefault("PATH", ""));
        if (Runtime.version().feature() >= 23) env.put("MAVEN_OPTS", "--sun-misc-unsafe-memory-access=allow"); // Maven's own Guava
        Process build = pb.start();
        boolean ended = build.waitFor(8, TimeUnit.MINUTES);
        if (!ended) build.destroyForcibly().waitFor();
        String log = Files.readString(buildLog, StandardCharsets.UTF_8);
        assertThat(ended).as("the scaffold's build ended within 8 minutes; log:%n%s", log).isTrue();
        assertThat(build.exitValue()).as("mvn test in the scaffold; log:%n%s", log).isZero();

        Path reports = project.resolve("target/surefire-reports");
        Map<String, Integer> suites = new TreeMap<>();
        try (Stream<Path> files = Files.list(reports)) {
            for (Path f : files.filter(f -> f.getFileName().toString().startsWith("TEST-")).toList()) {
                String xml = Files.readString(f);
                Matcher suite = Pattern.compile("<testsuite[^>]*\\sname=\"([^\"]+)\"").matcher(xml);
                assertThat(suite.find()).as("a suite name in %s", f).isTrue();
                suites.put(suite.group(1), attribute(xml, "tests"));
                assertThat(attribute(xml, "failures") + attribute(xml, "errors") + attribute(xml, "skipped")).as(f.toString()).isZero();
            }
        }
        return suites;
    }

    private static int attribute(String xml, String name) throws IOException {
        Matcher m = Pattern.compile("<testsuite[^>]*\\s" + name + "=\"(\\d+)\"").matcher(xml);
        if (!m.find()) throw new IOException("no " + name + " in a surefire report");
        return Integer.parseInt(m.group(1));
    }
}
