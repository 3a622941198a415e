package dev.tidemill.tests.uploads;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemill.Multipart;
import dev.tidemill.Response;
import dev.tidemill.Upload;
import dev.tidemill.testing.Connection;
import dev.tidemill.testing.MultipartBody;
import dev.tidemill.testing.StreamingResponse;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestRequest;
import dev.tidemill.testing.TestResponse;
import dev.tidemill.tests.support.Setup;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code multipart/form-data} over real sockets in every execution mode: binding text fields,
 * lists and {@link Upload}s into records; the spool to a temporary file past
 * {@code uploadMemoryBytes} and the file gone once the request ends (answered, failed, or the
 * client gone mid-response); {@code req.multipart()} part by part.
 */
@Timeout(60)
class MultipartFormsTest {
    static final int MEMORY = 4096;

    record Profile(@NotBlank String name, @Max(150) int age, List<String> tags, @NotNull Upload avatar, List<Upload> docs) {}

    static Stream<Setup> modes() {
        return Setup.modesAndProtocols();
    }

    static TestClient start(Setup s) {
        return s.start(b -> b.uploadMemoryBytes(MEMORY), app -> {
            app.post("/profile", req -> {
                Profile p = req.body(Profile.class);
                Map<String, Object> out = new LinkedHashMap<>();
                out.put("name", p.name());
                out.put("age", p.age());
                out.put("tags", p.tags());
                out.put("avatar", describe(p.avatar()));
                out.put("docs", p.docs() == null ? List.of() : p.docs().stream().map(MultipartFormsTest::describe).toList());
                out.put("spooled", uploadFiles());
                return out;
            });
            app.post("/fails", req -> {
                req.body(Profile.class);
                throw new IllegalStateException("handler failed after binding");
            });
            app.post("/slow", req -> {
                req.body(Profile.class);
                List<String> spooled = uploadFiles();
                // a head and one chunk, then nothing: the request ends only when the client leaves
                return Response.stream("text/plain", stream -> stream.write(String.join(",", spooled) + "\n"));
            });
            app.post("/parts", req -> {
                Multipart form = req.multipart();
                List<String> seen = new ArrayList<>();
                for (Multipart.Part part = form.next(); part != null; part = form.next()) {
                    long n;
                    try (InputStream in = part.content()) {
                        n = in.transferTo(java.io.OutputStream.nullOutputStream());
                    }
                    seen.add(part.name() + ":" + part.filename().orElse("-") + ":" + part.contentType() + ":" + n);
                }
                return seen;
            });
        });
    }

