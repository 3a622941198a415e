package dev.tidemill.internal.multipart;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidemill.Limits;
import dev.tidemill.Multipart;
import dev.tidemill.Problem;
import dev.tidemill.ProblemException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The blocking {@link Multipart} reader: parts one by one, content streamed, unread content skipped. */
class MultipartReaderTest {
    static final String CT = "multipart/form-data; boundary=XX";

    static String body(int fileBytes) {
        return "--XX\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nhello\r\n"
                + "--XX\r\nContent-Disposition: form-data; name=\"f\"; filename=\"f.bin\"\r\nContent-Type: image/png\r\n\r\n"
                + "x".repeat(fileBytes) + "\r\n--XX\r\nContent-Disposition: form-data; name=\"b\"\r\n\r\nbye\r\n--XX--\r\n";
    }

    static MultipartReader reader(String body) {
        return MultipartReader.open(Optional.of(CT), new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8)), Limits.DEFAULTS);
    }

    @Test
    void partsOneByOneWithUnreadContentSkipped() throws IOException {
        MultipartReader r = reader(body(100_000));
        Multipart.Part a = r.next();
        assertThat(a.name()).isEqualTo("a");
        assertThat(a.contentType()).isEqualTo("text/plain");
        assertThat(a.headers()).containsEntry("content-disposition", List.of("form-data; name=\"a\""));
        assertThat(new String(a.content().readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("hello");
        Multipart.Part f = r.next();
        assertThat(f.filename()).hasValue("f.bin");
        assertThat(f.contentType()).isEqualTo("image/png");
        assertThat(f.content().read(new byte[10])).isEqualTo(10); // the rest of its 100,000 bytes is skipped
        Multipart.Part b = r.next();
        assertThat(new String(b.content().readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("bye");
        assertThat(f.content().read()).isEqualTo(-1);
        assertThat(r.next()).isNull();
        assertThat(r.next()).isNull();
    }

    @Test
    void transferToWritesAFileAndRefusesPastItsLimit(@TempDir Path dir) {
        MultipartReader r = reader(body(5000));
        r.next();
        Path out = dir.resolve("out.bin");
        assertThat(r.next().transferTo(out, 5000)).isEqualTo(5000);
        assertThat(out).hasSize(5000);
        MultipartReader again = reader(body(5000));
        again.next();
        Path over = dir.resolve("over.bin");
        assertThatThrownBy(() -> again.next().transferTo(over, 4999)).isInstanceOfSatisfying(ProblemException.class, e -> {
            assertThat(e.problem().status()).isEqualTo(413);
            assertThat(e.problem().detail()).hasValue("file \"f\" is larger than 4999 bytes (the handler's limit)");
        });
        assertThat(over).doesNotExist();
    }

    @Test
    void aMalformedBodyIsRefusedWhereTheReaderMeetsIt() {
        MultipartReader r = reader("--XX\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nunfinished");
        Multipart.Part a = r.next();
        assertThatThrownBy(() -> a.content().readAllBytes()).isInstanceOfSatisfying(ProblemException.class,
                e -> assertThat(e.problem().detail().orElseThrow()).contains("before the final boundary"));
    }

    @Test
    void aSourceFailureCarryingAProblemIsThatProblem() {
        ProblemException tooLarge = new ProblemException(Problem.of(413, "Content Too Large", "over maxBodyBytes"));
        InputStream failing = new InputStream() {
            @Override
            public int read() throws IOException {
                throw new IOException("body refused", tooLarge);
            }
        };
        MultipartReader r = MultipartReader.open(Optional.of(CT), failing, Limits.DEFAULTS);
        assertThatThrownBy(r::next).isSameAs(tooLarge);
    }

    @Test
    void otherMediaTypesAre415() {
        for (Optional<String> ct : List.of(Optional.<String>empty(), Optional.of("application/json"), Optional.of("multipart/mixed; boundary=a"))) {
            assertThatThrownBy(() -> MultipartReader.open(ct, InputStream.nullInputStream(), Limits.DEFAULTS))
                    .isInstanceOfSatisfying(ProblemException.class, e -> assertThat(e.problem().status()).isEqualTo(415));
        }
    }

    @Test
    void storedUploadsStayInMemoryUpToTheThresholdAndGoToAnOwnerOnlyFileBeyond(@TempDir Path dir) throws IOException {
        List<AutoCloseable> onEnd = new java.util.ArrayList<>();
        MultipartReader r = reader(body(1000));
        r.next();
        StoredUpload small = StoredUpload.store(r.next(), 1000, onEnd::add);
        assertThat(small.onDisk()).isFalse();
        assertThat(small.size()).isEqualTo(1000);
        assertThat(onEnd).isEmpty();

        MultipartReader r2 = reader(body(1001));
        r2.next();
        StoredUpload large = StoredUpload.store(r2.next(), 1000, onEnd::add);
        assertThat(large.onDisk()).isTrue();
        assertThat(large.size()).isEqualTo(1001);
        assertThat(large.bytes()).hasSize(1001).containsOnly((byte) 'x');
        assertThat(onEnd).hasSize(1);
        Path tmp = tempFileOf(large);
        assertThat(tmp.getFileName().toString()).startsWith("tidemill-upload-").doesNotContain("f.bin");
        if (tmp.getFileSystem().supportedFileAttributeViews().contains("posix")) {
            assertThat(java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(tmp))).isEqualTo("rw-------");
        }
        for (AutoCloseable c : onEnd) {
            try {
                c.close();
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        }
        assertThat(tmp).doesNotExist();
    }

    @Test
    void moveToKeepsTheContent(@TempDir Path dir) throws Exception {
        List<AutoCloseable> onEnd = new java.util.ArrayList<>();
        MultipartReader r = reader(body(3000));
        r.next();
        StoredUpload u = StoredUpload.store(r.next(), 100, onEnd::add);
        Path kept = u.moveTo(dir.resolve("kept.bin"));
        for (AutoCloseable c : onEnd) c.close(); // the request ends: nothing to delete any more
        assertThat(kept).hasSize(3000);
        assertThatThrownBy(u::open).isInstanceOf(IllegalStateException.class);
        MultipartReader r2 = reader(body(10));
        r2.next();
        StoredUpload small = StoredUpload.store(r2.next(), 100, onEnd::add);
        assertThat(small.moveTo(dir.resolve("small.bin"))).hasSize(10);
    }

    private static Path tempFileOf(StoredUpload u) {
        try {
            java.lang.reflect.Field f = StoredUpload.class.getDeclaredField("file");
            f.setAccessible(true);
            return (Path) f.get(u);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }
}
