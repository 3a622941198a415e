package dev.tidemill.tests.compression;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.ExecutionMode;
import dev.tidemill.Response;
import dev.tidemill.testing.TestClient;
import dev.tidemill.tests.support.Curl;
import dev.tidemill.tests.support.Setup;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A client we did not write: {@code curl --compressed} asks for every coding its libcurl was built
 * with, decodes the answer and must get the page. Fails where curl is missing or was built without
 * brotli and zstd (Debian's is built with both).
 */
@Timeout(60)
class CurlCompressionTest {

    @Test
    void curlDecodesWhatTheServerSends(@TempDir Path dir) throws Exception {
        String version = Curl.run(dir, "--version");
        assertThat(version).as("curl built with brotli and zstd (Debian's curl package is)").contains("brotli", "zstd");
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
                String out = Curl.run(dir, "-sS", "--compressed", "-H", "Accept-Encoding: " + coding,
                        "-D", headers.toString(), "-o", body.toString(), c.uri("/page").toString());
                assertThat(out).as("curl ran").isNotNull();
                assertThat(Files.readString(headers).toLowerCase()).as(coding).contains("content-encoding: " + coding);
                assertThat(Files.readString(body, StandardCharsets.UTF_8)).as(coding).isEqualTo(page);
            }
            Path events = dir.resolve("events");
            Curl.run(dir, "-sS", "-N", "--compressed", "-o", events.toString(), c.uri("/events").toString());
            assertThat(Files.readString(events)).isEqualTo("data: event 0\n\ndata: event 1\n\ndata: event 2\n\n");
        }
    }
}