    static Map<String, Object> describe(Upload u) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", u.name());
        m.put("filename", u.filename().orElse(null));
        m.put("safe", u.safeFilename());
        m.put("type", u.contentType());
        m.put("size", u.size());
        m.put("sha256", sha256(u.bytes()));
        return m;
    }

    static String sha256(byte[] b) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }

    /** The upload temp files that exist now, by name (they are named tidemill-upload-*, never after the client's name). */
    static List<String> uploadFiles() {
        try (Stream<Path> files = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            return files.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("tidemill-upload-")).sorted().toList();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    static byte[] bytes(int n, int seed) {
        byte[] b = new byte[n];
        new java.util.Random(seed).nextBytes(b);
        return b;
    }

    static MultipartBody profile(byte[] avatar, byte[]... docs) {
        MultipartBody f = MultipartBody.create().field("name", "Zoë").field("age", "42").field("tags", "a").field("tags", "b")
                .file("avatar", "../me \"best\".png", "image/png", avatar);
        for (int i = 0; i < docs.length; i++) f = f.file("docs", "doc" + i + ".pdf", "application/pdf", docs[i]);
        return f;
    }

    @SuppressWarnings("unchecked")
    @ParameterizedTest(name = "{0}")
    @MethodSource("modes")
    void bindsTextFieldsListsAndUploads(Setup s) {
        try (TestClient c = start(s)) {
            byte[] avatar = bytes(1000, 1);
            byte[] d0 = bytes(10, 2);
            byte[] d1 = bytes(0, 3);
            TestResponse r = c.send(TestRequest.of("POST", "/profile").multipart(profile(avatar, d0, d1)));
            assertThat(r.status()).as("%s", r).isEqualTo(200);
            Map<String, Object> out = r.json(Map.class);
            assertThat(out).containsEntry("name", "Zoë").containsEntry("age", 42).containsEntry("tags", List.of("a", "b"));
            Map<String, Object> a = (Map<String, Object>) out.get("avatar");
            // the browser-style encoding sent " as %22; the framework keeps the name as sent, safeFilename cuts the path
            assertThat(a).containsEntry("filename", "../me %22best%22.png").containsEntry("safe", "me %22best%22.png")
                    .containsEntry("type", "image/png").containsEntry("size", 1000).containsEntry("sha256", sha256(avatar));
            List<Map<String, Object>> docs = (List<Map<String, Object>>) out.get("docs");
            assertThat(docs).extracting(m -> m.get("filename"), m -> m.get("size"))
                    .containsExactly(org.assertj.core.groups.Tuple.tuple("doc0.pdf", 10), org.assertj.core.groups.Tuple.tuple("doc1.pdf", 0));
            assertThat(docs.get(0)).containsEntry("sha256", sha256(d0));
            // a single file binds to a List<Upload> too; a missing one is a 422 naming the field
            TestResponse one = c.send(TestRequest.of("POST", "/profile").multipart(profile(avatar, d0)));
            assertThat((List<?>) one.json(Map.class).get("docs")).hasSize(1);
            TestResponse missing = c.send(TestRequest.of("POST", "/profile")
                    .multipart(MultipartBody.create().field("name", "x").field("age", "1")));
            assertThat(missing.status()).as("%s", missing).isEqualTo(422);
            assertThat(missing.text()).contains("\"loc\":[\"body\",\"avatar\"]");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("modes")
    void aFileOverUploadMemoryBytesIsSpooledAndDeletedOnceAnswered(Setup s) {
        try (TestClient c = start(s)) {
            Set<String> before = Set.copyOf(uploadFiles());
            byte[] big = bytes(MEMORY + 1, 4);
            TestResponse atLimit = c.send(TestRequest.of("POST", "/profile").multipart(profile(bytes(MEMORY, 5))));
            assertThat(atLimit.status()).as("%s", atLimit).isEqualTo(200);
            assertThat(newFiles(atLimit.json(Map.class).get("spooled"), before)).as("at uploadMemoryBytes: in memory").isEmpty();
            TestResponse r = c.send(TestRequest.of("POST", "/profile").multipart(profile(big, big)));
            assertThat(r.status()).as("%s", r).isEqualTo(200);
            List<String> spooled = newFiles(r.json(Map.class).get("spooled"), before);
            assertThat(spooled).as("one byte over: avatar and doc on disk").hasSize(2);
            assertThat(r.text()).contains(sha256(big));
            awaitGone(spooled);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("modes")
    void theTempFileIsDeletedWhenTheHandlerThrows(Setup s) {
        try (TestClient c = start(s)) {
            Set<String> before = Set.copyOf(uploadFiles());
            TestResponse r = c.send(TestRequest.of("POST", "/fails").multipart(profile(bytes(MEMORY * 4, 6))));
            assertThat(r.status()).as("%s", r).isEqualTo(500);
            await().atMost(Duration.ofSeconds(10)).until(() -> !uploadFiles().stream().anyMatch(f -> !before.contains(f)));
            assertThat(c.get("/profile").status()).as("the server still serves").isEqualTo(405);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("modes")
    void theTempFileIsDeletedWhenTheClientLeavesMidResponse(Setup s) {
        try (TestClient c = start(s)) {
            Set<String> before = Set.copyOf(uploadFiles());
            List<String> spooled;
            try (StreamingResponse r = c.stream(TestRequest.of("POST", "/slow").multipart(profile(bytes(MEMORY * 4, 7))))) {
                assertThat(r.status()).isEqualTo(200);
                spooled = newFiles(List.of(r.nextChunkText().strip().split(",")), before);
                assertThat(spooled).as("spooled while the response streams").hasSize(1);
                assertThat(uploadFiles()).as("the request has not ended yet").containsAll(spooled);
            } // the client leaves with the response unfinished
            awaitGone(spooled);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("modes")
    void partsOneByOne(Setup s) {
        try (TestClient c = start(s)) {
            MultipartBody form = MultipartBody.create().field("a", "1").file("f", "x.bin", "application/x-thing", bytes(200_000, 8))
                    .part("Content-Disposition: form-data; name=\"g\"; filename*=UTF-8''%E2%82%AC.txt\r\n", new byte[3]).field("b", "");
            TestResponse r = c.send(TestRequest.of("POST", "/parts").multipart(form));
            assertThat(r.status()).as("%s", r).isEqualTo(200);
            assertThat(r.json(List.class)).containsExactly("a:-:text/plain:1", "f:x.bin:application/x-thing:200000",
                    "g:€.txt:application/octet-stream:3", "b:-:text/plain:0");
            TestResponse notMultipart = c.post("/parts", "application/json", "{}");
            assertThat(notMultipart.status()).as("%s", notMultipart).isEqualTo(415);
        }
    }

    @SuppressWarnings("unchecked")
    static List<String> newFiles(Object listed, Set<String> before) {
        return ((List<String>) listed).stream().filter(f -> !f.isEmpty() && !before.contains(f)).collect(Collectors.toList());
    }

    static void awaitGone(List<String> files) {
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(uploadFiles()).doesNotContainAnyElementsOf(files));
    }
}
