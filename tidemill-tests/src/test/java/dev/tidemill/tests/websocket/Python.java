package dev.tidemill.tests.websocket;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Debian's {@code /usr/bin/python3} with its {@code python3-websockets} package (10.4 here, and on
 * CI, where {@code ./tidemill test} installs it): a WebSocket implementation that is not ours, to
 * check our server and our test client against. A test that needs it calls {@link #require()} and
 * fails, naming the package, on a machine without it.
 */
public final class Python implements AutoCloseable {
    /** The interpreter: Debian's, whose {@code websockets} module is the packaged one. */
    public static final Path PYTHON = Path.of("/usr/bin/python3");

    private final Process process;
    private final BufferedReader out;

    private Python(Process process) {
        this.process = process;
        this.out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    }

    /** Fails the calling test unless {@code /usr/bin/python3} can import {@code websockets}. */
    public static void require() {
        String install = "apt-get install -y --no-install-recommends python3-websockets (./tidemill test installs it when run as root)";
        assertThat(PYTHON).as("%s is missing; the test needs it: %s", PYTHON, install).isExecutable();
        boolean importable;
        try {
            Process p = new ProcessBuilder(PYTHON.toString(), "-c", "import websockets").redirectErrorStream(true).start();
            importable = p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
            if (p.isAlive()) p.destroyForcibly();
        } catch (IOException e) {
            importable = false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            importable = false;
        }
        assertThat(importable).as("%s cannot import websockets; the test needs it: %s", PYTHON, install).isTrue();
    }

    /**
     * Runs one of the scripts in {@code src/test/resources/websocket/}; stderr goes to the test's output.
     *
     * @param script e.g. {@code echo_server.py}
     * @param args its arguments
     * @return the running script
     */
    public static Python start(String script, String... args) {
        try (InputStream in = Python.class.getResourceAsStream("/websocket/" + script)) {
            if (in == null) throw new IllegalStateException("no test resource /websocket/" + script);
            Path file = Files.createTempFile("tidemill-", "-" + script);
            file.toFile().deleteOnExit();
            Files.write(file, in.readAllBytes());
            List<String> command = new ArrayList<>(List.of(PYTHON.toString(), file.toString()));
            command.addAll(List.of(args));
            return new Python(new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** @return the script's next line of stdout, or null at its end (blocks; the script's own timeouts bound it) */
    public String readLine() {
        try {
            return out.readLine();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Waits for the script to end.
     *
     * @param seconds at most this long, then it is killed
     * @return its exit code
     */
    public int waitFor(long seconds) {
        try {
            if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError("the python script did not end within " + seconds + " s");
            }
            return process.exitValue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    /** Closes the script's stdin (a server script then stops), and kills it if it is still running shortly after. */
    @Override
    public void close() {
        try {
            process.getOutputStream().close();
            if (!process.waitFor(10, TimeUnit.SECONDS)) process.destroyForcibly();
        } catch (IOException e) {
            process.destroyForcibly();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }
}
