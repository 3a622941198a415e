package dev.tidemill.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs wrk pinned to the load generator's CPUs. The Lua scripts live as resources under
 * {@code wrk/} and are extracted to a temporary directory once, because wrk needs files.
 */
public final class Wrk {
    private final String cpus;
    private final int threads;
    private final Path scripts;

    /**
     * @param cpus the load generator's CPU list for taskset, e.g. {@code 1}
     * @param threads wrk threads ({@code -t})
     * @param scripts where the Lua scripts are extracted
     */
    public Wrk(String cpus, int threads, Path scripts) {
        this.cpus = cpus;
        this.threads = threads;
        this.scripts = scripts;
        for (String name : List.of("pipeline.lua", "post.lua", "mix.lua")) script(scripts, name);
    }

    /**
     * Extracts one of the Lua scripts, because wrk needs a file.
     *
     * @param dir where it goes (created if missing)
     * @param name the resource's name under {@code wrk/}, e.g. {@code post.lua}
     * @return the file
     */
    public static Path script(Path dir, String name) {
        try (InputStream in = Wrk.class.getResourceAsStream("/wrk/" + name)) {
            if (in == null) throw new IllegalStateException("missing resource wrk/" + name);
            Files.createDirectories(dir);
            Path file = dir.resolve(name);
            Files.write(file, in.readAllBytes());
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * @param port the target's port
     * @param scenario what to send
     * @param connections connections ({@code -c})
     * @param seconds duration ({@code -d})
     * @return the exact command line
     */
    public List<String> command(int port, ScenarioRun scenario, int connections, int seconds) {
        List<String> cmd = new ArrayList<>(List.of("taskset", "-c", cpus, "wrk",
                "-t" + Math.min(threads, connections), "-c" + connections, "-d" + seconds + "s", "--latency",
                "--timeout", "8s"));
        scenario.script().ifPresent(s -> cmd.addAll(List.of("-s", scripts.resolve(s).toString())));
        cmd.add("http://127.0.0.1:" + port + scenario.path());
        if (!scenario.scriptArgs().isEmpty()) {
            cmd.add("--");
            cmd.addAll(scenario.scriptArgs());
        }
        return cmd;
    }

    /**
     * The same invocation as {@link #command} for a plain {@code GET} of any path (the Tidemill-only
     * suites' endpoints, which are not {@link ScenarioRun}s).
     *
     * @param cpus the load generator's CPU list for taskset
     * @param threads wrk threads
     * @param port the target's port
     * @param path the path and query
     * @param connections connections
     * @param seconds duration
     * @return the exact command line
     */
    public static List<String> get(String cpus, int threads, int port, String path, int connections, int seconds) {
        return List.of("taskset", "-c", cpus, "wrk", "-t" + Math.min(threads, connections), "-c" + connections,
                "-d" + seconds + "s", "--latency", "--timeout", "8s", "http://127.0.0.1:" + port + path);
    }

    /**
     * Runs a command built by {@link #command} and parses what wrk printed.
     *
     * @param cmd the command line
     * @param seconds its duration, to bound the wait
     * @return the numbers
     */
    public static WrkResult run(List<String> cmd, int seconds) {
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            byte[] out;
            try (InputStream in = p.getInputStream()) {
                out = in.readAllBytes();
            }
            if (!p.waitFor(seconds + 30L, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException("wrk did not finish: " + String.join(" ", cmd));
            }
            String text = new String(out, StandardCharsets.UTF_8);
            if (p.exitValue() != 0) throw new IllegalStateException("wrk exited " + p.exitValue() + ":\n" + text);
            return WrkResult.parse(text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
