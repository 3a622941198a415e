package dev.tidemill.redis;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real {@code redis-server} (Debian's package redis-server) on a free port of 127.0.0.1, in a
 * directory of its own, with the append-only file on and fsynced on every write, as
 * {@code ./tidemill cluster} runs it; {@link #kill()} is {@code kill -9}, {@link #start()} starts it
 * again on the same port and directory, so what it had acknowledged is there again. A missing
 * redis-server fails the test naming the package: never a skip. Shared with other modules' tests
 * through this module's test jar.
 */
public final class RedisServer implements AutoCloseable {
    private final Path dir;
    private final int port;
    private final List<String> settings;
    private Process process;

    private RedisServer(Path dir, int port, List<String> settings) {
        this.dir = dir;
        this.port = port;
        this.settings = settings;
    }

    /**
     * @param dir its directory
     * @param settings more command-line settings, after the defaults, so they win ({@code --appendfsync everysec})
     * @return a started server
     */
    public static RedisServer start(Path dir, String... settings) {
        RedisServer s = new RedisServer(dir, freePort(), List.of(settings));
        s.start();
        return s;
    }

    /** Starts (again) on this port and directory, and waits until it answers. */
    public void start() {
        List<String> cmd = new ArrayList<>(List.of(program(), "--port", Integer.toString(port), "--bind", "127.0.0.1",
                "--dir", dir.toString(), "--appendonly", "yes", "--appendfsync", "always", "--save", "",
                "--maxmemory-policy", "noeviction", "--daemonize", "no", "--logfile", dir.resolve("redis.log").toString()));
        cmd.addAll(settings);
        try {
            Files.createDirectories(dir);
            process = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(dir.resolve("stdout.log").toFile()).start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) throw new AssertionError("redis-server exited with " + process.exitValue() + ": " + log());
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 200);
                s.getOutputStream().write("PING\r\n".getBytes());
                byte[] answer = new byte[7];
                if (s.getInputStream().read(answer) > 0 && new String(answer).startsWith("+PONG")) return;
            } catch (IOException notYet) {
                // not listening, or still loading its append-only file
            }
            sleep(20);
        }
        throw new AssertionError("redis-server did not answer PING within 20 s: " + log());
    }

    /** {@code kill -9}: no shutdown, no final write. */
    public void kill() {
        process.destroyForcibly();
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** @return {@code redis://127.0.0.1:<port>} */
    public RedisUrl url() {
        return RedisUrl.parse("redis://127.0.0.1:" + port);
    }

    /** @return its port on 127.0.0.1 */
    public int port() {
        return port;
    }

    @Override
    public void close() {
        if (process != null) kill();
    }

    private String log() {
        try {
            Path log = dir.resolve("redis.log");
            return Files.isRegularFile(log) ? Files.readString(log) : Files.readString(dir.resolve("stdout.log"));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    private static String program() {
        for (String d : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path p = Path.of(d, "redis-server");
            if (!d.isEmpty() && Files.isExecutable(p)) return p.toString();
        }
        throw new AssertionError("redis-server is not installed (not on the PATH); the test needs it: apt-get install -y "
                + "--no-install-recommends redis-server (./tidemill test installs it when run as root)");
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
            throw new AssertionError("interrupted", e);
        }
    }
}
