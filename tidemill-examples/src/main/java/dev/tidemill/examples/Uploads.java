package dev.tidemill.examples;

import dev.tidemill.ExecutionMode;
import dev.tidemill.Problem;
import dev.tidemill.Response;
import dev.tidemill.Upload;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import dev.tidemill.Tidemill;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.util.HexFormat;

/**
 * The demo's uploads, both bodies up to {@link #MAX_BYTES} (past it 413, also when chunked):
 * {@code PUT /files/{name}} streams a raw body into a temporary directory (never holding more
 * than the streamed-body mark in memory) and answers its size and SHA-256; {@code POST /upload}
 * takes a multipart form (a text field and a file, as {@code GET /upload}'s page or
 * {@code curl -F} sends it), streamed so the file part goes to a temporary file as it arrives, and
 * answers the field, the file's name, size and SHA-256.
 */
final class Uploads {
    /** The largest upload the demo takes: 256 MiB. */
    static final long MAX_BYTES = 256L << 20;

    /** What a stored upload was. */
    record Stored(String name, long bytes, String sha256) {}

    /** The form {@code POST /upload} takes. */
    record UploadForm(@NotBlank String title, @NotNull Upload file) {}

    /** What {@code POST /upload} answers. */
    record Received(String title, String filename, String safeFilename, long bytes, String sha256) {}

    private static final String FORM_PAGE = """
            <!doctype html>
            <html lang="en"><meta charset="utf-8"><title>Upload</title>
            <h1>Upload a file</h1>
            <form method="post" action="/upload" enctype="multipart/form-data">
              <p><label>Title <input name="title" required></label></p>
              <p><label>File <input type="file" name="file" required></label></p>
              <p><button type="submit">Upload</button></p>
            </form>
            """;

    private Uploads() {}

    static void register(Tidemill app) {
        Path dir;
        try {
            dir = Files.createTempDirectory("tidemill-demo-files-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        app.put("/files/{name}", req -> {
            String name = req.pathParam("name");
            // The name is the client's: used as a file name only when it cannot leave the directory or hide there.
            if (!name.matches("[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}")) {
                throw Problem.of(422, "Unprocessable Content",
                        "a file name is 1-128 letters, digits, '.', '-' or '_', not starting with '.'").toException();
            }
            Path target = dir.resolve(name);
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            long n = 0;
            byte[] buf = new byte[64 * 1024];
            try (InputStream in = req.bodyStream().inputStream();
                    FileChannel out = FileChannel.open(target, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                            StandardOpenOption.TRUNCATE_EXISTING)) {
                for (int r; (r = in.read(buf)) > 0; ) {
                    sha.update(buf, 0, r);
                    out.write(ByteBuffer.wrap(buf, 0, r));
                    n += r;
                }
            } catch (IOException | RuntimeException e) {
                Files.deleteIfExists(target);
                throw e;
            }
            return new Stored(name, n, HexFormat.of().formatHex(sha.digest()));
        }).streamedBody().maxBodyBytes(MAX_BYTES).mode(ExecutionMode.VIRTUAL).returns(Stored.class)
                .summary("Stores the raw body as a file (streamed, up to 256 MiB)").tags("uploads");

        app.get("/upload", req -> Response.ok().html(FORM_PAGE)).summary("A form that posts to /upload").tags("uploads");
        app.post("/upload", req -> {
            UploadForm form = req.body(UploadForm.class); // the file part spooled to a temporary file as it arrives
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            try (InputStream in = form.file().open()) {
                byte[] buf = new byte[64 * 1024];
                for (int r; (r = in.read(buf)) > 0; ) sha.update(buf, 0, r);
            }
            return new Received(form.title(), form.file().filename().orElse(""),
                    Upload.safeName(form.file().filename().orElse("")), form.file().size(),
                    HexFormat.of().formatHex(sha.digest()));
        }).streamedBody().multipart(UploadForm.class).maxBodyBytes(MAX_BYTES).mode(ExecutionMode.VIRTUAL)
                .returns(Received.class).summary("A multipart form: a title and a file (up to 256 MiB)").tags("uploads");
    }
}
