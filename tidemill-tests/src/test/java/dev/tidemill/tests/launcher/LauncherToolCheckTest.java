package dev.tidemill.tests.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.tests.support.ExternalTool;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher's check for the programs the tests run ({@code ./tidemill check-tools}, which
 * {@code ./tidemill test} runs before it builds): one missing program stops it with one line that
 * names the apt-get command; with everything there it says nothing; and its list holds every
 * {@link ExternalTool} with the same Debian package. {@code TIDEMILL_TOOLS_PATH} is where the check
 * looks instead of {@code PATH}, so a program can be taken away without touching the machine.
 */
@Timeout(60)
class LauncherToolCheckTest {
    private static final Path LAUNCHER = Path.of("..", "tidemill").toAbsolutePath().normalize();

    record Run(int exit, String stdout, String stderr) {}

    @Test
    void aMissingProgramStopsTheCheckWithOneLineNamingTheAptGetCommand(@TempDir Path dir) throws Exception {
        Path bin = pathWithout(dir, "sslscan");
        Run r = launcher(Map.of("TIDEMILL_TOOLS_PATH", bin.toString()), "check-tools");
        assertThat(r.exit()).as("exit status; stderr: %s", r.stderr()).isEqualTo(1);
        assertThat(r.stdout()).isEmpty();
        assertThat(r.stderr().lines().toList()).as("what the check printed").singleElement().satisfies(line -> assertThat(line)
                .startsWith("tidemill: ")
                .containsPattern("apt-get install -y --no-install-recommends (\\S+ )*sslscan( |$)"));
    }

    @Test
    void withEveryProgramThereTheCheckPassesSilently() throws Exception {
        Run r = launcher(Map.of(), "check-tools");
        assertThat(r.stderr()).as("what the check printed").isEmpty();
        assertThat(r.exit()).isZero();
    }

    @Test
    void theLaunchersListHoldsEveryExternalToolWithItsPackage() throws Exception {
        Matcher m = Pattern.compile("(?s)\nTEST_TOOLS=\\((.*?)\\)").matcher(Files.readString(LAUNCHER));
        assertThat(m.find()).as("TEST_TOOLS=( ... ) in %s", LAUNCHER).isTrue();
        List<String> listed = List.of(m.group(1).strip().split("\\s+"));
        for (ExternalTool t : ExternalTool.values()) {
            assertThat(listed).as("the launcher's TEST_TOOLS").contains(t.program() + ":" + t.debianPackage());
        }
    }

    /** @return a directory with a link to every program on PATH (the first of each name) but {@code missing} */
    private static Path pathWithout(Path dir, String missing) throws IOException {
        Path bin = Files.createDirectory(dir.resolve("bin"));
        for (String d : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            if (d.isEmpty() || !Files.isDirectory(Path.of(d))) continue;
            try (DirectoryStream<Path> programs = Files.newDirectoryStream(Path.of(d))) {
                for (Path p : programs) {
                    Path link = bin.resolve(p.getFileName().toString());
                    if (!p.getFileName().toString().equals(missing) && !Files.exists(link, LinkOption.NOFOLLOW_LINKS)) {
                        Files.createSymbolicLink(link, p.toAbsolutePath());
                    }
                }
            }
        }
        assertThat(bin.resolve("bash")).as("the copy of PATH has the rest").exists();
        return bin;
    }

    private static Run launcher(Map<String, String> env, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("bash", LAUNCHER.toString()));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        pb.environment().remove("TIDEMILL_TOOLS_PATH");
        pb.environment().putAll(env);
        Process p = pb.start();
        CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(p.getErrorStream()));
        String out = read(p.getInputStream());
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).as("%s finished", command).isTrue();
        return new Run(p.exitValue(), out, err.get(30, TimeUnit.SECONDS));
    }

    private static String read(InputStream in) {
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
