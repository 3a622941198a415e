package dev.tidemill.datastar;

/**
 * JavaScript string literals that nothing can break out of, for expressions Datastar evaluates
 * and scripts it runs (JSON strings: {@link dev.tidemill.internal.codec.JsonString}).
 */
final class Js {
    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private Js() {}

    /**
     * A single-quoted JavaScript string literal of {@code s}. Besides the quote and backslash, the
     * characters that mean something to a reader of the literal other than the JS parser are
     * written as {@code \xNN} escapes, which the JS parser reads back as the same characters:
     * {@code < >} (so {@code </script} and {@code <!--} cannot appear, in a script element or
     * anywhere), {@code " `} (so no quote of any kind is left inside), {@code $} and {@code @}
     * (the beta.11 client rewrites {@code $signal} and {@code @action(} in an expression's text
     * before compiling it, string literals included: {@code engine/engine.js} lines 279-287),
     * line breaks, U+2028/U+2029 and other controls, and a lone surrogate as {@code \\uD8xx}.
     * With no {@code '} and no {@code \} before a quote left, the beta.11 client's statement
     * splitter ({@code engine/engine.js} line 253) sees the literal exactly where JS does.
     */
    static String quote(String s) {
        StringBuilder b = new StringBuilder(s.length() + 8).append('\'');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '\\', '\'', '"', '`', '<', '>', '$', '@' -> hex(b, c);
                case '\u2028', '\u2029' -> unicode(b, c);
                default -> {
                    if (c < 0x20 || c == 0x7F) hex(b, c);
                    else if (Character.isSurrogate(c) && !pairedSurrogate(s, i)) unicode(b, c);
                    else b.append(c);
                }
            }
        }
        return b.append('\'').toString();
    }

    private static boolean pairedSurrogate(String s, int i) {
        char c = s.charAt(i);
        if (Character.isHighSurrogate(c)) return i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1));
        return i > 0 && Character.isHighSurrogate(s.charAt(i - 1));
    }

    private static void hex(StringBuilder b, char c) {
        b.append("\\x").append(HEX[c >> 4 & 0xF]).append(HEX[c & 0xF]);
    }

    private static void unicode(StringBuilder b, char c) {
        b.append("\\u").append(HEX[c >> 12 & 0xF]).append(HEX[c >> 8 & 0xF]).append(HEX[c >> 4 & 0xF]).append(HEX[c & 0xF]);
    }
}
