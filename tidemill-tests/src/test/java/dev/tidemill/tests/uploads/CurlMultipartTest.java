package dev.tidemill.tests.uploads;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.ExecutionMode;
import dev.tidemill.Upload;
import dev.tidemill.testing.TestClient;
import dev.tidemill.tests.support.Curl;
import dev.tidemill.tests.support.Setup;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A multipart client we did not write: {@code curl -F} posts a text field, a repeated field and
 * two files (one over {@code uploadMemoryBytes}, so it is spooled) and gets back what was bound.
 * Skipped (an assumption) where curl is missing.
 */
@Timeout(60)
class CurlMultipartTest {
    record Post(String title, List<String> tag, Upload small, Upload big) {}

    @Test
    void curlFormsBind(@TempDir Path dir) throws Exception {
        byte[] small = "tiny file\n".getBytes();
        byte[] big = new byte[200_000];
        new java.util.Random(9).nextBytes(big);
        Files.write(dir.resolve("small.txt"), small);
        Files.write(dir.resolve("big file.bin"), big);
        try (TestClient c = Setup.onDefaultTransport(ExecutionMode.VIRTUAL).start(b -> b.uploadMemoryBytes(64 * 1024), app ->
                app.post("/upload", req -> {
                    Post p = req.body(Post.class);
                    return p.title() + "|" + p.tag() + "|" + p.small().filename().orElseThrow() + "|" + p.small().contentType()
                            + "|" + new String(p.small().bytes()) .strip() + "|" + p.big().safeFilename() + "|" + p.big().size()
                            + "|" + MultipartFormsTest.sha256(p.big().bytes());
                }))) {
            String out = Curl.run(dir, "-sS", "-F", "title=Hello, wörld", "-F", "tag=a", "-F", "tag=b",
                    "-F", "small=@small.txt;type=text/plain", "-F", "big=@big file.bin", c.uri("/upload").toString());
            assertThat(out).isEqualTo("Hello, wörld|[a, b]|small.txt|text/plain|tiny file|big file.bin|200000|"
                    + MultipartFormsTest.sha256(big));
        }
    }
}
