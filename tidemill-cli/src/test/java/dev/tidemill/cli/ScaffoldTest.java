package dev.tidemill.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
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
        assertThat(cli("new", "app", "--controller", "--dir", dir.toString()).err()).isEqualTo("tidemill: new: unknown option --controller\n");
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

    /** Without {@code --controllers}: these files and no others, nothing of the controller style. */
    @Test
    void withoutControllersTheProjectHasNoControllerNorProcessor(@TempDir Path dir) throws Exception {
        assertThat(cli("new", "plain", "--dir", dir.toString()).status()).isZero();
        Path p = dir.resolve("plain");
        assertThat(files(p)).containsExactlyInAnyOrder("pom.xml", "README.md", ".gitignore", "src/main/java/com/example/plain/Main.java",
                "src/test/java/com/example/plain/HelloTest.java", "src/test/java/com/example/plain/HelloInMemoryTest.java");
        assertThat(Files.readString(p.resolve("pom.xml"))).doesNotContain("annotationProcessorPaths", "tidemill-processor", "hibernate-validator");
        assertThat(Files.readString(p.resolve("src/main/java/com/example/plain/Main.java")))
                .contains("app.get(\"/hello\"").doesNotContain("controllers(", "GreetingController");
        assertThat(Files.readString(p.resolve("README.md"))).doesNotContain("GreetingController", "tidemill-processor");
    }

    @Test
    void withControllersTheRoutesAreAControllerAndThePomRunsTheProcessor(@TempDir Path dir) throws Exception {
        Outcome o = cli("new", "tide-shop", "--controllers", "--dir", dir.toString());
        assertThat(o.status()).as(o.err()).isZero();
        Path p = dir.resolve("tide-shop");
        String src = "src/main/java/com/example/tideshop/";
        String test = "src/test/java/com/example/tideshop/";
        assertThat(files(p)).containsExactlyInAnyOrder("pom.xml", "README.md", ".gitignore", src + "Main.java",
                src + "GreetingController.java", test + "GreetingTest.java", test + "GreetingInMemoryTest.java");
        for (String f : files(p)) assertThat(Files.readString(p.resolve(f))).as(f).doesNotContain("{{");

        String pom = Files.readString(p.resolve("pom.xml"));
        Matcher compiler = Pattern.compile("<artifactId>maven-compiler-plugin</artifactId>\\s*<version>([^<]+)</version>"
                + "\\s*<configuration>(.*?)</configuration>", Pattern.DOTALL).matcher(pom);
        assertThat(compiler.find()).as("maven-compiler-plugin, pinned, with its configuration").isTrue();
        assertThat(compiler.group(1)).isEqualTo(Scaffold.versions().getProperty("compilerPlugin")).isEqualTo("3.16.0");
        assertThat(compiler.group(2).replaceAll("\\s+", "")).contains("<annotationProcessorPaths><path><groupId>dev.tidemill</groupId>"
                + "<artifactId>tidemill-processor</artifactId></path></annotationProcessorPaths>");
        assertThat(pom).contains("<artifactId>tidemill-bom</artifactId>", "<artifactId>hibernate-validator</artifactId>");

        assertThat(Files.readString(p.resolve(src + "Main.java")))
                .contains("app.controllers(new GreetingController());").doesNotContain("app.get(");
        assertThat(Files.readString(p.resolve(src + "GreetingController.java"))).contains("package com.example.tideshop;",
                "@Controller", "@Get(\"/hello\")", "@QueryParam(defaultValue = \"World\") String name",
                "@Get(\"/items/{id}\")", "@PathParam long id", "@QueryParam(defaultValue = \"false\") boolean uppercase",
                "@Post(\"/items\")", "@Status(201)", "@Body NewItem body", "@NotBlank", "@Anonymous");
        assertThat(Files.readString(p.resolve(test + "GreetingTest.java"))).contains("@TidemillTest\n", "client.postJson(\"/items\"");
        assertThat(Files.readString(p.resolve(test + "GreetingInMemoryTest.java"))).contains("@TidemillTest(inMemory = true)");
        assertThat(Files.readString(p.resolve("README.md")))
                .contains("provides dev.tidemill.ControllerIndex with com.example.tideshop.TidemillControllers;");
    }

    @Test
    void sectionsKeepOrDropWholeLinesAndRefuseMistakes() {
        String t = "a\n{{#on}}\nb\n{{/on}}\n  {{^on}}  \nc\n{{/on}}\nd\n";
        assertThat(Scaffold.sections(t, Map.of("on", true))).isEqualTo("a\nb\nd\n");
        assertThat(Scaffold.sections(t, Map.of("on", false))).isEqualTo("a\nc\nd\n");
        assertThat(Scaffold.sections("no sections {{name}}\n", Map.of())).isEqualTo("no sections {{name}}\n");
        assertThatThrownBy(() -> Scaffold.sections("{{#off}}\nx\n{{/off}}\n", Map.of("on", true))).hasMessageContaining("no flag off");
        assertThatThrownBy(() -> Scaffold.sections("{{#on}}\nx\n", Map.of("on", true))).hasMessageContaining("not closed");
        assertThatThrownBy(() -> Scaffold.sections("{{#on}}\n{{^on}}\n{{/on}}\n", Map.of("on", true))).hasMessageContaining("inside");
        assertThatThrownBy(() -> Scaffold.sections("x\n{{/on}}\n", Map.of("on", true))).hasMessageContaining("closes no open section");
    }

    /** The CLI's help and the launcher's ({@code ./tidemill help}, run with bash) both offer --controllers. */
    @Test
    void theHelpOfTheCliAndOfTheLauncherOffersControllers() throws Exception {
        String usage = "new NAME [--package PKG] [--dir DIR] [--controllers]";
        for (String help : List.of("help", "--help", "-h")) {
            Outcome o = cli(help);
            assertThat(o.status()).isZero();
            assertThat(o.out()).contains(usage, "--controllers: ", "annotationProcessorPaths");
        }
        Process launcher = new ProcessBuilder("bash", Path.of("..", "tidemill").toString(), "help").redirectErrorStream(true).start();
        String out = new String(launcher.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(launcher.waitFor()).as(out).isZero();
        assertThat(out).contains(usage, "--controllers: ");
    }

    private static List<String> files(Path project) throws IOException {
        try (Stream<Path> all = Files.walk(project)) {
            return all.filter(Files::isRegularFile).map(f -> project.relativize(f).toString().replace('\\', '/')).toList();
        }
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
