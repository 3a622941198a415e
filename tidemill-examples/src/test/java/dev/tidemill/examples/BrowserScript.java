package dev.tidemill.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import tools.jackson.databind.json.JsonMapper;

/**
 * Runs one of the browser scripts the examples' build copies to {@code target/web} (next to the
 * {@code node_modules} of its {@code npm ci}: playwright-core, which drives Debian's chromium and
 * downloads no browser) and returns what it reports: the JSON object on the last line of its
 * output. Fails, rather than skips, without the script, playwright-core, Chromium or Node.js.
 */
final class BrowserScript {
    /** How long a script may run before the test fails. */
    static final long TIMEOUT_SECONDS = 90;

    private BrowserScript() {}

    /**
     * @param name the script, e.g. {@code board.mjs}
     * @param args its arguments (URLs, a screenshot path)
     * @return the script's report; its {@code error} entry is set when it failed
     */
    @SuppressWarnings("unchecked")
    static Map<String, Object> run(String name, String... args) throws IOException, InterruptedException {
        Path web = Path.of("target", "web").toAbsolutePath();
        Path script = web.resolve(name);
        assertThat(script).as("the build copies the browser script next to node_modules").exists();
        assertThat(web.resolve("node_modules/playwright-core")).as("npm ci, run by the build, installs playwright-core").exists();
        String chromium = System.getenv().getOrDefault("CHROMIUM", "/usr/bin/chromium");
        assertThat(Path.of(chromium)).as("Debian's chromium: apt-get install -y --no-install-recommends chromium (./tidemill test installs it)")
                .exists();

        List<String> command = new ArrayList<>(List.of("node", script.toString()));
        command.addAll(List.of(args));
        Path err = Files.createTempFile("browser-script-", ".err"); // a file, so a chatty stderr never blocks the script
        try {
            Process node = new ProcessBuilder(command).directory(web.toFile()).redirectError(err.toFile()).start();
            String stdout = new String(node.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            assertThat(node.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)).as("%s finished", name).isTrue();
            assertThat(node.exitValue()).as("node exit; stderr: %s", Files.readString(err)).isZero();
            return JsonMapper.builder().build().readValue(stdout.substring(stdout.lastIndexOf('\n') + 1), Map.class);
        } finally {
            Files.deleteIfExists(err);
        }
    }
}
