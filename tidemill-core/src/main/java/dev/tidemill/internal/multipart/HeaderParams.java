package dev.tidemill.internal.multipart;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The {@code ; name=value} parameters of {@code Content-Type} and {@code Content-Disposition}
 * (RFC 9110 section 5.6.6 and RFC 6266): a value is a token or a quoted-string. Names are
 * case-insensitive and may not repeat: two {@code name} parameters are a way to make two parsers
 * see two different fields.
 *
 * <p>Inside a quoted-string only {@code \"} is an escape (for {@code "}); any other backslash is
 * itself. RFC 9110's quoted-pair would make {@code \x} stand for {@code x}, but browsers never
 * escape with a backslash: HTML's form encoding percent-encodes {@code "} as {@code %22} and sends
 * a backslash as it is, so {@code filename="C:\dir\a.txt"} (old browsers' full paths) or a
 * Linux file named {@code a\b} would lose their backslashes. Jetty reads them the same way.
 */
final class HeaderParams {
    private HeaderParams() {}

    /** Thrown for text that is not a parameter list; the message says why. */
    static final class Malformed extends RuntimeException {
        Malformed(String message) {
            super(message, null, false, false);
        }
    }

    /**
     * @param value a header value
     * @param from where the parameters start (at the first {@code ;})
     * @return the parameters by lower-case name, in order
     * @throws Malformed for a missing {@code =}, an empty name, an unterminated quoted-string, a
     *     repeated name or text after a value
     */
    static Map<String, String> parse(String value, int from) {
        Map<String, String> params = new LinkedHashMap<>(8); // a form's headers carry 1-3 parameters, not 16
        int i = from;
        int n = value.length();
        while (true) {
            i = skipSpace(value, i);
            if (i >= n) return params;
            if (value.charAt(i) != ';') throw new Malformed("expected ';' at column " + i);
            i = skipSpace(value, i + 1);
            if (i >= n) return params; // a trailing ';' is common and harmless
            int eq = value.indexOf('=', i);
            if (eq < 0) throw new Malformed("a parameter without '='");
            String name = value.substring(i, eq).trim().toLowerCase(Locale.ROOT);
            if (name.isEmpty() || !isToken(name)) throw new Malformed("a parameter with an invalid name");
            i = skipSpace(value, eq + 1);
            String v;
            if (i < n && value.charAt(i) == '"') {
                StringBuilder b = new StringBuilder();
                i++;
                while (true) {
                    if (i >= n) throw new Malformed("an unterminated quoted-string");
                    char c = value.charAt(i++);
                    if (c == '"') break;
                    if (c == '\\' && i < n && value.charAt(i) == '"') c = value.charAt(i++);
                    b.append(c);
                }
                v = b.toString();
            } else {
                int end = i;
                while (end < n && value.charAt(end) != ';') end++;
                v = value.substring(i, end).trim();
                if (v.isEmpty() || v.indexOf('"') >= 0 || v.indexOf(' ') >= 0 || v.indexOf('\t') >= 0) {
                    throw new Malformed("parameter " + name + " has an invalid value");
                }
                i = end;
            }
            if (params.putIfAbsent(name, v) != null) throw new Malformed("parameter " + name + " appears twice");
        }
    }

    private static int skipSpace(String s, int i) {
        while (i < s.length() && (s.charAt(i) == ' ' || s.charAt(i) == '\t')) i++;
        return i;
    }

    /** @return whether every character is an RFC 9110 tchar */
    static boolean isToken(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!(c < 0x7f && (Character.isLetterOrDigit(c) || "!#$%&'*+-.^_`|~".indexOf(c) >= 0))) return false;
        }
        return !s.isEmpty();
    }
}
