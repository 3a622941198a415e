package dev.tidemill.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.tidemill.ExecutionMode;
import dev.tidemill.Response;
import dev.tidemill.testing.TestClient;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A client we did not write: {@code curl --compressed} asks for every coding its libcurl was built
 * with, decodes the answer and must get the page. Skipped (an assumption) where curl is missing
 * or was built without brotli and zstd.
 */
@Timeout(60)
class CurlCompressionTest {

    @Test
    void curlDecodesWhatTheServerSends(@TempDir Path dir) throws Exception {
        String version = run(List.of("curl", "--version"), dir);
        assumeTrue(version != null, "curl is not installed");
        assumeTrue(version.contains("brotli") && version.contains("zstd"), "curl was built without brotli or zstd");
        String page = ResponseCompressionTest.PAGE;
        try (TestClient c = Setup.onDefaultTransport(ExecutionMode.LOOP).start(app -> {
            app.get("/page", req -> Response.ok().html(page));
            app.get("/events", req -> Response.sse(s -> {
                for (int i = 0; i < 3; i++) s.send(dev.tidemill.SseEvent.data("event " + i));
                s.close();
            }));
        })) {
            for (String coding : List.of("br", "zstd", "gzip")) {
                Path headers = dir.resolve(coding + ".headers");
                Path body = dir.resolve(coding + ".body");
                String out = run(List.of("curl", "-sS", "--compressed", "-H", "Accept-Encoding: " + coding,
                        "-D", headers.toString(), "-o", body.toString(), c.uri("/page").toString()), dir);
                assertThat(out).as("curl ran").isNotNull();
                assertThat(Files.readString(headers).toLowerCase()).as(coding).contains("content-encoding: " + coding);
                assertThat(Files.readString(body, StandardCharsets.UTF_8)).as(coding).isEqualTo(page);
            }
            Path events = dir.resolve("events");
            run(List.of("curl", "-sS", "-N", "--compressed", "-o", events.toString(), c.uri("/events").toString()), dir);
            assertThat(Files.readString(events)).isEqualTo("data: event 0\n\ndata: event 1\n\ndata: event 2\n\n");
        }
    }

    /** @return the command's standard output, or null if it cannot be started; fails on a non-zero exit */
    private static String run(List<String> command, Path dir) throws InterruptedException {
        Process p;
        try {
            p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        } catch (IOException e) {
            return null;
        }
        try {
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.waitFor(30, TimeUnit.SECONDS)).as("%s finished", command).isTrue();
            assertThat(p.exitValue()).as("%s: %s", command, out).isZero();
            return out;
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } finally {
            p.destroyForcibly();
        }
    }
}
