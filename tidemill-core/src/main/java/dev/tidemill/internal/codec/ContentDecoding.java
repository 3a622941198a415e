package dev.tidemill.internal.codec;

import dev.tidemill.Problem;
import dev.tidemill.ProblemException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.zip.GZIPInputStream;
import java.util.zip.InflaterInputStream;

/**
 * Request bodies sent with {@code Content-Encoding} (RFC 9110 8.4): {@code gzip} (and its alias
 * {@code x-gzip}), {@code deflate} (the zlib format), {@code br} and {@code zstd} (when zstd-jni is
 * present; without it zstd is refused like any unknown coding), at most
 * {@link dev.tidemill.Limits#maxContentCodings()} stacked. Decoding is bounded by the route's body limit: the decoded bytes
 * count against {@code maxBodyBytes} as they come out, so a bomb (a few KiB that inflate to
 * gigabytes) stops at the limit plus one byte with a 413, having allocated no more than that.
 * Any other coding is refused with 415 before the body is read ({@link #check}).
 *
 * <p>Decoding runs where the handler runs, on first access to the body, not on the I/O thread:
 * inflating a large body must not stall the other connections of an event loop.
 */
public final class ContentDecoding {
    /** What {@code Accept-Encoding} lists on a 415. */
    public static final String SUPPORTED = ContentEncoding.zstdAvailable() ? "gzip, deflate, br, zstd" : "gzip, deflate, br";

    private ContentDecoding() {}

    /**
     * @param header the request's {@code Content-Encoding} value, or null
     * @param maxCodings stacked codings accepted, e.g. 2 for {@code gzip, br}
     *     ({@link dev.tidemill.Limits#maxContentCodings()}); more is refused with 415
     * @return the codings in the order they were applied, identity left out; empty for none
     * @throws ProblemException 415 naming an unsupported coding, or too many stacked
     */
    public static List<String> check(String header, int maxCodings) {
        if (header == null) return List.of();
        List<String> codings = new ArrayList<>(2);
        for (String part : header.split(",")) {
            String c = part.trim().toLowerCase(Locale.ROOT);
            if (c.isEmpty() || c.equals("identity")) continue;
            if (!(c.equals("gzip") || c.equals("x-gzip") || c.equals("deflate") || c.equals("br") || (c.equals("zstd") && ContentEncoding.zstdAvailable()))) {
                throw unsupported("Content-Encoding '" + printable(c) + "' is not supported; supported: " + SUPPORTED);
            }
            codings.add(c);
        }
        if (codings.size() > maxCodings) {
            throw unsupported("more than " + maxCodings + " stacked content codings (maxContentCodings)");
        }
        return List.copyOf(codings);
    }

    /**
     * Decodes a body, last-applied coding first.
     *
     * @param body the body as received
     * @param codings from {@link #check}, in the order applied
     * @param limit the route's body limit (bytes)
     * @return the decoded body
     * @throws ProblemException 413 once the decoded size passes the limit; 400 for corrupt data
     */
    public static byte[] decode(byte[] body, List<String> codings, long limit) {
        byte[] b = body;
        for (int i = codings.size() - 1; i >= 0; i--) b = decodeOne(b, codings.get(i), limit);
        return b;
    }

    private static byte[] decodeOne(byte[] body, String coding, long limit) {
        try (InputStream in = open(coding, new ByteArrayInputStream(body))) {
            ByteArrayOutputStream out = new ByteArrayOutputStream(Math.min(body.length * 4, 1 << 16) + 16);
            byte[] buf = new byte[16 * 1024];
            long total = 0;
            int n;
            while ((n = in.read(buf)) > 0) {
                total += n;
                if (total > limit) {
                    throw new ProblemException(Problem.of(413, "Content Too Large", "the " + coding
                            + "-decoded body exceeds the " + limit + "-byte limit (maxBodyBytes)"));
                }
                out.write(buf, 0, n);
            }
            return out.toByteArray();
        } catch (IOException | RuntimeException e) {
            if (e instanceof ProblemException p) throw p;
            throw new ProblemException(Problem.of(400, "Bad Request", "the body is not valid " + coding + " data"));
        }
    }

    /**
     * A streamed body decoded as it is read, last-applied coding first, bounded like {@link #decode}.
     *
     * @param raw the body as received
     * @param codings from {@link #check}, in the order applied
     * @param limit the route's body limit (bytes), counted on the decoded bytes
     * @return the decoded stream; its reads throw an {@link IOException} whose cause is the
     *     {@link ProblemException} (413 past the limit, 400 for corrupt data)
     */
    public static InputStream decoding(InputStream raw, List<String> codings, long limit) {
        return new Bounded(raw, codings, limit);
    }

    /** Decodes on first read (opening a gzip stream reads its header) and counts what comes out. */
    private static final class Bounded extends InputStream {
        private final InputStream raw;
        private final List<String> codings;
        private final long limit;
        private InputStream in;
        private long total;

        Bounded(InputStream raw, List<String> codings, long limit) {
            this.raw = raw;
            this.codings = codings;
            this.limit = limit;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            String coding = codings.get(0);
            int n;
            try {
                if (in == null) {
                    InputStream s = raw;
                    for (int i = codings.size() - 1; i >= 0; i--) s = open(codings.get(i), s);
                    in = s;
                }
                n = in.read(b, off, len);
            } catch (IOException | RuntimeException e) {
                if (e.getCause() instanceof ProblemException) throw e; // the raw body's own fault (413, 408, 400)
                throw new IOException(new ProblemException(Problem.of(400, "Bad Request", "the body is not valid "
                        + String.join(", ", codings) + " data")));
            }
            if (n > 0) {
                total += n;
                if (total > limit) {
                    throw new IOException(new ProblemException(Problem.of(413, "Content Too Large", "the " + coding
                            + "-decoded body exceeds the " + limit + "-byte limit (maxBodyBytes)")));
                }
            }
            return n;
        }

        @Override
        public void close() throws IOException {
            if (in != null) in.close();
            else raw.close();
        }
    }

    private static InputStream open(String coding, InputStream raw) throws IOException {
        return switch (coding) {
            case "gzip", "x-gzip" -> new GZIPInputStream(raw, 16 * 1024);
            case "deflate" -> new InflaterInputStream(raw);
            case "br" -> new org.brotli.dec.BrotliInputStream(raw);
            case "zstd" -> ZstdCoding.decoder(raw);
            default -> throw new IllegalArgumentException(coding);
        };
    }

    private static ProblemException unsupported(String detail) {
        return new ProblemException(Problem.of(415, "Unsupported Media Type", detail));
    }

    private static String printable(String s) {
        StringBuilder b = new StringBuilder();
        for (char c : s.toCharArray()) b.append(c >= 0x21 && c < 0x7f ? c : '?');
        return b.length() > 40 ? b.substring(0, 40) + "..." : b.toString();
    }
}
