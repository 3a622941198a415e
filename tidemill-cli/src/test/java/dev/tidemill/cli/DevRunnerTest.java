package dev.tidemill.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.testing.TestClient;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code dev}: a tiny Tidemill app compiled into a temporary directory runs in a child JVM; the
 * test recompiles it with a changed answer and sees the new answer over a socket once the runner
 * has restarted it.
 */
class DevRunnerTest {
    private static final String APP = """
            import dev.tidemill.Config;
            import dev.tidemill.Tidemill;
            import java.nio.file.Files;
            import java.nio.file.Path;
            import java.nio.file.StandardCopyOption;

            public class DevApp {
                public static void main(String[] args) {
                    Tidemill app = Tidemill.create(Config.builder().host("127.0.0.1").port(0).build());
                    app.get("/", req -> "ANSWER");
                    app.run(server -> {
                        try { // the port, written whole: the test reads it while the app restarts
                            Path tmp = Path.of(args[0] + ".tmp");
                            Files.writeString(tmp, Integer.toString(server.port()));
                            Files.move(tmp, Path.of(args[0]), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                        } catch (java.io.IOException e) {
                            throw new java.io.UncheckedIOException(e);
                        }
                    });
                }
            }
            """;

    @Test
    @Timeout(120)
    void aRecompiledClassRestartsTheAppWithTheNewAnswer(@TempDir Path dir) throws Exception {
        Path src = dir.resolve("src/DevApp.java");
        Path classes = dir.resolve("classes");
        Path portFile = dir.resolve("port");
        Files.createDirectories(src.getParent());
        Files.createDirectories(classes);
        compile(src, classes, "first");

        ByteArrayOutputStream said = new ByteArrayOutputStream();
        DevRunner runner = DevRunner.fromArgs(List.of("--main", "DevApp", "--classes", classes.toString(),
                "--classpath", System.getProperty("java.class.path"), "--", portFile.toString()),
                new PrintStream(said, true, StandardCharsets.UTF_8));
        CompletableFuture<Void> running = CompletableFuture.runAsync(() -> {
            try {
                runner.run();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        try {
            Awaitility.await().atMost(Duration.ofSeconds(60)).ignoreExceptions()
                    .until(() -> answer(portFile), "first"::equals);
            assertThat(runner.starts()).isEqualTo(1);

            compile(src, classes, "second");
            Awaitility.await().atMost(Duration.ofSeconds(60)).ignoreExceptions()
                    .until(() -> answer(portFile), "second"::equals);
            assertThat(runner.starts()).isEqualTo(2);
            assertThat(said.toString(StandardCharsets.UTF_8)).contains("classes changed, restarting DevApp");
        } finally {
            runner.close();
            running.get(30, TimeUnit.SECONDS);
        }
    }

    private static String answer(Path portFile) {
        int port = Integer.parseInt(Files.exists(portFile) ? readQuietly(portFile) : "0");
        try (TestClient client = TestClient.connectTo("127.0.0.1", port).timeout(Duration.ofSeconds(5))) {
            return client.get("/").text();
        }
    }

    private static String readQuietly(Path p) {
        try {
            return Files.readString(p).trim();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static void compile(Path src, Path classes, String answer) throws Exception {
        Files.writeString(src, APP.replace("ANSWER", answer));
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        ByteArrayOutputStream errors = new ByteArrayOutputStream();
        int status = javac.run(null, errors, errors, "-d", classes.toString(), "-cp", System.getProperty("java.class.path"),
                src.toString());
        assertThat(status).as("javac: %s", errors.toString(StandardCharsets.UTF_8)).isZero();
    }
}
