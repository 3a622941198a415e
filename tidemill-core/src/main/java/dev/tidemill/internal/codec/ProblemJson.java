package dev.tidemill.internal.codec;

import dev.tidemill.Problem;
import java.nio.charset.StandardCharsets;

/**
 * Renders {@link Problem}s as {@code application/problem+json}. Written by hand rather than through
 * the app's {@link dev.tidemill.JsonCodec}: errors must render even when a user's codec is broken,
 * and a problem is five fields.
 */
public final class ProblemJson {
    /** The media type. */
    public static final String CONTENT_TYPE = "application/problem+json";

    private ProblemJson() {}

    /** @param p the problem @return its UTF-8 JSON */
    public static byte[] render(Problem p) {
        StringBuilder b = new StringBuilder(128);
        b.append("{\"type\":");
        JsonString.append(b, p.type());
        b.append(",\"title\":");
        JsonString.append(b, p.title());
        b.append(",\"status\":").append(p.status());
        if (p.detail().isPresent()) {
            b.append(",\"detail\":");
            JsonString.append(b, p.detail().get());
        }
        if (!p.errors().isEmpty()) {
            b.append(",\"errors\":[");
            for (int i = 0; i < p.errors().size(); i++) {
                Problem.FieldError e = p.errors().get(i);
                if (i > 0) b.append(',');
                b.append("{\"type\":");
                JsonString.append(b, e.type());
                b.append(",\"loc\":[");
                for (int j = 0; j < e.loc().size(); j++) {
                    if (j > 0) b.append(',');
                    JsonString.append(b, e.loc().get(j));
                }
                b.append("],\"msg\":");
                JsonString.append(b, e.msg());
                if (e.input().isPresent()) {
                    b.append(",\"input\":");
                    JsonString.append(b, e.input().get());
                }
                b.append('}');
            }
            b.append(']');
        }
        b.append('}');
        return b.toString().getBytes(StandardCharsets.UTF_8);
    }
}
