package dev.tidemill.tests.modes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemill.ExecutionMode;
import dev.tidemill.Transport;
import dev.tidemill.testing.TestClient;
import dev.tidemill.tests.support.Setup;
import dev.tidemill.tests.integrations.MinimalApp;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A refused io_uring: the {@code auto} transport, told to prefer io_uring
 * ({@code -Dtidemill.transport.autoPrefersIoUring=true}), starts on epoll, serves, and names the
 * cause in exactly one line of its output; an explicit io_uring fails the start with the same cause,
 * as it does where io_uring is unavailable. The refusal is forced in a child JVM with the selector's
 * test hook, {@code -Dtidemill.transport.ioUringRefusal=<cause>}, which makes the io_uring probe
 * report that cause as a kernel or a seccomp filter refusing {@code io_uring_setup} would (a child,
 * so the properties never reach another test's server). Without the refusal, the same child starts
 * on io_uring where the kernel allows it.
 */
@Timeout(90)
class IoUringRefusalTest {
    /** What a seccomp filter that denies io_uring_setup makes the probe say, and unique enough to count. */
    private static final String CAUSE = "io_uring_setup refused by a seccomp filter (forced by IoUringRefusalTest)";

    @Test
    void autoStartsOnEpollServesAndNamesTheCauseInOneLine() throws Exception {
        try (Child child = Child.start(Map.of(), CAUSE)) {
            await().atMost(Duration.ofSeconds(30)).until(() -> child.has("listening on "));
            assertThat(TestClient.connectTo("127.0.0.1", child.port).get("/hello").text()).isEqualTo("hello");
            List<String> naming = child.output.stream().filter(l -> l.contains(CAUSE)).toList();
            assertThat(naming).as("lines naming the cause, in %s", child.output).hasSize(1);
            assertThat(naming.getFirst()).contains("transport EPOLL", "auto: io_uring unavailable", "using epoll");
        }
    }

    @Test
    void withoutTheRefusalAutoStartsOnIoUringWhereTheKernelAllowsIt() throws Exception {
        new Setup(Transport.IO_URING, ExecutionMode.LOOP).assumeAvailable(); // as the transport matrix skips it, with Netty's reason
        try (Child child = Child.start(Map.of(), null)) {
            await().atMost(Duration.ofSeconds(30)).until(() -> child.has("listening on "));
            assertThat(TestClient.connectTo("127.0.0.1", child.port).get("/hello").text()).isEqualTo("hello");
            assertThat(String.join("\n", child.output)).contains("transport IO_URING (auto: io_uring available)");
        }
    }

    @Test
    void anExplicitIoUringStillFailsWithTheCause() throws Exception {
        try (Child child = Child.start(Map.of("TIDEMILL_TRANSPORT", "io_uring"), CAUSE)) {
            assertThat(child.process.waitFor(30, TimeUnit.SECONDS)).as("exited; output %s", child.output).isTrue();
            assertThat(child.process.exitValue()).isNotZero();
            await().atMost(Duration.ofSeconds(10)).until(() -> child.has("transport IO_URING requested but unavailable"));
            assertThat(String.join("\n", child.output)).contains("transport IO_URING requested but unavailable: "
                    + "UnsupportedOperationException: " + CAUSE).doesNotContain("listening on ");
        }
    }

    @Test
    void anExplicitBufferRingFailsWithTheCauseToo() throws Exception {
        try (Child child = Child.start(Map.of("TIDEMILL_TRANSPORT", "io_uring_buffer_ring"), CAUSE)) {
            assertThat(child.process.waitFor(30, TimeUnit.SECONDS)).as("exited; output %s", child.output).isTrue();
            assertThat(child.process.exitValue()).isNotZero();
            await().atMost(Duration.ofSeconds(10)).until(() -> child.has("transport IO_URING_BUFFER_RING requested but unavailable"));
            assertThat(String.join("\n", child.output)).contains("transport IO_URING_BUFFER_RING requested but unavailable: "
                    + "UnsupportedOperationException: " + CAUSE).doesNotContain("listening on ");
        }
    }

    @Test
    void theBufferRingStartsWithMultishotReceiveOffAndServes() throws Exception {
        new Setup(Transport.IO_URING_BUFFER_RING, ExecutionMode.LOOP).assumeAvailable();
        try (Child child = Child.start(Map.of("TIDEMILL_TRANSPORT", "io_uring_buffer_ring"), null)) {
            await().atMost(Duration.ofSeconds(30)).until(() -> child.has("listening on "));
            assertThat(TestClient.connectTo("127.0.0.1", child.port).get("/hello").text()).isEqualTo("hello");
            assertThat(String.join("\n", child.output)).contains("transport IO_URING_BUFFER_RING (requested)");
        }
    }

    @Test
    void theBufferRingRefusesToStartWhereMultishotReceiveWasLeftOn() throws Exception {
        new Setup(Transport.IO_URING_BUFFER_RING, ExecutionMode.LOOP).assumeAvailable();
        // a JVM started with Netty's switch on keeps it: multishot reads past a paused body, so the start fails
        try (Child child = Child.start(Map.of("TIDEMILL_TRANSPORT", "io_uring_buffer_ring"), null,
                "-Dio.netty.iouring.recvMultiShotEnabled=true")) {
            assertThat(child.process.waitFor(30, TimeUnit.SECONDS)).as("exited; output %s", child.output).isTrue();
            assertThat(child.process.exitValue()).isNotZero();
            await().atMost(Duration.ofSeconds(10)).until(() -> child.has("needs Netty's multishot receive off"));
            assertThat(String.join("\n", child.output)).contains("-Dio.netty.iouring.recvMultiShotEnabled=false")
                    .doesNotContain("listening on ");
        }
    }

    /** {@link MinimalApp} in a child JVM on this test's class path, with the refusal forced. */
    private static final class Child implements AutoCloseable {
        final Process process;
        final int port;
        final List<String> output = new CopyOnWriteArrayList<>();

        private Child(Process process, int port) {
            this.process = process;
            this.port = port;
            Thread.ofPlatform().daemon().start(() -> {
                try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                    for (String line; (line = r.readLine()) != null; ) output.add(line);
                } catch (IOException e) {
                    output.add("output failed: " + e);
                }
            });
        }

        /** @param refusal the cause the io_uring probe reports, or null for the real probe */
        static Child start(Map<String, String> env, String refusal, String... jvmFlags) throws IOException {
            int port;
            try (ServerSocket s = new ServerSocket(0)) {
                port = s.getLocalPort();
            }
            String java = ProcessHandle.current().info().command().orElseThrow();
            List<String> command = new java.util.ArrayList<>(List.of(java, "--sun-misc-unsafe-memory-access=allow",
                    "--enable-native-access=ALL-UNNAMED", "-Dtidemill.transport.autoPrefersIoUring=true"));
            if (refusal != null) command.add("-Dtidemill.transport.ioUringRefusal=" + refusal);
            command.addAll(List.of(jvmFlags));
            command.addAll(List.of("-cp", System.getProperty("java.class.path"), MinimalApp.class.getName()));
            ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
            pb.environment().keySet().removeIf(k -> k.startsWith("TIDEMILL_"));
            pb.environment().put("TIDEMILL_PORT", Integer.toString(port));
            pb.environment().putAll(env);
            return new Child(pb.start(), port);
        }

        boolean has(String text) {
            return output.stream().anyMatch(l -> l.contains(text));
        }

        @Override
        public void close() {
            process.destroyForcibly();
        }
    }
}
