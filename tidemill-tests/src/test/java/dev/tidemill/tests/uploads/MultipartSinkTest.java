package dev.tidemill.tests.uploads;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemill.Multipart;
import dev.tidemill.Problem;
import dev.tidemill.ProblemException;
import dev.tidemill.Request;
import dev.tidemill.testing.Connection;
import dev.tidemill.testing.MultipartBody;
import dev.tidemill.testing.RawConnection;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestRequest;
import dev.tidemill.testing.TestResponse;
import dev.tidemill.tests.support.ExternalTool;
import dev.tidemill.tests.support.Setup;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The non-blocking multipart reader, {@code Request.multipart(PartHandler)}, over real sockets in
 * every execution mode (IO runs it on the event loop): each part's head and content reach the sink
 * the handler chose, whole and in order, for a streamed route and one whose body was read whole,
 * framed by Content-Length, by chunks of every size and gzip-coded; {@code Sink.toFile} writes the
 * file (owner-only) and deletes it when the form fails before its part ended; every refusal is the
 * problem the blocking reader gives, and the connection serves on; over HTTP/2 too (curl, h2c).
 */
@Timeout(120)
class MultipartSinkTest {
    @TempDir
    Path dir;

    private static final AtomicInteger FILES = new AtomicInteger();

    static byte[] pattern(int size, long seed) {
        byte[] b = new byte[size];
        new Random(seed).nextBytes(b);
        return b;
    }

