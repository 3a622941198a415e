package dev.tidemill.bench.cluster;

import dev.tidemill.bench.CpuSets;
import dev.tidemill.bench.ProcessCpu;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The run's {@code redis-server} (Debian's package): 127.0.0.1, a free port, a directory of its
 * own, and the settings Tidemill's durable topics ask for ({@code --appendonly yes --appendfsync
 * always --maxmemory-policy noeviction --save ""}), pinned with {@code taskset} to the server CPUs
 * next to the nodes, so its work counts against the same CPUs as theirs. {@link #kill()} is
 * {@code kill -9}; {@link #start()} starts it again on the same port and directory, where it reads
 * its append-only file back.
 */
final class RedisProcess implements AutoCloseable {
    /** The settings, after the port, bind address and directory. */
    static final List<String> SETTINGS = List.of("--appendonly", "yes", "--appendfsync", "always", "--maxmemory-policy", "noeviction",
            "--save", "", "--daemonize", "no");

    private final Path program;
    private final Path dir;
    private final int port;
    private final CpuSets cpus;
    private Process process;
    private List<String> commandLine = List.of();

    private RedisProcess(Path program, Path dir, int port, CpuSets cpus) {
        this.program = program;
        this.dir = dir;
        this.port = port;
        this.cpus = cpus;
    }

    /** @return redis-server on the PATH, if there is one */
    static Optional<Path> program() {
        for (String d : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path p = Path.of(d, "redis-server");
            if (!d.isEmpty() && Files.isExecutable(p)) return Optional.of(p);
        }
        return Optional.empty();
    }

    /**
     * @param program redis-server
     * @param dir its directory (created)
     * @param cpus where it runs: the server CPUs
     * @return a started server that answers PING
     */
    static RedisProcess start(Path program, Path dir, CpuSets cpus) {
        RedisProcess r = new RedisProcess(program, dir, freePort(), cpus);
        r.start();
        return r;
    }

    /** Starts (again) on this port and directory, and waits (at most 30 s) until it answers PING. */
    void start() {
        List<String> cmd = new ArrayList<>(List.of("taskset", "-c", cpus.serverList(), program.toString(), "--port", Integer.toString(port),
                "--bind", "127.0.0.1", "--dir", dir.toString(), "--logfile", dir.resolve("redis.log").toString()));
        cmd.addAll(SETTINGS);
        try {
            Files.createDirectories(dir);
            process = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(
                    dir.resolve("stdout.log").toFile())).start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        commandLine = cmd;
        LIVE.add(process);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!ping()) {
            if (!process.isAlive()) throw new IllegalStateException("redis-server exited with " + process.exitValue() + ": " + logTail());
            if (System.nanoTime() > deadline) throw new IllegalStateException("redis-server did not answer PING within 30 s: " + logTail());
            sleep(5);
        }
    }

    /** @return whether it answers PING with PONG now (not while it loads its append-only file) */
    boolean ping() {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 200);
            s.setSoTimeout(500);
            s.getOutputStream().write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
            InputStream in = s.getInputStream();
            byte[] answer = new byte[7];
            int n = 0;
            while (n < 7) {
                int r = in.read(answer, n, 7 - n);
                if (r < 0) break;
                n += r;
            }
            return new String(answer, 0, n, StandardCharsets.US_ASCII).equals("+PONG\r\n");
        } catch (IOException notYet) {
            return false;
        }
    }

    /** {@code kill -9}: no shutdown, no last write; waits until it is gone. */
    void kill() {
        process.destroyForcibly();
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        LIVE.remove(process);
    }

    /** @return {@code redis://127.0.0.1:<port>} */
    String url() {
        return "redis://127.0.0.1:" + port;
    }

    /** @return its pid (taskset execs redis-server, so this is the server itself) */
    long pid() {
        return process.pid();
    }

    /** @return its CPU time so far, clock ticks ({@code /proc/<pid>/stat}) */
    long ticks() {
        try {
            return ProcessCpu.ticks(process.pid());
        } catch (IOException e) {
            throw new UncheckedIOException("redis-server is gone: " + logTail(), e);
        }
    }

    /** @return the command line it was last started with */
    List<String> commandLine() {
        return commandLine;
    }

    /** @return its version, from {@code redis-server --version} */
    String version() {
        try {
            Process p = new ProcessBuilder(program.toString(), "--version").redirectErrorStream(true).start();
            String v = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            p.waitFor(10, TimeUnit.SECONDS);
            return v;
        } catch (IOException e) {
            return "unknown (" + e.getMessage() + ")";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "unknown";
        }
    }

    @Override
    public void close() {
        if (process != null && process.isAlive()) kill();
    }

    private String logTail() {
        try {
            List<String> lines = Files.readAllLines(dir.resolve("redis.log"));
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 10), lines.size()));
        } catch (IOException | RuntimeException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    /** Servers not yet stopped: a runner stopped by a signal must not leave a pinned redis-server behind. */
    private static final java.util.Set<Process> LIVE = java.util.concurrent.ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> LIVE.forEach(Process::destroyForcibly), "bench-redis-reaper"));
    }

    private static int freePort() {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
