package dev.tidemill.bench.loadgen;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

/**
 * The body of one upload, produced piece by piece and never held whole (a 100 MiB upload costs
 * the generator one scratch buffer per connection): the file's bytes are a fixed pattern of
 * {@value #PERIOD} bytes from a seeded generator ({@value #SEED}), repeated, so byte {@code i} of
 * every file is {@code pattern[i % PERIOD]}; a multipart body wraps them as the single file part
 * {@code file} of a {@code multipart/form-data} body with the boundary {@value #BOUNDARY}.
 *
 * <p>The pattern is random bytes, CR and LF and dashes included, so a multipart parser scans
 * data that looks like binary, not text; the test checks that the delimiter cannot occur in it.
 */
public final class UploadBody {
    /** The pattern's seed: every run and every target gets the same bytes. */
    public static final long SEED = 20_261_201L;
    /** The pattern's length: a prime, so no read size or chunk size lines up with it. */
    public static final int PERIOD = 65_521;
    /** The multipart boundary (RFC 2046: up to 70 characters; this one cannot occur in the pattern, see the test). */
    public static final String BOUNDARY = "tidemill-bench-3b6f0c9e1a7d4258";
    /** The file part's name, {@code dev.tidemill.bench.common.UploadContract#FILE_PART}. */
    public static final String PART = "file";

    private static final byte[] PATTERN = pattern();

    private final long fileBytes;
    private final byte[] prefix;
    private final byte[] suffix;

    private UploadBody(long fileBytes, byte[] prefix, byte[] suffix) {
        if (fileBytes < 0) throw new IllegalArgumentException("fileBytes must be >= 0");
        this.fileBytes = fileBytes;
        this.prefix = prefix;
        this.suffix = suffix;
    }

    /** @param fileBytes the body's bytes @return a raw body of that many pattern bytes */
    public static UploadBody raw(long fileBytes) {
        return new UploadBody(fileBytes, new byte[0], new byte[0]);
    }

    /** @param fileBytes the file part's bytes @return a multipart body holding one file part of that many pattern bytes */
    public static UploadBody multipart(long fileBytes) {
        String head = "--" + BOUNDARY + "\r\n"
                + "Content-Disposition: form-data; name=\"" + PART + "\"; filename=\"upload.bin\"\r\n"
                + "Content-Type: application/octet-stream\r\n\r\n";
        String tail = "\r\n--" + BOUNDARY + "--\r\n";
        return new UploadBody(fileBytes, head.getBytes(StandardCharsets.US_ASCII), tail.getBytes(StandardCharsets.US_ASCII));
    }

    /** @return whether this is a multipart body */
    public boolean isMultipart() {
        return prefix.length > 0;
    }

    /** @return the file's bytes: what a target must answer */
    public long fileBytes() {
        return fileBytes;
    }

    /** @return the whole body's bytes (the file plus the multipart framing) */
    public long length() {
        return prefix.length + fileBytes + suffix.length;
    }

    /** @return the request's {@code Content-Type} */
    public String contentType() {
        return isMultipart() ? "multipart/form-data; boundary=" + BOUNDARY : "application/octet-stream";
    }

    /** @return a cursor at the body's first byte */
    public Cursor open() {
        return new Cursor();
    }

    /**
     * Copies file bytes {@code [offset, offset + len)} of the pattern stream.
     *
     * @param offset the first file byte's position
     * @param dst where to
     * @param off where in {@code dst}
     * @param len how many
     */
    public static void fill(long offset, byte[] dst, int off, int len) {
        int p = (int) (offset % PERIOD);
        while (len > 0) {
            int n = Math.min(len, PERIOD - p);
            System.arraycopy(PATTERN, p, dst, off, n);
            off += n;
            len -= n;
            p = 0;
        }
    }

    /** @param offset a file byte's position @return that byte */
    public static byte at(long offset) {
        return PATTERN[(int) (offset % PERIOD)];
    }

    private static byte[] pattern() {
        byte[] p = new byte[PERIOD];
        SplittableRandom random = new SplittableRandom(SEED);
        for (int i = 0; i < p.length; i++) p[i] = (byte) random.nextInt(256);
        return p;
    }

    /** Reads the body front to back. */
    public final class Cursor {
        private long position;

        private Cursor() {}

        /**
         * @param dst where to
         * @param off where in {@code dst}
         * @param len at most this many
         * @return bytes copied, or -1 at the end of the body
         */
        public int read(byte[] dst, int off, int len) {
            long total = length();
            if (position >= total) return -1;
            int n = (int) Math.min(len, total - position);
            int done = 0;
            while (done < n) {
                long at = position + done;
                int step;
                if (at < prefix.length) {
                    step = Math.min(n - done, prefix.length - (int) at);
                    System.arraycopy(prefix, (int) at, dst, off + done, step);
                } else if (at < prefix.length + fileBytes) {
                    step = (int) Math.min(n - done, prefix.length + fileBytes - at);
                    fill(at - prefix.length, dst, off + done, step);
                } else {
                    int s = (int) (at - prefix.length - fileBytes);
                    step = Math.min(n - done, suffix.length - s);
                    System.arraycopy(suffix, s, dst, off + done, step);
                }
                done += step;
            }
            position += n;
            return n;
        }
    }
}