    static String sha(byte[] b) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b));
    }

    /** Each part as "name|filename|content type|size|sha-256", in the order the sinks ended. */
    static CompletionStage<String> describe(Request req) {
        List<String> out = Collections.synchronizedList(new ArrayList<>());
        return req.multipart(head -> {
            MessageDigest md = sha256();
            long[] n = {0};
            return new Multipart.Sink() {
                @Override
                public void accept(ByteBuffer piece) {
                    if (!piece.hasRemaining()) throw new AssertionError("an empty piece");
                    if (!piece.isReadOnly()) throw new AssertionError("a writable view");
                    n[0] += piece.remaining();
                    md.update(piece);
                }

                @Override
                public void end() {
                    out.add(head.name() + "|" + head.filename().orElse("-") + "|" + head.contentType() + "|" + n[0] + "|"
                            + HexFormat.of().formatHex(md.digest()) + "|" + head.headers().keySet());
                }
            };
        }).thenApply(done -> String.join("\n", out));
    }

    static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    TestClient start(Setup s) {
        return s.start(b -> b.maxBodyBytes(64L << 20).maxParts(20), app -> {
            app.post("/streamed", MultipartSinkTest::describe).streamedBody();
            app.post("/whole", MultipartSinkTest::describe);
            app.post("/file", req -> {
                Path target = dir.resolve("upload-" + FILES.incrementAndGet());
                long max = Long.parseLong(req.query("max").orElse("100000000"));
                Multipart.FileSink file = Multipart.Sink.toFile(target, max);
                return req.multipart(head -> head.name().equals("doc") || head.name().equals("f") ? file : Multipart.Sink.skip())
                        .thenApply(done -> file.bytes() + " " + sha(target) + " "
                                + PosixFilePermissions.toString(permissions(target)) + " " + target.getFileName());
            }).streamedBody();
            app.post("/throws", req -> req.multipart(head -> piece -> {
                throw new IllegalStateException("the sink failed");
            })).streamedBody();
            app.post("/refuses", req -> req.multipart(head -> {
                throw new ProblemException(Problem.of(422, "Refused", "part " + head.name() + " refused"));
            }).thenApply(done -> "never")).streamedBody();
            app.post("/upload", req -> { // docs/uploads.md's example, as written there
                Multipart.FileSink file = Multipart.Sink.toFile(dir.resolve(java.util.UUID.randomUUID() + ".bin"), 256L << 20);
                Map<String, String> fields = new java.util.LinkedHashMap<>();
                return req.multipart(part -> {
                    if (part.name().equals("file")) return file;
                    if (part.filename().isPresent()) return Multipart.Sink.skip();
                    ByteArrayOutputStream text = new ByteArrayOutputStream();
                    return new Multipart.Sink() {
                        public void accept(ByteBuffer piece) { byte[] b = new byte[piece.remaining()]; piece.get(b); text.writeBytes(b); }
                        public void end() { fields.put(part.name(), text.toString(StandardCharsets.UTF_8)); }
                    };
                }).thenApply(done -> Map.of("fields", fields, "bytes", file.bytes()));
            }).streamedBody().maxBodyBytes(256L << 20);
            app.get("/ping", req -> "pong");
        });
    }

    static java.util.Set<java.nio.file.attribute.PosixFilePermission> permissions(Path p) {
        try {
            return Files.getPosixFilePermissions(p);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    static String sha(Path p) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(p)));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    static MultipartBody form(byte[] big) {
        return MultipartBody.withBoundary("----sink-boundary-7MA4YWxkTrZu0gW")
                .field("title", "café")
                .file("doc", "a\u00e9.bin", "application/octet-stream", big)
                .file("empty", "e.txt", "text/plain", new byte[0])
                .part("Content-Disposition: form-data; name=\"x\"\r\nX-Extra: 1\r\n", "\r\n--not-it\r\n".getBytes(StandardCharsets.ISO_8859_1));
    }

    static String expected(byte[] big) throws Exception {
        return String.join("\n",
                "title|-|text/plain|5|" + sha("café".getBytes(StandardCharsets.UTF_8)) + "|[content-disposition]",
                "doc|a\u00e9.bin|application/octet-stream|" + big.length + "|" + sha(big) + "|[content-disposition, content-type]",
                "empty|e.txt|text/plain|0|" + sha(new byte[0]) + "|[content-disposition, content-type]",
                "x|-|text/plain|12|" + sha("\r\n--not-it\r\n".getBytes(StandardCharsets.ISO_8859_1)) + "|[content-disposition, x-extra]");
    }

    static List<byte[]> chunks(byte[] body, long seed) {
        Random r = new Random(seed);
        List<byte[]> out = new ArrayList<>();
        for (int i = 0; i < body.length; ) {
            int n = Math.min(body.length - i, r.nextInt(5) == 0 ? 1 + r.nextInt(3) : 1 + r.nextInt(70_000));
            out.add(java.util.Arrays.copyOfRange(body, i, i + n));
            i += n;
        }
        return out;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modesAndProtocols")
    void everyPartReachesItsSinkWholeAndInOrder(Setup s) throws Exception {
        try (TestClient c = start(s); Connection conn = c.connect()) {
            for (int size : new int[] {0, 1, 70_000, 3_000_000}) {
                byte[] big = pattern(size, size);
                MultipartBody form = form(big);
                for (String path : List.of("/streamed", "/whole")) {
                    TestResponse r = conn.send(TestRequest.of("POST", path).multipart(form));
                    assertThat(r.status()).as("%s %d: %s", path, size, r).isEqualTo(200);
                    assertThat(r.text()).as("%s %d", path, size).isEqualTo(expected(big));
                    TestResponse chunked = conn.send(TestRequest.of("POST", path).body(form.contentType(), new byte[0])
                            .chunked(chunks(form.toBytes(), size)));
                    assertThat(chunked.text()).as("%s %d chunked", path, size).isEqualTo(expected(big));
                }
            }
            byte[] big = pattern(1_000_000, 3);
            MultipartBody form = form(big);
            ByteArrayOutputStream gz = new ByteArrayOutputStream();
            try (GZIPOutputStream out = new GZIPOutputStream(gz)) {
                out.write(form.toBytes());
            }
            TestResponse r = conn.send(TestRequest.of("POST", "/streamed").header("Content-Encoding", "gzip")
                    .body(form.contentType(), gz.toByteArray()));
            assertThat(r.text()).as("gzip-coded: %s", r).isEqualTo(expected(big));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modesAndProtocols")
    void toFileWritesThePartOwnerOnly(Setup s) throws Exception {
        try (TestClient c = start(s); Connection conn = c.connect()) {
            for (int size : new int[] {0, 65_536, 5_000_000}) {
                byte[] big = pattern(size, size + 1);
                TestResponse r = conn.send(TestRequest.of("POST", "/file").multipart(form(big)));
                assertThat(r.status()).as("%s", r).isEqualTo(200);
                String[] answer = r.text().split(" ");
                assertThat(answer[0]).isEqualTo(Integer.toString(size));
                assertThat(answer[1]).isEqualTo(sha(big));
                assertThat(answer[2]).isEqualTo("rw-------");
                assertThat(dir.resolve(answer[3])).hasBinaryContent(big);
            }
            // at the handler's limit passes; one byte over is a 413 naming it, the partial file deleted
            TestResponse at = conn.send(TestRequest.of("POST", "/file?max=200000").multipart(form(pattern(200_000, 1))));
            assertThat(at.status()).as("%s", at).isEqualTo(200);
            int before = FILES.get();
            TestResponse over = c.send(TestRequest.of("POST", "/file?max=200000").multipart(form(pattern(200_001, 1))));
            assertThat(over.status()).as("%s", over).isEqualTo(413);
            assertThat(over.json(Map.class).get("detail").toString())
                    .isEqualTo("file \"doc\" is larger than 200000 bytes (the handler's limit)");
            assertThat(dir.resolve("upload-" + (before + 1))).doesNotExist();
            assertThat(c.get("/ping").text()).isEqualTo("pong");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modesAndProtocols")
    void refusalsAreTheBlockingReadersAndTheConnectionServesOn(Setup s) throws Exception {
        try (TestClient c = start(s); Connection conn = c.connect()) {
            String ok = "Content-Disposition: form-data; name=\"a\"\r\n";
            Object[][] cases = {
                {"no final boundary", TestRequest.of("POST", "/streamed").body("multipart/form-data; boundary=BB",
                        ("--BB\r\n" + ok + "\r\n1\r\n").getBytes(StandardCharsets.ISO_8859_1)), 400, "the body ended before the final boundary"},
                {"no boundary parameter", TestRequest.of("POST", "/streamed").body("multipart/form-data", "--BB--\r\n".getBytes(StandardCharsets.ISO_8859_1)),
                        400, "without a boundary parameter"},
                {"not multipart", TestRequest.of("POST", "/streamed").body("application/json", "{}".getBytes(StandardCharsets.ISO_8859_1)),
                        415, "expected multipart/form-data"},
                {"maxParts", TestRequest.of("POST", "/whole").multipart(many(21)), 413, "more than 20 parts (maxParts)"},
                {"at maxParts", TestRequest.of("POST", "/whole").multipart(many(20)), 200, null},
                {"obs-fold", TestRequest.of("POST", "/streamed").multipart(MultipartBody.withBoundary("BB").part(ok + " folded\r\n", new byte[1])),
                        400, "obs-fold"},
                {"a sink throws", TestRequest.of("POST", "/throws").multipart(form(pattern(10, 1))), 500, null},
                {"a handler refuses a part", TestRequest.of("POST", "/refuses").multipart(form(pattern(10, 1))), 422, "part title refused"},
                {"two file parts for one file sink", TestRequest.of("POST", "/file").multipart(MultipartBody.withBoundary("BB")
                        .file("doc", "a", "text/plain", new byte[3]).file("doc", "b", "text/plain", new byte[3])), 400, "already filled"},
            };
            for (Object[] x : cases) {
                TestResponse r = conn.send((TestRequest) x[1]);
                assertThat(r.status()).as("%s: %s", x[0], r).isEqualTo(x[2]);
                if (x[3] != null) {
                    assertThat(r.header("Content-Type")).as("%s", x[0]).hasValue("application/problem+json");
                    assertThat(r.json(Map.class).get("detail").toString()).as("%s", x[0]).contains((String) x[3]);
                }
                assertThat(conn.send(TestRequest.get("/ping")).text()).as("after %s, the same connection", x[0]).isEqualTo("pong");
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modesAndProtocols")
    void theGuidesExampleAnswersItsFieldsAndTheFileSize(Setup s) {
        try (TestClient c = start(s)) {
            MultipartBody form = MultipartBody.withBoundary("ex").field("title", "café").field("tag", "a")
                    .file("other", "o.bin", "application/octet-stream", pattern(10, 1))
                    .file("file", "f.bin", "application/octet-stream", pattern(300_000, 2));
            TestResponse r = c.send(TestRequest.of("POST", "/upload").multipart(form));
            assertThat(r.status()).as("%s", r).isEqualTo(200);
            assertThat(r.json(Map.class)).isEqualTo(Map.of("fields", Map.of("title", "café", "tag", "a"), "bytes", 300_000));
        }
    }

    /** The same reader over HTTP/2 (h2c, curl): the stream's window is the flow control, the routes unchanged. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modesAndProtocols")
    void overHttp2CurlsFormReachesTheSameSinks(Setup s) throws Exception {
        ExternalTool.CURL.require();
        try (TestClient c = start(s)) {
            byte[] big = pattern(5_000_000, 5);
            Path upload = Files.write(dir.resolve("big.bin"), big);
            String base = "http://127.0.0.1:" + c.port();
            String answer = curl("-w", " %{http_version}", "-F", "title=café", "-F", "file=@" + upload, base + "/upload");
            assertThat(answer).endsWith(" 2");
            assertThat(new tools.jackson.databind.ObjectMapper().readValue(answer.substring(0, answer.length() - 2), Map.class))
                    .isEqualTo(Map.of("fields", Map.of("title", "café"), "bytes", 5_000_000));
            String[] file = curl("-w", " %{http_version}", "-F", "doc=@" + upload, base + "/file").split(" ");
            assertThat(file[0]).isEqualTo("5000000");
            assertThat(file[1]).isEqualTo(sha(big));
            assertThat(file[4]).isEqualTo("2");
        }
    }

    static String curl(String... args) throws Exception {
        ExternalTool.CURL.require();
        List<String> command = new ArrayList<>(List.of("curl", "-sS", "--http2-prior-knowledge"));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        assertThat(p.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        return new String(out, StandardCharsets.UTF_8);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tidemill.tests.support.Setup#modesAndProtocols")
    void aFileWhosePartNeverEndsIsDeletedWhenTheClientLeaves(Setup s) throws Exception {
        try (TestClient c = start(s)) {
            int n = FILES.get() + 1;
            Path target = dir.resolve("upload-" + n);
            byte[] head = ("--BB\r\nContent-Disposition: form-data; name=\"f\"; filename=\"f.bin\"\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1);
            try (RawConnection raw = c.raw()) {
                raw.write(("POST /file HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=BB\r\nContent-Length: 10000000\r\n\r\n")
                        .getBytes(StandardCharsets.ISO_8859_1));
                raw.write(head);
                raw.write(pattern(500_000, 9));
                await().atMost(Duration.ofSeconds(20)).until(() -> Files.exists(target) && Files.size(target) > 0);
            } // the client leaves mid-part
            await().atMost(Duration.ofSeconds(20)).until(() -> !Files.exists(target));
            assertThat(c.get("/ping").text()).isEqualTo("pong");
        }
    }

    static MultipartBody many(int parts) {
        MultipartBody f = MultipartBody.withBoundary("BB");
        for (int i = 0; i < parts; i++) f = f.field("p" + i, "v");
        return f;
    }
}
