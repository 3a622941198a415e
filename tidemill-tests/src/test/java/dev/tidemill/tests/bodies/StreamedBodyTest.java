package dev.tidemill.tests.bodies;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.Config;
import dev.tidemill.ExecutionMode;
import dev.tidemill.Request;
import dev.tidemill.RequestBody;
import dev.tidemill.Response;
import dev.tidemill.Tidemill;
import dev.tidemill.testing.Connection;
import dev.tidemill.testing.RawConnection;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestRequest;
import dev.tidemill.testing.TestResponse;
import dev.tidemill.tests.support.Setup;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Streamed request bodies ({@code Route.streamedBody()}) read every way a handler can, in every
 * execution mode: the blocking stream (not on the event loop), pull-style reads, a publisher, to a
 * file; Content-Length and chunked framing; gzip decoded as it is read; {@code 100 Continue} only
 * once the handler reads.
 */
@Timeout(120)
class StreamedBodyTest {
    @TempDir
    Path dir;

    private static byte[] pattern(int size, long seed) {
        byte[] b = new byte[size];
        new Random(seed).nextBytes(b);
        return b;
    }

    private static String digest(byte[] body) throws Exception {
        return body.length + " " + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(body));
    }

    /** Counts and hashes the body: blocking on a worker loop or virtual thread, pull-style on the event loop. */
    private static Object count(Request req, ExecutionMode mode) throws Exception {
        RequestBody body = req.bodyStream();
        MessageDigest md = MessageDigest.getInstance("SHA-256");
        if (mode == ExecutionMode.IO) return pull(body, md, 0);
        long n = 0;
        try (InputStream in = body.inputStream()) {
            byte[] buf = new byte[8192];
            for (int r; (r = in.read(buf)) > 0; ) {
                md.update(buf, 0, r);
                n += r;
            }
        }
        return n + " " + HexFormat.of().formatHex(md.digest());
    }

    private static CompletionStage<String> pull(RequestBody body, MessageDigest md, long n) {
        return body.read().thenCompose(piece -> {
            if (piece == null) return CompletableFuture.completedFuture(n + " " + HexFormat.of().formatHex(md.digest()));
            long got = piece.remaining();
            md.update(piece);
            return pull(body, md, n + got);
        });
    }

    private static TestClient start(Setup setup, AtomicInteger handled) {
        return setup.start(b -> b.maxBodyBytes(64L << 20), app -> {
            app.put("/count", req -> {
                handled.incrementAndGet();
                return count(req, setup.mode());
            }).streamedBody();
            app.put("/length", req -> String.valueOf(req.bodyStream().declaredLength())).streamedBody();
            app.put("/whole", req -> setup.mode() == ExecutionMode.IO ? "io" : digest(req.body())).streamedBody();
            app.put("/refuse", req -> {
                handled.incrementAndGet();
                return Response.status(401).text("no");
            }).streamedBody();
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modesAndProtocols")
    void aBodyOfContentLengthOrChunksArrivesWholeAndInOrder(Setup setup) throws Exception {
        AtomicInteger handled = new AtomicInteger();
        try (TestClient client = start(setup, handled); Connection c = client.connect()) {
            for (int size : new int[] {0, 1, 4095, 65_536, 3_000_000}) {
                byte[] body = pattern(size, size);
                TestResponse r = c.send(TestRequest.of("PUT", "/count").body("application/octet-stream", body));
                assertThat(r.status()).as("%s", r).isEqualTo(200);
                assertThat(r.text()).as("size %d", size).isEqualTo(digest(body));
            }
            // Chunked, in pieces of every size from 1 byte up: tiny chunks are gathered, big ones pass as they are.
            List<byte[]> chunks = new ArrayList<>();
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            Random random = new Random(7);
            for (int i = 0; i < 400; i++) {
                byte[] piece = pattern(i % 5 == 0 ? 1 : random.nextInt(40_000), i);
                chunks.add(piece);
                all.writeBytes(piece);
            }
            TestResponse r = c.send(TestRequest.of("PUT", "/count").body("application/octet-stream", new byte[0]).chunked(chunks));
            assertThat(r.text()).isEqualTo(digest(all.toByteArray()));
            assertThat(c.send(TestRequest.of("PUT", "/length").body("text/plain", "12345")).text()).isEqualTo("5");
            assertThat(c.send(TestRequest.of("PUT", "/length").body("text/plain", "").chunked(List.of(new byte[3]))).text())
                    .isEqualTo("-1");
            if (setup.mode() != ExecutionMode.IO) {
                byte[] body = pattern(200_000, 3);
                assertThat(c.send(TestRequest.of("PUT", "/whole").body("application/octet-stream", body)).text())
                        .as("Request.body() reads the stream whole").isEqualTo(digest(body));
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modesAndProtocols")
    void aGzipBodyIsDecodedAsItIsRead(Setup setup) throws Exception {
        AtomicInteger handled = new AtomicInteger();
        byte[] plain = new byte[2_000_000];
        for (int i = 0; i < plain.length; i++) plain[i] = (byte) ("tidemill ".charAt(i % 9));
        ByteArrayOutputStream gz = new ByteArrayOutputStream();
        try (GZIPOutputStream out = new GZIPOutputStream(gz)) {
            out.write(plain);
        }
        try (TestClient client = start(setup, handled); Connection c = client.connect()) {
            TestResponse r = c.send(TestRequest.of("PUT", "/count").header("Content-Encoding", "gzip")
                    .body("text/plain", gz.toByteArray()));
            assertThat(r.text()).isEqualTo(digest(plain));
            assertThat(c.send(TestRequest.of("PUT", "/length").header("Content-Encoding", "gzip")
                    .body("text/plain", gz.toByteArray())).text()).as("a coded body's decoded length is unknown").isEqualTo("-1");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modesAndProtocols")
    void continueIsSentOnlyWhenTheHandlerReads(Setup setup) throws Exception {
        AtomicInteger handled = new AtomicInteger();
        try (TestClient client = start(setup, handled)) {
            byte[] body = pattern(100_000, 1);
            try (Connection c = client.connect()) {
                TestResponse r = c.send(TestRequest.of("PUT", "/count").header("Expect", "100-continue")
                        .body("application/octet-stream", body));
                assertThat(r.interim()).containsExactly(100);
                assertThat(r.text()).isEqualTo(digest(body));
            }
            // A handler that refuses without reading: no 100, the final answer, and the connection closes (the client
            // never sent the body it held back, so there is nothing to skip to reach a next request).
            try (RawConnection raw = client.raw()) {
                raw.write("PUT /refuse HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 100000\r\n\r\n");
                TestResponse r = raw.readResponse();
                assertThat(r.status()).isEqualTo(401);
                assertThat(r.interim()).isEmpty();
                assertThat(raw.awaitClosed(java.time.Duration.ofSeconds(10))).isTrue();
            }
            assertThat(client.get("/nothing").status()).as("the server serves on").isEqualTo(404);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modesAndProtocols")
    void publisherAndTransferToAndDiscardReadEverything(Setup setup) throws Exception {
        Path target = dir.resolve("upload.bin");
        try (TestClient client = setup.start(b -> b.maxBodyBytes(64L << 20), app -> {
            app.put("/publisher", req -> {
                CompletableFuture<String> done = new CompletableFuture<>();
                MessageDigest md = MessageDigest.getInstance("SHA-256");
                req.bodyStream().publisher().subscribe(new Flow.Subscriber<ByteBuffer>() {
                    long n;
                    Flow.Subscription s;

                    @Override public void onSubscribe(Flow.Subscription s) { this.s = s; s.request(1); }
                    @Override public void onNext(ByteBuffer item) { n += item.remaining(); md.update(item); s.request(1); }
                    @Override public void onError(Throwable t) { done.completeExceptionally(t); }
                    @Override public void onComplete() { done.complete(n + " " + HexFormat.of().formatHex(md.digest())); }
                });
                return done;
            }).streamedBody();
            app.put("/file", req -> req.bodyStream().transferTo(target, 8L << 20).thenApply(n -> {
                try {
                    return digest(Files.readAllBytes(target));
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            })).streamedBody();
            app.put("/discard", req -> req.bodyStream().discard().thenApply(String::valueOf)).streamedBody();
            app.put("/foreach", req -> {
                MessageDigest md = MessageDigest.getInstance("SHA-256");
                boolean[] writable = {false};
                return req.bodyStream().forEach(view -> {
                    writable[0] |= !view.isReadOnly();
                    md.update(view);
                }).thenApply(n -> (writable[0] ? "writable " : "") + n + " " + HexFormat.of().formatHex(md.digest()));
            }).streamedBody();
            app.put("/twice", req -> {
                req.bodyStream().discard();
                try {
                    req.bodyStream().read();
                    return "read twice";
                } catch (IllegalStateException e) {
                    return "refused";
                }
            }).streamedBody();
            app.put("/blocking", req -> {
                try {
                    req.bodyStream().inputStream();
                    return "blocking allowed";
                } catch (IllegalStateException e) {
                    return "refused on the event loop";
                }
            }).streamedBody();
        }); Connection c = client.connect()) {
            byte[] body = pattern(5_000_000, 11);
            assertThat(c.send(TestRequest.of("PUT", "/publisher").body("application/octet-stream", body)).text())
                    .isEqualTo(digest(body));
            assertThat(c.send(TestRequest.of("PUT", "/file").body("application/octet-stream", body)).text())
                    .isEqualTo(digest(body));
            assertThat(c.send(TestRequest.of("PUT", "/discard").body("application/octet-stream", body)).text())
                    .isEqualTo(String.valueOf(body.length));
            assertThat(c.send(TestRequest.of("PUT", "/foreach").body("application/octet-stream", body)).text())
                    .as("every piece a read-only view, in order").isEqualTo(digest(body));
            List<byte[]> chunks = new ArrayList<>();
            for (int i = 0; i < 300; i++) chunks.add(pattern(1 + i * 97, i));
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            chunks.forEach(all::writeBytes);
            assertThat(c.send(TestRequest.of("PUT", "/foreach").body("application/octet-stream", new byte[0]).chunked(chunks)).text())
                    .isEqualTo(digest(all.toByteArray()));
            assertThat(c.send(TestRequest.of("PUT", "/twice").body("text/plain", "abc")).text()).isEqualTo("refused");
            assertThat(c.send(TestRequest.of("PUT", "/blocking").body("text/plain", "abc")).text())
                    .isEqualTo(setup.mode() == ExecutionMode.IO ? "refused on the event loop" : "blocking allowed");

            // transferTo past its own cap: 413, the partial file deleted.
            byte[] big = pattern(9 << 20, 12);
            TestResponse r = c.send(TestRequest.of("PUT", "/file").body("application/octet-stream", big));
            assertThat(r.status()).isEqualTo(413);
            assertThat(r.text()).contains("transferTo");
            assertThat(target).doesNotExist();
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(ExecutionMode.class)
    void aStreamedBodyWorksInMemoryToo(ExecutionMode mode) throws Exception {
        Tidemill app = Tidemill.create(Config.builder().executionMode(mode).workerLoops(2).build());
        app.put("/count", req -> count(req, mode)).streamedBody();
        try (TestClient client = TestClient.inMemory(app).timeout(Duration.ofSeconds(20)); Connection c = client.connect()) {
            for (int size : new int[] {0, 10, 3_000_000}) {
                byte[] body = pattern(size, size);
                assertThat(c.send(TestRequest.of("PUT", "/count").body("application/octet-stream", body)).text()).isEqualTo(digest(body));
            }
        }
    }
}
