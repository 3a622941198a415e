package dev.tidemill.bench.common;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What every target of the uploads suite serves, so that one load generator measures them all
 * alike. Each endpoint reads every byte of what it is sent and answers {@code 200} with the number
 * of bytes it read as decimal text ({@code text/plain}):
 *
 * <ul>
 *   <li>{@value #RAW_DISCARD}: {@code PUT}, the raw body (Content-Length or chunked) streamed,
 *       counted and dropped;
 *   <li>{@value #RAW_DISK}: {@code PUT}, the raw body streamed to a temp file, which is deleted
 *       before the answer; the count is the file's bytes;
 *   <li>{@value #MULTIPART_DISCARD}: {@code POST multipart/form-data} with one file part named
 *       {@value #FILE_PART}; the part streamed, counted and dropped; the count is the part's bytes;
 *   <li>{@value #MULTIPART_DISK}: the same, the part streamed to a temp file (deleted before the
 *       answer, or when the exchange ends where the framework deletes it itself).
 * </ul>
 *
 * Temp files go to {@code java.io.tmpdir}, which the runner points at a directory of its own per
 * server start, so it can tell whether a target left files behind.
 */
public final class UploadContract {
    /** Raw body, counted and dropped. */
    public static final String RAW_DISCARD = "/upload/discard";
    /** Raw body, to a temp file. */
    public static final String RAW_DISK = "/upload/disk";
    /** Multipart, the file part counted and dropped. */
    public static final String MULTIPART_DISCARD = "/multipart/discard";
    /** Multipart, the file part to a temp file. */
    public static final String MULTIPART_DISK = "/multipart/disk";
    /** The name of the one file part. */
    public static final String FILE_PART = "file";
    /** The largest body a target must accept: the 100 MiB case plus room for the multipart framing (256 MiB). */
    public static final long MAX_BODY_BYTES = 256L * 1024 * 1024;
    /** Read buffer of the targets that read into a buffer of their own (64 KiB). */
    public static final int BUFFER_BYTES = 64 * 1024;

    private UploadContract() {}

    /**
     * @return a new empty temp file in {@code java.io.tmpdir}, named for the suite
     * @throws IOException if it cannot be created
     */
    public static Path tempFile() throws IOException {
        return Files.createTempFile("tidemill-upload-", ".bin");
    }
}
