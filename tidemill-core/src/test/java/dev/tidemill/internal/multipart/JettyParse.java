package dev.tidemill.internal.multipart;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.MultiPart;
import org.eclipse.jetty.http.MultiPartCompliance;
import org.eclipse.jetty.io.Content;

/** The reference: Jetty 12's {@code MultiPart.Parser}, RFC 7578 compliance mode, its violations recorded. */
final class JettyParse {
    private JettyParse() {}

    /** What Jetty made of a body: parts, or the failure, and every compliance violation it allowed. */
    record Outcome(List<Parsed> parts, Throwable failure, List<String> violations) {}

    static Outcome parse(String boundary, byte[] body, int chunk) {
        List<Parsed> parts = new ArrayList<>();
        List<String> violations = new ArrayList<>();
        Throwable[] failure = new Throwable[1];
        boolean[] complete = new boolean[1];
        ByteArrayOutputStream content = new ByteArrayOutputStream();
        MultiPart.AbstractPartsListener listener = new MultiPart.AbstractPartsListener() {
            @Override
            public void onPartContent(Content.Chunk c) {
                ByteBuffer b = c.getByteBuffer().slice();
                byte[] bytes = new byte[b.remaining()];
                b.get(bytes);
                content.writeBytes(bytes);
            }

            @Override
            public void onPart(String name, String fileName, HttpFields headers) {
                List<Map.Entry<String, String>> h = new ArrayList<>();
                String contentType = null;
                for (HttpField f : headers) {
                    h.add(Map.entry(f.getName(), f.getValue() == null ? "" : f.getValue()));
                    if (f.getName().equalsIgnoreCase("Content-Type")) contentType = f.getValue();
                }
                Optional<String> file = Optional.ofNullable(fileName);
                if (contentType == null) contentType = file.isPresent() ? "application/octet-stream" : "text/plain";
                parts.add(new Parsed(name, file, contentType, h, content.toString(StandardCharsets.ISO_8859_1)));
                content.reset();
            }

            @Override
            public void onComplete() {
                complete[0] = true;
            }

            @Override
            public void onFailure(Throwable t) {
                failure[0] = t;
            }

            @Override
            public void onViolation(MultiPartCompliance.Violation v) {
                violations.add(v.name());
            }
        };
        MultiPart.Parser parser = new MultiPart.Parser(boundary, MultiPartCompliance.RFC7578, listener);
        try {
            int step = chunk <= 0 ? Math.max(1, body.length) : chunk;
            for (int i = 0; i < body.length && failure[0] == null; i += step) {
                int n = Math.min(step, body.length - i);
                parser.parse(Content.Chunk.from(ByteBuffer.wrap(body, i, n).slice(), false));
            }
            if (failure[0] == null) parser.parse(Content.Chunk.EOF);
        } catch (RuntimeException e) {
            failure[0] = e;
        }
        if (failure[0] == null && !complete[0]) failure[0] = new IllegalStateException("Jetty did not complete");
        return new Outcome(parts, failure[0], violations);
    }
}
