package dev.tidemill.internal.multipart;

import dev.tidemill.Limits;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One part as a test compares it: every field, content as ISO-8859-1 text (one char per byte, so
 * equal strings are equal bytes).
 */
record Parsed(String name, Optional<String> filename, String contentType, List<Map.Entry<String, String>> headers, String content) {

    /** Parses a body fed in chunks of {@code chunk} bytes (the whole body at once for 0). */
    static List<Parsed> parse(String boundary, byte[] body, Limits limits, int chunk) {
        return parse(boundary, body, limits, chunk, null);
    }

    /**
     * Parses a body fed in chunks of random sizes, 1 to 64 bytes, each in direct memory behind a few
     * bytes of padding (so the parser's indexes start past 0, as in a socket's buffer).
     */
    static List<Parsed> parseRandomly(String boundary, byte[] body, Limits limits, java.util.Random random) {
        return parse(boundary, body, limits, 0, random);
    }

    private static List<Parsed> parse(String boundary, byte[] body, Limits limits, int chunk, java.util.Random random) {
        List<Parsed> out = new ArrayList<>();
        ByteArrayOutputStream content = new ByteArrayOutputStream();
        PartHead[] head = new PartHead[1];
        MultipartParser p = new MultipartParser(boundary, limits, new PartListener() {
            @Override
            public void partBegin(PartHead h) {
                if (head[0] != null) throw new AssertionError("part began before the previous one ended");
                head[0] = h;
                content.reset();
            }

            @Override
            public void partData(java.nio.ByteBuffer data, int off, int len) {
                if (head[0] == null || len <= 0) throw new AssertionError("data outside a part, or empty");
                byte[] slice = new byte[len];
                data.get(off, slice);
                content.write(slice, 0, len);
            }

            @Override
            public void partEnd() {
                PartHead h = head[0];
                out.add(new Parsed(h.name(), h.filename(), h.contentType(), h.fields(), content.toString(StandardCharsets.ISO_8859_1)));
                head[0] = null;
            }
        });
        int step = chunk <= 0 ? Math.max(1, body.length) : chunk;
        for (int i = 0; i < body.length; i += step) {
            if (random == null) {
                p.feed(body, i, Math.min(step, body.length - i));
                continue;
            }
            step = 1 + random.nextInt(64);
            int n = Math.min(step, body.length - i);
            int pad = random.nextInt(8);
            java.nio.ByteBuffer direct = java.nio.ByteBuffer.allocateDirect(pad + n + 3);
            direct.position(pad).put(body, i, n).position(pad).limit(pad + n);
            p.feed(direct);
            if (direct.position() != pad || direct.limit() != pad + n) throw new AssertionError("the parser moved the buffer");
        }
        p.finish();
        return out;
    }

    /** Content cut to 80 characters: a failure message of the 100 KiB case stays readable. */
    @Override
    public String toString() {
        String c = content.length() <= 80 ? content : content.substring(0, 80) + "...(" + content.length() + " chars)";
        return "Parsed[" + name + ", " + filename + ", " + contentType + ", " + headers + ", " + c.replace("\r", "\\r").replace("\n", "\\n") + "]";
    }

    static List<Parsed> parse(String boundary, String body) {
        return parse(boundary, body.getBytes(StandardCharsets.UTF_8), Limits.DEFAULTS, 0);
    }

    static Parsed field(String name, String value) {
        return new Parsed(name, Optional.empty(), "text/plain",
                List.of(Map.entry("Content-Disposition", "form-data; name=\"" + name + "\"")), value);
    }
}
