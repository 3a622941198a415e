package dev.tidemill.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code new NAME}: what it refuses (one line, exit 2), what it writes, and the versions it pins. */
class ScaffoldTest {
    record Outcome(int status, String out, String err) {}

    static Outcome cli(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = Main.run(args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Outcome(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @ParameterizedTest
    @ValueSource(strings = {"Hello", "1app", "my_app", "a..b", "../evil", "app-", "-app", "a--b", "my.app", "app/x", ""})
    void unsafeNamesAreRefusedWithOneLineAndStatus2(String name, @TempDir Path dir) throws Exception {
        Outcome o = cli("new", name, "--dir", dir.toString());
        assertThat(o.status()).isEqualTo(2);
        assertThat(o.err()).startsWith("tidemill: new: ").endsWith("\n").doesNotContain("\tat ");
        assertThat(o.err().lines()).hasSize(1);
        try (Stream<Path> files = Files.list(dir)) {
            assertThat(files).as("nothing written").isEmpty();
        }
    }

    @Test
    void otherBadCommandLinesGetStatus2Too(@TempDir Path dir) {
        assertThat(cli().status()).isEqualTo(2);
        assertThat(cli("frobnicate").err()).isEqualTo("tidemill: unknown command: frobnicate (new, dev, help)\n");
        assertThat(cli("new").err()).contains("NAME missing");
        assertThat(cli("new", "app", "--package").err()).contains("--package needs a value");
        assertThat(cli("new", "app", "--package", "com.example.class", "--dir", dir.toString()).err()).contains("Java package");
        assertThat(cli("new", "app", "--colour", "red").status()).isEqualTo(2);
        assertThat(cli("dev", "--classes", dir.toString()).err()).contains("--main CLASS missing");
        assertThat(cli("dev", "--main", "x.Y", "--classes", dir.resolve("nope").toString()).err()).contains("not a directory");
        assertThat(cli("help").status()).isZero();
    }

    @Test
    void aNonEmptyDirectoryIsRefusedAnEmptyOneIsFilled(@TempDir Path dir) throws Exception {
        Files.createDirectories(dir.resolve("taken"));
        Files.writeString(dir.resolve("taken/notes.txt"), "mine");
        Outcome refused = cli("new", "taken", "--dir", dir.toString());
        assertThat(refused.status()).isEqualTo(2);
        assertThat(refused.err()).contains("exists and is not empty");
        assertThat(Files.readString(dir.resolve("taken/notes.txt"))).isEqualTo("mine");

        Files.createDirectories(dir.resolve("empty"));
        assertThat(cli("new", "empty", "--dir", dir.toString()).status()).isZero();
        assertThat(dir.resolve("empty/pom.xml")).exists();
    }

    @Test
    void writesTheProjectWithEveryPlaceholderFilled(@TempDir Path dir) throws Exception {
        Outcome o = cli("new", "tide-shop", "--dir", dir.toString());
        assertThat(o.status()).as(o.err()).isZero();
        Path p = dir.resolve("tide-shop");
        assertThat(o.out()).contains(p.toString());
        List<String> expected = List.of("pom.xml", "README.md", ".gitignore", "src/main/java/com/example/tideshop/Main.java",
                "src/test/java/com/example/tideshop/HelloTest.java", "src/test/java/com/example/tideshop/HelloInMemoryTest.java");
        for (String f : expected) {
            assertThat(p.resolve(f)).exists();
            assertThat(Files.readString(p.resolve(f))).as(f).doesNotContain("{{");
        }
        String pom = Files.readString(p.resolve("pom.xml"));
        assertThat(pom).contains("<artifactId>tide-shop</artifactId>", "<groupId>com.example.tideshop</groupId>",
                "<artifactId>tidemill-bom</artifactId>", "<scope>import</scope>", "<maven.compiler.release>21</maven.compiler.release>",
                "--sun-misc-unsafe-memory-access=allow --enable-native-access=ALL-UNNAMED",
                "<tidemill.version>" + System.getProperty("tidemill.version", "0.1.0-SNAPSHOT") + "</tidemill.version>");
        assertThat(Files.readString(p.resolve("src/main/java/com/example/tideshop/Main.java")))
                .contains("package com.example.tideshop;", "app.get(\"/hello\"", ".run(");
        assertThat(Files.readString(p.resolve("src/test/java/com/example/tideshop/HelloInMemoryTest.java")))
                .contains("@TidemillTest(inMemory = true)");

        Outcome custom = cli("new", "other", "--package", "org.acme.web", "--dir", dir.toString());
        assertThat(custom.status()).isZero();
        assertThat(dir.resolve("other/src/main/java/org/acme/web/Main.java")).exists();
    }

    /** The plugin versions a scaffold pins are the ones this build pins (the parent POM): one source. */
    @Test
    void pinnedPluginVersionsAreTheParentPomsOnes() throws Exception {
        String parent = Files.readString(Path.of("..", "pom.xml"));
        Properties versions = Scaffold.versions();
        List<String[]> plugins = List.of(new String[] {"compilerPlugin", "maven-compiler-plugin"},
                new String[] {"surefirePlugin", "maven-surefire-plugin"}, new String[] {"resourcesPlugin", "maven-resources-plugin"},
                new String[] {"jarPlugin", "maven-jar-plugin"}, new String[] {"installPlugin", "maven-install-plugin"},
                new String[] {"cleanPlugin", "maven-clean-plugin"}, new String[] {"deployPlugin", "maven-deploy-plugin"},
                new String[] {"sitePlugin", "maven-site-plugin"}, new String[] {"dependencyPlugin", "maven-dependency-plugin"});
        for (String[] p : plugins) {
            Matcher m = Pattern.compile("<artifactId>" + p[1] + "</artifactId>\\s*<version>([^<]+)</version>").matcher(parent);
            assertThat(m.find()).as("%s in the parent POM", p[1]).isTrue();
            assertThat(versions.getProperty(p[0])).as(p[1]).isEqualTo(m.group(1));
        }
        assertThat(versions.getProperty("tidemill")).doesNotContain("${");
        assertThat(versions.getProperty("junit")).matches("\\d+\\.\\d+\\.\\d+");
    }
}
