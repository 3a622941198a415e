package dev.tidemill.bench.targets;

import dev.tidemill.Config;
import dev.tidemill.ExecutionMode;
import dev.tidemill.Multipart;
import dev.tidemill.Problem;
import dev.tidemill.ProblemException;
import dev.tidemill.Request;
import dev.tidemill.RequestBody;
import dev.tidemill.Tidemill;
import dev.tidemill.bench.common.UploadContract;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.UUID;
import java.util.concurrent.CompletionStage;

/**
 * Tidemill's target of the uploads suite ({@link UploadContract}), configured by
 * {@code TIDEMILL_*} variables like {@link TidemillApp}; a class of its own so that the shared
 * bench app stays as the other suites measure it. Every route is {@code streamedBody()} with a
 * body limit of {@value UploadContract#MAX_BODY_BYTES} bytes, and reads the body the way its
 * execution mode suits, as a user would write it:
 *
 * <ul>
 *   <li>VIRTUAL: {@link RequestBody#inputStream()} read into a 64 KiB buffer and counted, or
 *       copied to a temp file with {@link Files#copy(InputStream, Path, java.nio.file.CopyOption...)};
 *   <li>LOOP (and IO): non-blocking, {@link RequestBody#forEach} counting each piece (a view of the
 *       server's buffer, no copy), or {@link RequestBody#transferTo(Path, long)} (which writes on a
 *       virtual thread of its own).
 * </ul>
 *
 * Multipart: VIRTUAL reads {@link Request#multipart()} part by part, the file part's
 * {@link Multipart.Part#content()} counted or {@link Multipart.Part#transferTo(Path, long)} a temp
 * file; LOOP and IO read {@link Request#multipart(Multipart.PartHandler)} without blocking, the file
 * part's pieces counted or written by {@link Multipart.Sink#toFile(Path, long)}.
 */
public final class TidemillUploads {
    private TidemillUploads() {}

    /**
     * @param config the configuration (its execution mode picks the reading style)
     * @return the app, not started
     */
    public static Tidemill create(Config config) {
        Tidemill app = Tidemill.create(config);
        boolean blocking = config.executionMode() == ExecutionMode.VIRTUAL;
        app.put(UploadContract.RAW_DISCARD, req -> blocking ? Long.toString(count(req)) : countPieces(req.bodyStream()))
                .streamedBody().maxBodyBytes(UploadContract.MAX_BODY_BYTES);
        app.put(UploadContract.RAW_DISK, req -> blocking ? Long.toString(copyToDisk(req)) : transferToDisk(req.bodyStream()))
                .streamedBody().maxBodyBytes(UploadContract.MAX_BODY_BYTES);
        // VIRTUAL: the blocking Request.multipart(); LOOP and IO: the non-blocking Request.multipart(PartHandler).
        app.post(UploadContract.MULTIPART_DISCARD, req -> blocking ? Long.toString(countFilePart(req)) : countFilePartPieces(req))
                .streamedBody().maxBodyBytes(UploadContract.MAX_BODY_BYTES);
        app.post(UploadContract.MULTIPART_DISK, req -> blocking ? Long.toString(filePartToDisk(req)) : filePartToFileSink(req))
                .streamedBody().maxBodyBytes(UploadContract.MAX_BODY_BYTES);
        return app;
    }

    /** The multipart form's part named {@value UploadContract#FILE_PART}, or a 400. */
    private static Multipart.Part filePart(Multipart form) {
        for (Multipart.Part p = form.next(); p != null; p = form.next()) {
            if (p.name().equals(UploadContract.FILE_PART)) return p;
        }
        throw new ProblemException(Problem.of(400, "no part named " + UploadContract.FILE_PART));
    }

    /** Blocking: streams the file part, counting; the parts after it are read and skipped. */
    static long countFilePart(Request req) throws IOException {
        Multipart form = req.multipart();
        long n = 0;
        byte[] buffer = new byte[UploadContract.BUFFER_BYTES];
        try (InputStream in = filePart(form).content()) {
            for (int r = in.read(buffer); r >= 0; r = in.read(buffer)) n += r;
        }
        while (form.next() != null) { } // to the final boundary, so a malformed end is still refused
        return n;
    }

