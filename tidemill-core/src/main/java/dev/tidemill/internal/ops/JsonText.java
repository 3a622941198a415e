package dev.tidemill.internal.ops;

/** The few JSON bits the health bodies and the access log write by hand (they must not depend on the app's codec). */
final class JsonText {
    private JsonText() {}

    /** Appends {@code s} as a JSON string, quotes included. */
    static StringBuilder string(StringBuilder out, String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20 || c == 0x2028 || c == 0x2029) out.append(String.format("\\u%04x", (int) c));
                    else out.append(c);
                }
            }
        }
        return out.append('"');
    }
}
