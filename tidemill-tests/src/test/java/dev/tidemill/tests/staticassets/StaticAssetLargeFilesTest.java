package dev.tidemill.tests.staticassets;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.StaticAssets;
import dev.tidemill.testing.Connection;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestRequest;
import dev.tidemill.testing.TestResponse;
import dev.tidemill.tests.support.Setup;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A file larger than {@code maxInMemoryBytes} is not held: it is sent from disk, as one
 * {@code FileRegion} on a plain socket of every transport ({@code files.zero_copy} counts it),
 * whole, as a range, behind and in front of pipelined replies, and to a client that reads slowly.
 * The read-piece-by-piece path is covered by {@code FileWritesTest} on an embedded channel.
 */
@Timeout(120)
class StaticAssetLargeFilesTest {
    private static final int SIZE = 20 << 20;

    private static byte[] bigFile(Path dir) throws Exception {
        byte[] bytes = new byte[SIZE];
        new Random(11).nextBytes(bytes);
        Files.write(dir.resolve("video.mp4"), bytes);
        Files.writeString(dir.resolve("small.txt"), "small");
        return bytes;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#transports")
    void aLargeFileStreamsFromDisk(Setup setup, @TempDir Path dir) throws Exception {
        byte[] bytes = bigFile(dir);
        StaticAssets assets = StaticAssets.builder().directory(dir).build();
        try (TestClient c = setup.start(app -> app.assets("/media", assets))) {
            String href = assets.href("video.mp4");
            long before = c.server().diagnostics().get("files.zero_copy");
            TestResponse r = c.get(href);
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.header("Content-Length")).contains(String.valueOf(SIZE));
            assertThat(r.header("Content-Type")).contains("video/mp4");
            assertThat(r.header("Cache-Control")).contains("public, max-age=31536000, immutable");
            assertThat(r.body().length).isEqualTo(SIZE);
            assertThat(Arrays.equals(r.body(), bytes)).as("the same bytes").isTrue();
            assertThat(c.server().diagnostics().get("files.zero_copy") - before).as("sent as a file region").isEqualTo(1);

            TestResponse part = c.send(TestRequest.get(href).header("Range", "bytes=1000000-1000999"));
            assertThat(part.status()).isEqualTo(206);
            assertThat(part.header("Content-Range")).contains("bytes 1000000-1000999/" + SIZE);
            assertThat(part.body()).isEqualTo(Arrays.copyOfRange(bytes, 1_000_000, 1_001_000));
            TestResponse tail = c.send(TestRequest.get(href).header("Range", "bytes=-10"));
            assertThat(tail.body()).isEqualTo(Arrays.copyOfRange(bytes, SIZE - 10, SIZE));

            TestResponse head = c.head(href);
            assertThat(head.header("Content-Length")).contains(String.valueOf(SIZE));
            assertThat(head.body()).isEmpty();
            TestResponse coded = c.send(TestRequest.get(href).header("Accept-Encoding", "br, gzip"));
            assertThat(coded.header("Content-Encoding")).as("never compressed on the fly").isEmpty();
            assertThat(coded.body().length).isEqualTo(SIZE);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#transports")
    void pipelinedRepliesStayInOrderAroundAFile(Setup setup, @TempDir Path dir) throws Exception {
        byte[] bytes = bigFile(dir);
        StaticAssets assets = StaticAssets.builder().directory(dir).build();
        try (TestClient c = setup.start(app -> {
            app.assets("/media", assets);
            app.get("/hello", req -> "hello");
        }); Connection conn = c.connect()) {
            String big = assets.href("video.mp4");
            List<TestResponse> rs = conn.pipeline(List.of(TestRequest.get("/hello"), TestRequest.get(big),
                    TestRequest.get(assets.href("small.txt")), TestRequest.get(big).header("Range", "bytes=0-4"),
                    TestRequest.get(big), TestRequest.get("/hello")));
            assertThat(rs).extracting(TestResponse::status).containsExactly(200, 200, 200, 206, 200, 200);
            assertThat(rs.get(0).text()).isEqualTo("hello");
            assertThat(Arrays.equals(rs.get(1).body(), bytes)).isTrue();
            assertThat(rs.get(2).text()).isEqualTo("small");
            assertThat(rs.get(3).body()).isEqualTo(Arrays.copyOf(bytes, 5));
            assertThat(Arrays.equals(rs.get(4).body(), bytes)).isTrue();
            assertThat(rs.get(5).text()).isEqualTo("hello");
            assertThat(conn.send(TestRequest.get("/hello")).text()).as("the connection goes on").isEqualTo("hello");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#transports")
    void aSlowReaderGetsEveryByte(Setup setup, @TempDir Path dir) throws Exception {
        byte[] bytes = bigFile(dir);
        StaticAssets assets = StaticAssets.builder().directory(dir).build();
        try (TestClient c = setup.start(app -> app.assets("/media", assets));
                Socket s = new Socket()) {
            s.setReceiveBufferSize(16 * 1024);
            s.connect(new InetSocketAddress("127.0.0.1", c.port()), 10_000);
            s.setSoTimeout(30_000);
            OutputStream out = s.getOutputStream();
            out.write(("GET " + assets.href("video.mp4") + " HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            // The server's side fills and waits; reading in small steps with pauses drains it.
            InputStream in = s.getInputStream();
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            byte[] buf = new byte[8192];
            long total = 0;
            int headEnd = -1;
            java.io.ByteArrayOutputStream headBytes = new java.io.ByteArrayOutputStream();
            int reads = 0;
            for (int n; (n = in.read(buf)) > 0; ) {
                int from = 0;
                if (headEnd < 0) {
                    headBytes.write(buf, 0, n);
                    String h = headBytes.toString(StandardCharsets.ISO_8859_1);
                    int end = h.indexOf("\r\n\r\n");
                    if (end < 0) continue;
                    headEnd = end + 4;
                    assertThat(h).startsWith("HTTP/1.1 200 ");
                    byte[] all = headBytes.toByteArray();
                    md.update(all, headEnd, all.length - headEnd);
                    total += all.length - headEnd;
                    continue;
                }
                md.update(buf, from, n);
                total += n;
                if (++reads % 256 == 0) Thread.sleep(5); // slow, but reading
            }
            assertThat(total).isEqualTo(SIZE);
            assertThat(HexFormat.of().formatHex(md.digest()))
                    .isEqualTo(HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes)));
        }
    }
}