    /** Blocking: streams the file part to a temp file; answers the file's size, then deletes it. */
    static long filePartToDisk(Request req) throws IOException {
        Multipart form = req.multipart();
        Path file = UploadContract.tempFile();
        try {
            filePart(form).transferTo(file, UploadContract.MAX_BODY_BYTES);
            while (form.next() != null) { }
            return Files.size(file);
        } finally {
            Files.deleteIfExists(file);
        }
    }

    /** Non-blocking: the file part's pieces counted as the parser hands them over (views, no copy). */
    static CompletionStage<String> countFilePartPieces(Request req) {
        long[] n = {-1};
        return req.multipart(head -> {
            if (!head.name().equals(UploadContract.FILE_PART)) return Multipart.Sink.skip();
            n[0] = 0;
            return piece -> n[0] += piece.remaining();
        }).thenApply(done -> {
            if (n[0] < 0) throw new ProblemException(Problem.of(400, "no part named " + UploadContract.FILE_PART));
            return Long.toString(n[0]);
        });
    }

    /** Non-blocking: the file part to a temp file through {@link Multipart.Sink#toFile}; answers its size, then deletes it. */
    static CompletionStage<String> filePartToFileSink(Request req) {
        Path file = tempPath();
        Multipart.FileSink sink = Multipart.Sink.toFile(file, UploadContract.MAX_BODY_BYTES);
        return sizeThenDelete(req.multipart(head -> head.name().equals(UploadContract.FILE_PART) ? sink : Multipart.Sink.skip())
                .thenApply(done -> {
                    if (sink.bytes() < 0) throw new ProblemException(Problem.of(400, "no part named " + UploadContract.FILE_PART));
                    return done;
                }), file);
    }

    /** Blocking: reads the body through its stream, counting. */
    static long count(Request req) throws IOException {
        long n = 0;
        byte[] buffer = new byte[UploadContract.BUFFER_BYTES];
        try (InputStream in = req.bodyStream().inputStream()) {
            for (int r = in.read(buffer); r >= 0; r = in.read(buffer)) n += r;
        }
        return n;
    }

    /** Blocking: copies the body to a temp file; answers the file's size, then deletes it. */
    static long copyToDisk(Request req) throws IOException {
        Path file = UploadContract.tempFile();
        try {
            try (InputStream in = req.bodyStream().inputStream()) {
                Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
            }
            return Files.size(file);
        } finally {
            Files.deleteIfExists(file);
        }
    }

    /** Non-blocking: counts each piece as the server's buffers hand it over; the stage completes with the count as text. */
    static CompletionStage<String> countPieces(RequestBody body) {
        long[] n = {0};
        return body.forEach(piece -> n[0] += piece.remaining()).thenApply(total -> Long.toString(n[0]));
    }

    /** Non-blocking: transferTo a temp file; answers the file's size, then deletes it however the transfer ended. */
    static CompletionStage<String> transferToDisk(RequestBody body) {
        Path file = tempPath();
        return sizeThenDelete(body.transferTo(file, UploadContract.MAX_BODY_BYTES), file);
    }

    /** A temp file's path, not created: the non-blocking writers create it. */
    private static Path tempPath() {
        return Path.of(System.getProperty("java.io.tmpdir"), "tidemill-upload-" + UUID.randomUUID() + ".bin");
    }

    /** Once {@code written} completes: the file's size as text; the file deleted however it ended. */
    private static CompletionStage<String> sizeThenDelete(CompletionStage<?> written, Path file) {
        return written.thenApply(done -> {
            try {
                return Long.toString(Files.size(file));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }).whenComplete((r, failure) -> {
            try {
                Files.deleteIfExists(file);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    /** @param args none; configure with TIDEMILL_* variables */
    public static void main(String[] args) {
        Tidemill app = create(Config.fromEnvironment());
        app.run(server -> {
            System.out.println("tidemill uploads on http://" + server.host() + ":" + server.port() + " mode " + app.config().executionMode());
            server.startupReport().forEach(line -> System.out.println("startup: " + line));
        });
    }
}
