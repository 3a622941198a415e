package dev.tidemill.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.Config;
import dev.tidemill.Tidemill;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestRequest;
import dev.tidemill.testing.TestResponse;
import dev.tidemill.testing.TidemillApp;
import dev.tidemill.testing.TidemillTest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The demo's {@code PUT /files/{name}}: streamed to disk with its SHA-256, 413 past 256 MiB (chunked too), as curl sends it. */
@TidemillTest
@Timeout(120)
class DemoUploadsTest {
    @TidemillApp
    static Tidemill demo(Config.Builder config) {
        return Demo.create(config.build());
    }

    private static String sha256(byte[] b) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b));
    }

    @Test
    void aFileIsStoredAndItsDigestAnswered(TestClient client) throws Exception {
        byte[] body = new byte[3_000_000];
        new Random(5).nextBytes(body);
        TestResponse r = client.send(TestRequest.of("PUT", "/files/photo.jpg").body("image/jpeg", body));
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.jsonTree().get("bytes").asLong()).isEqualTo(body.length);
        assertThat(r.jsonTree().get("sha256").asString()).isEqualTo(sha256(body));
        assertThat(client.send(TestRequest.of("PUT", "/files/..").body("text/plain", "x")).status())
                .as("a dot segment is refused before routing").isEqualTo(400);
        assertThat(client.send(TestRequest.of("PUT", "/files/.hidden").body("text/plain", "x")).status()).isEqualTo(422);
    }

    @Test
    void curlUploadsAFileAndAnOversizedChunkedStreamGets413(TestClient client, @TempDir Path dir) throws Exception {
        requireCurl();
        Path file = dir.resolve("big.bin");
        byte[] body = new byte[20_000_000];
        new Random(9).nextBytes(body);
        Files.write(file, body);
        String out = curl(List.of("-sS", "-T", file.toString(), client.uri("/files/big.bin").toString()));
        assertThat(out).contains("\"bytes\":" + body.length).contains(sha256(body));
        // 257 MiB from a pipe: curl sends it chunked, without a length to refuse up front.
        String status = curlFromPipe("head -c " + (257L << 20) + " /dev/zero", client.uri("/files/zeros.bin").toString());
        assertThat(status).isEqualTo("413");
        assertThat(client.get("/hello").status()).isEqualTo(200);
    }

    @Test
    void curlPostsAMultipartFormAndAnOversizedOneGets413(TestClient client, @TempDir Path dir) throws Exception {
        requireCurl();
        Path file = dir.resolve("notes.txt");
        byte[] body = new byte[5_000_000];
        new Random(3).nextBytes(body);
        Files.write(file, body);
        String out = curl(List.of("-sS", "-F", "title=Notes", "-F", "file=@" + file, client.uri("/upload").toString()));
        assertThat(out).contains("\"title\":\"Notes\"").contains("\"filename\":\"notes.txt\"")
                .contains("\"bytes\":" + body.length).contains(sha256(body));
        assertThat(curl(List.of("-sS", "-F", "file=@" + file, client.uri("/upload").toString())))
                .as("the title is required").contains("\"status\":422").contains("title");
        // A file part too big for the route: curl declares the length, so it is refused before a byte is read.
        Path big = dir.resolve("big.bin");
        try (var ch = java.nio.channels.FileChannel.open(big, java.nio.file.StandardOpenOption.CREATE_NEW,
                java.nio.file.StandardOpenOption.WRITE)) {
            ch.truncate(0);
            ch.position((257L << 20) - 1).write(java.nio.ByteBuffer.wrap(new byte[1]));
        }
        assertThat(curl(List.of("-s", "-o", "/dev/null", "-w", "%{http_code}", "-F", "title=t", "-F", "file=@" + big,
                client.uri("/upload").toString()))).isEqualTo("413");
    }

    /** A missing curl fails the test, naming its package; it never skips. */
    private static void requireCurl() {
        assertThat(Path.of("/usr/bin/curl")).as("curl: apt-get install -y --no-install-recommends curl (./tidemill test installs it)")
                .isExecutable();
    }

    private static String curl(List<String> args) throws Exception {
        List<String> cmd = new java.util.ArrayList<>(List.of("curl"));
        cmd.addAll(args);
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return out;
    }

    private static String curlFromPipe(String producer, String url) throws Exception {
        Process p = new ProcessBuilder("bash", "-c", producer + " | curl -s -o /dev/null -w '%{http_code}' -T - '" + url + "'")
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return out;
    }
}
