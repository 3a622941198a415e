package dev.tidemill.internal.codec;

/**
 * The one JSON string escaper for what Tidemill writes by hand rather than through the app's
 * {@link dev.tidemill.JsonCodec}: problem bodies (they must render when a user's codec is broken),
 * the health and diagnostics bodies and the access log (they must not depend on the app's codec),
 * and Datastar's signal patches (which must be byte for byte what the JavaScript SDK sends).
 *
 * <p>It writes what {@code JSON.stringify} writes (ECMA-262 25.5.2.3 QuoteJSONString): {@code "}
 * and {@code \} escaped, the short escapes {@code \b \f \n \r \t}, other controls as
 * {@code \\u00xx} (lower-case hex), a lone surrogate as {@code \\udxxx} (so the output is always
 * well-formed UTF-8), everything else as it is. U+2028 and U+2029 are legal in JSON (RFC 8259 7)
 * and go as they are; what embeds JSON in a script escapes for that context itself.
 */
public final class JsonString {
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private JsonString() {}

    /**
     * Appends {@code s} as a JSON string, quotes included.
     *
     * @param out where to append
     * @param s the string
     * @return {@code out}
     */
    public static StringBuilder append(StringBuilder out, String s) {
        out.append('"');
        int n = s.length();
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20 || Character.isSurrogate(c) && !paired(s, i)) unicode(out, c);
                    else out.append(c);
                }
            }
        }
        return out.append('"');
    }

    /** @return whether the surrogate at {@code i} is half of a pair */
    private static boolean paired(String s, int i) {
        char c = s.charAt(i);
        if (Character.isHighSurrogate(c)) return i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1));
        return i > 0 && Character.isHighSurrogate(s.charAt(i - 1));
    }

    private static void unicode(StringBuilder out, char c) {
        out.append("\\u").append(HEX[c >> 12 & 0xF]).append(HEX[c >> 8 & 0xF]).append(HEX[c >> 4 & 0xF]).append(HEX[c & 0xF]);
    }
}
