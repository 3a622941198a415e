package dev.tidemill.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemill.testing.Connection;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestRequest;
import dev.tidemill.testing.TestResponse;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The demo as a real process: SIGTERM stops it gracefully (an in-flight request still completes and
 * the process exits 0); a second SIGTERM cuts the grace short.
 */
@Timeout(90)
class SignalShutdownTest {
    private Process process;
    private final List<String> output = new CopyOnWriteArrayList<>();
    /**
     * How the demo's signals are set when it starts ({@code env}'s option): SIGINT and SIGTERM at their
     * defaults, since a JVM started with SIGINT ignored never sees it, and a build run as a background
     * job (a CI runner, {@code mvn ... &}) hands that on to every process it starts.
     */
    private String signals = "--default-signal=INT,TERM";

    @AfterEach
    void kill() {
        if (process != null && process.isAlive()) process.destroyForcibly();
    }

    /** Starts the demo on a free port; returns once it printed its banner (it is listening then). */
    private TestClient startDemo() throws Exception {
        return startDemo(Map.of());
    }

    /** As {@link #startDemo()}, with these environment variables too. */
    private TestClient startDemo(Map<String, String> env) throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        ProcessBuilder pb = demoProcess(port, signals);
        pb.environment().putAll(env);
        process = pb.start();
        CountDownLatch listening = new CountDownLatch(1);
        pump(process.getInputStream(), "out", listening, "Tidemill demo on");
        pump(process.getErrorStream(), "err", null, null);
        assertThat(listening.await(30, TimeUnit.SECONDS)).as("the demo printed its banner; output: %s", output).isTrue();
        TestClient client = TestClient.connectTo("127.0.0.1", port).timeout(Duration.ofSeconds(20));
        assertThat(client.get("/hello").text()).isEqualTo("Hello, World!");
        return client;
    }

    /** The demo's command line: this JVM's java and class path, the flags Netty needs, the port, its signals as {@code env} sets them. */
    private static ProcessBuilder demoProcess(int port, String signals) {
        String java = ProcessHandle.current().info().command().orElseThrow();
        ProcessBuilder pb = new ProcessBuilder("env", signals, java, "--sun-misc-unsafe-memory-access=allow",
                "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                Demo.class.getName());
        pb.environment().keySet().removeIf(k -> k.startsWith("TIDEMILL_"));
        pb.environment().put("TIDEMILL_PORT", Integer.toString(port));
        pb.environment().put("TIDEMILL_HOST", "127.0.0.1");
        return pb;
    }

    private void pump(InputStream in, String name, CountDownLatch latch, String marker) {
        Thread.ofPlatform().daemon().name("demo-" + name).start(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    output.add(name + ": " + line);
                    if (latch != null && line.contains(marker)) latch.countDown();
                }
            } catch (IOException e) {
                output.add(name + " failed: " + e);
            }
        });
    }

    /**
     * SIGTERM, through the process handle: {@code Process.destroy()} sends the same signal but also
     * closes our ends of the child's stdout and stderr, and the log lines are needed here.
     */
    private void sigterm() {
        assertThat(process.toHandle().destroy()).as("SIGTERM sent").isTrue();
    }

    private boolean printed(String text) {
        return output.stream().anyMatch(l -> l.contains(text));
    }

    /** Pipelines {@code /hello} and {@code path}: once /hello is answered, the server has read the second request too. */
    private static void startInFlight(Connection c, String path) {
        c.write(("GET /hello HTTP/1.1\r\nHost: x\r\n\r\nGET " + path + " HTTP/1.1\r\nHost: x\r\n\r\n")
                .getBytes(StandardCharsets.ISO_8859_1));
        assertThat(c.read().text()).isEqualTo("Hello, World!");
    }

    private static void assertAnsweredAndClosed(Connection c, String body) {
        TestResponse r = c.read();
        assertThat(r.status()).as("%s", r).isEqualTo(200);
        assertThat(r.text()).isEqualTo(body);
        assertThat(r.header("Connection")).hasValueSatisfying(v -> assertThat(v).isEqualToIgnoringCase("close"));
        assertThat(c.isClosedByServer(Duration.ofSeconds(10))).isTrue();
    }

    @Test
    void sigtermLetsTheInFlightRequestFinishAndExitsZero() throws Exception {
        try (TestClient client = startDemo(); Connection sleeping = client.connect(); Connection working = client.connect()) {
            startInFlight(sleeping, "/sleep?ms=1500"); // VIRTUAL, blocking
            startInFlight(working, "/work?us=1000000"); // LOOP, one second of CPU

            sigterm();

            assertAnsweredAndClosed(sleeping, "slept 1500 ms\n");
            assertAnsweredAndClosed(working, "worked 1000000 us\n");
            assertThat(process.waitFor(20, TimeUnit.SECONDS)).as("the demo exits; output: %s", output).isTrue();
            assertThat(process.exitValue()).as("exit status; output: %s", output).isZero();
        }
    }

    @Test
    void aSigintIgnoredSinceStartIsNamedAndSigtermStillStopsIt() throws Exception {
        signals = "--ignore-signal=INT";
        try (TestClient client = startDemo()) {
            assertThat(output).as("output").anyMatch(l -> l.contains("SIGINT was ignored when this process started")
                    && l.contains("SIGTERM does"));
            sigterm();
            assertThat(process.waitFor(20, TimeUnit.SECONDS)).as("the demo exits; output: %s", output).isTrue();
            assertThat(process.exitValue()).as("exit status; output: %s", output).isZero();
        }
    }

    @Test
    void sigintStopsGracefullyToo() throws Exception {
        try (TestClient client = startDemo(); Connection c = client.connect()) {
            startInFlight(c, "/sleep?ms=500");
            Process kill = new ProcessBuilder("kill", "-INT", Long.toString(process.pid())).inheritIO().start();
            assertThat(kill.waitFor(10, TimeUnit.SECONDS) && kill.exitValue() == 0).as("SIGINT sent").isTrue();
            assertAnsweredAndClosed(c, "slept 500 ms\n");
            assertThat(process.waitFor(20, TimeUnit.SECONDS)).as("the demo exits; output: %s", output).isTrue();
            assertThat(process.exitValue()).as("exit status; output: %s", output).isZero();
        }
    }

    /**
     * A grace of a day and a handler that answers after a minute (no request timeout before that):
     * only the second signal cutting the grace short lets the demo exit before the handler answers,
     * and then the request gets no answer at all. That, not how long the exit took, is the check;
     * the bound on the exit is longer than the handler's minute, so a demo that waited for it fails
     * on the answer it sent.
     */
    @Test
    void secondSigtermStopsAtOnce() throws Exception {
        try (TestClient client = startDemo(Map.of("TIDEMILL_SHUTDOWN_GRACE", "24h", "TIDEMILL_REQUEST_TIMEOUT", "24h"));
                Connection c = client.connect()) {
            startInFlight(c, "/sleep?ms=60000");

            sigterm();
            waitFor(() -> printed("stopping gracefully"), "the first SIGTERM was handled");
            assertThat(process.isAlive()).as("within the grace, /sleep?ms=60000 still running").isTrue();
            sigterm();

            waitFor(() -> printed("received again: stopping now"), "the second SIGTERM was handled");
            assertThat(process.waitFor(80, TimeUnit.SECONDS)).as("the demo exits after the second SIGTERM; output: %s", output).isTrue();
            assertThat(process.exitValue()).as("exit status; output: %s", output).isZero();
            boolean closedUnanswered;
            try {
                closedUnanswered = c.isClosedByServer(Duration.ofSeconds(10)); // false if bytes (an answer) arrived
            } catch (UncheckedIOException reset) {
                closedUnanswered = true; // a reset is a close too
            }
            assertThat(closedUnanswered).as("/sleep?ms=60000 cut off without an answer; output: %s", output).isTrue();
        }
    }

    @Test
    void sigtermRightAfterTheBannerStillStopsGracefully() throws Exception {
        // The banner says the demo is up, so a supervisor may stop it at once: that must be graceful
        // (exit 0), not the JVM's default SIGTERM death (exit 143). Three tries, SIGTERM the moment
        // the banner's first line is read.
        for (int attempt = 1; attempt <= 3; attempt++) {
            output.clear();
            int port;
            try (ServerSocket s = new ServerSocket(0)) {
                port = s.getLocalPort();
            }
            process = demoProcess(port, signals).start();
            Process p = process;
            CountDownLatch signalled = new CountDownLatch(1);
            Thread.ofPlatform().daemon().name("demo-out").start(() -> {
                try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                    for (String line; (line = r.readLine()) != null; ) {
                        output.add("out: " + line);
                        if (line.contains("Tidemill demo on") && signalled.getCount() > 0) {
                            p.toHandle().destroy();
                            signalled.countDown();
                        }
                    }
                } catch (IOException e) {
                    output.add("out failed: " + e);
                }
            });
            pump(p.getErrorStream(), "err", null, null);
            assertThat(signalled.await(30, TimeUnit.SECONDS)).as("banner seen; output: %s", output).isTrue();
            assertThat(p.waitFor(20, TimeUnit.SECONDS)).as("attempt %d: the demo exits; output: %s", attempt, output).isTrue();
            assertThat(p.exitValue()).as("attempt %d: exit status after SIGTERM right after the banner; output: %s",
                    attempt, output).isZero();
        }
    }

    private void waitFor(java.util.function.BooleanSupplier condition, String what) {
        await(what).atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> assertThat(condition.getAsBoolean()).as("%s; output: %s", what, output).isTrue());
    }
}
