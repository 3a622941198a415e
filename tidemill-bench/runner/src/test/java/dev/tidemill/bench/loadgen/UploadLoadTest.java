package dev.tidemill.bench.loadgen;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.bench.UploadsSettings;
import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The generator over real sockets against a small counting server, one that answers the right
 * count and one that answers one byte short: the wrong count is caught, per upload and by the
 * suite's checks before timing.
 */
class UploadLoadTest {

    /** Reads HTTP/1.1 requests (Content-Length or chunked), counts the body's bytes and answers the count plus {@code skew}. */
    static final class CountingServer implements AutoCloseable {
        final ServerSocket socket;
        final AtomicLong bodies = new AtomicLong();
        private final long skew;

        CountingServer(long skew) throws IOException {
            this.skew = skew;
            this.socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            Thread.ofPlatform().daemon().start(() -> {
                while (!socket.isClosed()) {
                    try {
                        Socket s = socket.accept();
                        Thread.ofPlatform().daemon().start(() -> serve(s));
                    } catch (IOException closed) {
                        return;
                    }
                }
            });
        }

        int port() {
            return socket.getLocalPort();
        }

        private void serve(Socket s) {
            try (s; InputStream in = new BufferedInputStream(s.getInputStream()); OutputStream out = s.getOutputStream()) {
                while (true) {
                    String line = line(in);
                    if (line == null) return;
                    long length = 0;
                    boolean chunked = false;
                    for (String h = line(in); h != null && !h.isEmpty(); h = line(in)) {
                        String lower = h.toLowerCase(Locale.ROOT);
                        if (lower.startsWith("content-length:")) length = Long.parseLong(h.substring(15).trim());
                        if (lower.startsWith("transfer-encoding:") && lower.contains("chunked")) chunked = true;
                    }
                    long n = 0;
                    if (chunked) {
                        for (long size = Long.parseLong(line(in), 16); size > 0; size = Long.parseLong(line(in), 16)) {
                            n += skip(in, size);
                            line(in);
                        }
                        line(in);
                    } else {
                        n = skip(in, length);
                    }
                    bodies.incrementAndGet();
                    byte[] answer = Long.toString(n + skew).getBytes(StandardCharsets.US_ASCII);
                    out.write(("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: " + answer.length + "\r\n\r\n")
                            .getBytes(StandardCharsets.US_ASCII));
                    out.write(answer);
                    out.flush();
                }
            } catch (IOException | RuntimeException gone) {
                // the client closed the connection
            }
        }

        private static long skip(InputStream in, long n) throws IOException {
            byte[] buf = new byte[65_536];
            long done = 0;
            while (done < n) {
                int r = in.read(buf, 0, (int) Math.min(buf.length, n - done));
                if (r < 0) throw new IOException("early end");
                done += r;
            }
            return done;
        }

        private static String line(InputStream in) throws IOException {
            StringBuilder b = new StringBuilder();
            for (int c = in.read(); c != '\n'; c = in.read()) {
                if (c < 0) return null;
                if (c != '\r') b.append((char) c);
            }
            return b.toString();
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }

    @Test
    void rightCountsAreCountedOverKeepAliveConnections() throws Exception {
        try (CountingServer server = new CountingServer(0); UploadLoad load = new UploadLoad("127.0.0.1", server.port(), 3)) {
            for (UploadRequest.Framing f : UploadRequest.Framing.values()) {
                UploadRequest r = new UploadRequest("PUT", "/upload/discard", UploadBody.raw(300_007), f);
                UploadLoad.Phase p = load.run(r, 0, 4);
                assertThat(p.uploads()).as("%s", f).isEqualTo(12);
                assertThat(p.fileBytes()).isEqualTo(12 * 300_007L);
                assertThat(p.errors() + p.mismatches()).isZero();
                assertThat(p.problems()).isEmpty();
            }
        }
    }

    @Test
    void aWrongCountIsAMismatchOfEveryUpload() throws Exception {
        try (CountingServer server = new CountingServer(-1); UploadLoad load = new UploadLoad("127.0.0.1", server.port(), 2)) {
            UploadRequest r = new UploadRequest("PUT", "/upload/disk", UploadBody.raw(1024), UploadRequest.Framing.CONTENT_LENGTH);
            UploadLoad.Phase p = load.run(r, 0, 3);
            assertThat(p.uploads()).isZero();
            assertThat(p.mismatches()).isEqualTo(6);
            assertThat(p.errors()).isZero();
            assertThat(p.problems()).isNotEmpty().allMatch(s -> s.contains("answered a count of '1023' for 1024 bytes sent"));
        }
    }

    @Test
    void theChecksBeforeTimingRefuseAWrongCountAndPassARightOne() throws Exception {
        UploadsSettings.Endpoint raw = UploadsSettings.endpoint("raw-discard");
        try (CountingServer wrong = new CountingServer(1)) {
            assertThat(dev.tidemill.bench.UploadsSuiteAccess.check(wrong.port(), raw)).hasSize(4)
                    .allMatch(p -> p.contains("answered a count of"));
        }
        try (CountingServer right = new CountingServer(0)) {
            assertThat(dev.tidemill.bench.UploadsSuiteAccess.check(right.port(), raw)).isEmpty();
        }
    }

    @Test
    void checkNamesWhatIsWrongWithAnAnswer() {
        assertThat(UploadLoad.check(new HttpAnswer(200, "42", false), 42)).isEmpty();
        assertThat(UploadLoad.check(new HttpAnswer(200, "42\n", false), 42)).isEmpty();
        assertThat(UploadLoad.check(new HttpAnswer(200, "41", false), 42)).contains("answered a count of '41' for 42 bytes sent");
        assertThat(UploadLoad.check(new HttpAnswer(200, "forty-two", false), 42)).get().asString().contains("'forty-two'");
        assertThat(UploadLoad.check(new HttpAnswer(413, "too large", true), 42)).get().asString().startsWith("status 413");
    }

    @Test
    void answersAreReadByLengthOrChunksAndKnowWhenTheConnectionCloses() throws Exception {
        InputStream in = new ByteArrayInputStream(("HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\n123"
                + "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n45\r\n1;x=y\r\n6\r\n0\r\n\r\n"
                + "HTTP/1.1 413 Payload Too Large\r\nConnection: close\r\nContent-Length: 0\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        assertThat(HttpAnswer.read(in)).isEqualTo(new HttpAnswer(200, "123", false));
        assertThat(HttpAnswer.read(in)).isEqualTo(new HttpAnswer(200, "456", false));
        assertThat(HttpAnswer.read(in)).isEqualTo(new HttpAnswer(413, "", true));
    }
}
