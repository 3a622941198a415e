package dev.tidemill.tests.streaming;

import static org.assertj.core.api.Assertions.fail;

import dev.tidemill.tests.support.ExternalTool;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The official Datastar server SDK ({@code @starfederation/datastar-sdk}, pinned by
 * {@code src/test/node/datastar-sdk/package-lock.json}) run under Node: {@link #run} hands it a list
 * of calls and returns the exact text it wrote for each. The first use installs it with
 * {@code npm ci} into {@code target/datastar-sdk} (again whenever the lock file changes). Without
 * {@code node} and {@code npm} on the PATH the calling test fails, never skips: a differential
 * test that quietly does not run proves nothing.
 */
final class DatastarSdk {
    /** One SDK call: a method of its ServerSentEventGenerator and the arguments. */
    record Call(String method, List<Object> args) {}

    private static final Path SOURCE = Path.of("src/test/node/datastar-sdk");
    private static final Path WORK = Path.of("target/datastar-sdk");
    private static final List<String> FILES = List.of("package.json", "package-lock.json", "sdk-bytes.mjs");
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private DatastarSdk() {}

    /**
     * @param calls the calls, made on a fresh generator each
     * @return per call, the text the SDK wrote, or {@code {"error": message}} if it threw
     */
    static synchronized List<JsonNode> run(List<Call> calls) throws Exception {
        install();
        byte[] input = JSON.writeValueAsBytes(calls.stream().map(c -> Map.of("method", c.method(), "args", c.args())).toList());
        String out = exec(List.of("node", "sdk-bytes.mjs"), input, 60);
        List<JsonNode> results = new ArrayList<>();
        JSON.readTree(out).forEach(results::add);
        if (results.size() != calls.size()) fail("the SDK answered " + results.size() + " of " + calls.size() + " calls: " + out);
        return results;
    }

    /**
     * @param script JavaScript for {@code node --input-type=module -e}
     * @param stdin what it reads
     * @return what it printed
     */
    static synchronized String node(String script, byte[] stdin) throws Exception {
        Files.createDirectories(WORK);
        return exec(List.of("node", "--input-type=module", "-e", script), stdin, 60);
    }

    private static void install() throws Exception {
        if (!Files.isDirectory(SOURCE)) fail("run from the tidemill-testing module: " + SOURCE.toAbsolutePath() + " is missing");
        Files.createDirectories(WORK);
        boolean lockChanged = !Files.exists(WORK.resolve("package-lock.json"))
                || Files.mismatch(SOURCE.resolve("package-lock.json"), WORK.resolve("package-lock.json")) != -1;
        for (String f : FILES) Files.copy(SOURCE.resolve(f), WORK.resolve(f), StandardCopyOption.REPLACE_EXISTING);
        if (lockChanged || !Files.exists(WORK.resolve("node_modules/@starfederation/datastar-sdk/package.json"))) {
            // --ignore-scripts: nothing from the registry runs at install time.
            exec(List.of("npm", "ci", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"), new byte[0], 600);
        }
    }

    private static String exec(List<String> command, byte[] stdin, long timeoutSeconds) throws Exception {
        ExternalTool.of(command.get(0)).require();
        Process p;
        try {
            p = new ProcessBuilder(command).directory(WORK.toFile()).redirectErrorStream(false).start();
        } catch (IOException e) {
            throw new AssertionError("the Datastar SDK differential test needs " + command.get(0) + " (Node.js 18+ with npm) on"
                    + " the PATH; it does not skip without it: " + e.getMessage(), e);
        }
        CompletableFuture<byte[]> out = CompletableFuture.supplyAsync(() -> readAll(p.getInputStream()));
        CompletableFuture<byte[]> err = CompletableFuture.supplyAsync(() -> readAll(p.getErrorStream()));
        try (OutputStream in = p.getOutputStream()) {
            in.write(stdin);
        }
        if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail(String.join(" ", command) + " did not finish within " + timeoutSeconds + " s");
        }
        String stderr = new String(err.get(), StandardCharsets.UTF_8);
        if (p.exitValue() != 0) fail(String.join(" ", command) + " exited " + p.exitValue() + ": " + stderr);
        return new String(out.get(), StandardCharsets.UTF_8);
    }

    private static byte[] readAll(InputStream in) {
        try (in; ByteArrayOutputStream b = new ByteArrayOutputStream()) {
            in.transferTo(b);
            return b.toByteArray();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
