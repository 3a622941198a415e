package dev.tidemill.testing;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A {@code multipart/form-data} body (RFC 7578) for {@link TestRequest#multipart(MultipartBody)}, as
 * a browser encodes a form: names and file names in UTF-8 with {@code "}, CR and LF
 * percent-encoded (HTML's form submission algorithm). Immutable: every method returns a new body.
 * {@link #part(String, byte[])} adds a part with header lines exactly as given, for hostile tests.
 *
 * <pre>{@code
 * MultipartBody.create().field("title", "Q3").file("report", "q3.csv", "text/csv", bytes)
 * }</pre>
 *
 * @param boundary the boundary, sent as given
 * @param parts each part's header block (lines ending in CRLF, without the empty line) and content
 */
public record MultipartBody(String boundary, List<Part> parts) {

    /**
     * One part.
     *
     * @param headers the header lines, each ending in CRLF
     * @param content the content bytes
     */
    public record Part(String headers, byte[] content) {
        /** Checks for nulls. @param headers header lines @param content content */
        public Part {
            Objects.requireNonNull(headers, "headers");
            Objects.requireNonNull(content, "content");
        }
    }

    /** Checks for nulls and copies the part list. @param boundary the boundary @param parts the parts */
    public MultipartBody {
        Objects.requireNonNull(boundary, "boundary");
        parts = List.copyOf(parts);
    }

    /** @return an empty form with a boundary like a browser's ({@code ----TidemillFormBoundary} and 16 hex digits) */
    public static MultipartBody create() {
        return withBoundary("----TidemillFormBoundary" + Long.toHexString(new java.util.Random().nextLong() | Long.MIN_VALUE));
    }

    /** @param boundary a boundary, sent as given (not checked, so a test can send a bad one) @return an empty form */
    public static MultipartBody withBoundary(String boundary) {
        return new MultipartBody(boundary, List.of());
    }

    /** @param name field name @param value its text, UTF-8 @return a copy with a text field added */
    public MultipartBody field(String name, String value) {
        return part("Content-Disposition: form-data; name=\"" + escape(name) + "\"\r\n", value.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * @param name field name
     * @param filename the file name sent
     * @param contentType the part's {@code Content-Type}
     * @param content the file's bytes
     * @return a copy with a file part added
     */
    public MultipartBody file(String name, String filename, String contentType, byte[] content) {
        return part("Content-Disposition: form-data; name=\"" + escape(name) + "\"; filename=\"" + escape(filename) + "\"\r\n"
                + "Content-Type: " + contentType + "\r\n", content);
    }

    /**
     * @param headers header lines exactly as sent, each ending in CRLF (UTF-8)
     * @param content the content
     * @return a copy with that part added
     */
    public MultipartBody part(String headers, byte[] content) {
        List<Part> p = new ArrayList<>(parts);
        p.add(new Part(headers, content));
        return new MultipartBody(boundary, p);
    }

    /** @return {@code multipart/form-data; boundary=...} */
    public String contentType() {
        return "multipart/form-data; boundary=" + boundary;
    }

    /** @return the encoded body: each part after its delimiter, then the final {@code --boundary--} and CRLF */
    public byte[] toBytes() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Part p : parts) {
            out.writeBytes(("--" + boundary + "\r\n" + p.headers() + "\r\n").getBytes(StandardCharsets.UTF_8));
            out.writeBytes(p.content());
            out.writeBytes(new byte[] {'\r', '\n'});
        }
        out.writeBytes(("--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8));
        return out.toByteArray();
    }

    private static String escape(String s) {
        return s.replace("\"", "%22").replace("\r", "%0D").replace("\n", "%0A");
    }
}
