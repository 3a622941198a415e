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
        string(b, p.type());
        b.append(",\"title\":");
        string(b, p.title());
        b.append(",\"status\":").append(p.status());
        if (p.detail().isPresent()) {
            b.append(",\"detail\":");
            string(b, p.detail().get());
        }
        if (!p.errors().isEmpty()) {
            b.append(",\"errors\":[");
            for (int i = 0; i < p.errors().size(); i++) {
                Problem.FieldError e = p.errors().get(i);
                if (i > 0) b.append(',');
                b.append("{\"type\":");
                string(b, e.type());
                b.append(",\"loc\":[");
                for (int j = 0; j < e.loc().size(); j++) {
                    if (j > 0) b.append(',');
                    string(b, e.loc().get(j));
                }
                b.append("],\"msg\":");
                string(b, e.msg());
                if (e.input().isPresent()) {
                    b.append(",\"input\":");
                    string(b, e.input().get());
                }
                b.append('}');
            }
            b.append(']');
        }
        b.append('}');
        return b.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static void string(StringBuilder b, String s) {
        b.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20 || c == 0x2028 || c == 0x2029 || Character.isSurrogate(c) && !validSurrogate(s, i)) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        b.append('"');
    }

    private static boolean validSurrogate(String s, int i) {
        char c = s.charAt(i);
        if (Character.isHighSurrogate(c)) return i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1));
        return i > 0 && Character.isHighSurrogate(s.charAt(i - 1));
    }
}
