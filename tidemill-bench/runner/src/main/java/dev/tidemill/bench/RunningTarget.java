package dev.tidemill.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** A target's process, started pinned to the server CPUs, output going to a log file. */
public final class RunningTarget implements AutoCloseable {
    /** Targets not yet closed: a runner stopped by a signal must not leave a pinned server behind. */
    private static final java.util.Set<Process> LIVE = java.util.concurrent.ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> LIVE.forEach(Process::destroyForcibly), "bench-target-reaper"));
    }

    private final Target target;
    private final Process process;
    private final int port;
    private final Path log;
    private final List<String> commandLine;

    private RunningTarget(Target target, Process process, int port, Path log, List<String> commandLine) {
        this.target = target;
        this.process = process;
        this.port = port;
        this.log = log;
        this.commandLine = commandLine;
    }

    /**
     * Starts the target and waits until its port accepts connections.
     *
     * @param target what to start
     * @param cpus the server CPU set
     * @param workDir scratch directory (log, nginx config)
     * @return the running target
     * @throws IllegalStateException if it exits or does not listen within 60 s, with its log
     */
    public static RunningTarget start(Target target, CpuSets cpus, Path workDir) {
        int port = freePort();
        try {
            Files.createDirectories(workDir);
            Target.Command c = target.launch().at(port, cpus.server().size(), workDir);
            List<String> argv = new ArrayList<>(List.of("taskset", "-c", cpus.serverList()));
            argv.addAll(c.argv());
            ProcessBuilder pb = new ProcessBuilder(argv);
            Map<String, String> env = pb.environment();
            // Tidemill refuses unknown TIDEMILL_* variables: hand each target only the ones it is given
            env.keySet().removeIf(k -> k.startsWith("TIDEMILL_"));
            env.putAll(c.env());
            Path log = workDir.resolve("server.log");
            pb.redirectErrorStream(true).redirectOutput(log.toFile());
            Process process = pb.start();
            LIVE.add(process);
            RunningTarget t = new RunningTarget(target, process, port, log, argv);
            t.awaitPort();
            return t;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void awaitPort() {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException(target.name() + " exited with " + process.exitValue() + " before listening:\n" + logTail());
            }
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return;
            } catch (IOException notYet) {
                sleep(10); // fine-grained: the memory suite times start-up from here
            }
        }
        close();
        throw new IllegalStateException(target.name() + " did not listen on " + port + " within 60 s:\n" + logTail());
    }

    private static int freePort() {
        try (ServerSocket s = new ServerSocket(0)) {
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

    /** @return the target */
    public Target target() { return target; }

    /** @return the port it listens on */
    public int port() { return port; }

    /** @return its pid (taskset execs the server, so this is the server itself) */
    public long pid() { return process.pid(); }

    /** @return the exact command line it was started with */
    public List<String> commandLine() { return commandLine; }

    /** @return the last lines of its output */
    public String logTail() {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
        } catch (IOException | RuntimeException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    /** @return its first lines of output (what it said at startup: transport, loops) */
    public List<String> startupLines() {
        try {
            List<String> lines = Files.readAllLines(log);
            return List.copyOf(lines.subList(0, Math.min(10, lines.size())));
        } catch (IOException | RuntimeException e) {
            return List.of();
        }
    }

    /** Stops the target: SIGTERM, then SIGKILL after 10 s. */
    @Override
    public void close() {
        stop(10);
    }

    /**
     * Stops the target: SIGTERM, then SIGKILL if it has not exited after {@code graceSeconds}.
     *
     * @param graceSeconds how long it may take to exit (a JVM writing an AOT cache needs more than 10 s)
     * @return whether it exited on SIGTERM
     */
    public boolean stop(long graceSeconds) {
        LIVE.remove(process);
        process.destroy();
        try {
            if (process.waitFor(graceSeconds, TimeUnit.SECONDS)) return true;
            process.destroyForcibly();
            process.waitFor(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        return false;
    }
}
