package dev.tidemill.internal.multipart;

import java.util.Locale;

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
    /** No parameters. */
    static final HeaderParams NONE = new HeaderParams();

    /**
     * The names whose strings are constants rather than cut from the header: the ones forms and
     * multipart content types carry. A 1 KiB multipart request parsed two parameter lists into
     * LinkedHashMaps, with a String per name and a StringBuilder per quoted value: about 700 of
     * the 5,400 bytes it allocated (async-profiler's alloc event with {@code total}, IO mode, wrk
     * -t1 -c4 for 13 s posting the uploads suite's 1 KiB form; bytes over requests).
     */
    private static final String[] KNOWN = {"name", "filename", "filename*", "boundary", "charset"};

    /** Names and values in turn, names lower-case; a form's headers carry 1-3 parameters. */
    private String[] pairs = new String[6];
    private int size;

    private HeaderParams() {}

    /** Thrown for text that is not a parameter list; the message says why. */
    static final class Malformed extends RuntimeException {
        Malformed(String message) {
            super(message, null, false, false);
        }
    }

    /**
     * @param lowerName a parameter name in lower case
     * @return its value, or null when absent
     */
    String get(String lowerName) {
        for (int i = 0; i < size; i += 2) {
            if (pairs[i].equals(lowerName)) return pairs[i + 1];
        }
        return null;
    }

    private void put(String name, String value) {
        if (get(name) != null) throw new Malformed("parameter " + name + " appears twice");
        if (size == pairs.length) pairs = java.util.Arrays.copyOf(pairs, size * 2);
        pairs[size++] = name;
        pairs[size++] = value;
    }

    /**
     * @param value a header value
     * @param from where the parameters start (at the first {@code ;})
     * @return the parameters by lower-case name
     * @throws Malformed for a missing {@code =}, an empty name, an unterminated quoted-string, a
     *     repeated name or text after a value
     */
    static HeaderParams parse(String value, int from) {
        HeaderParams params = new HeaderParams();
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
            String name = name(value, i, eq);
            i = skipSpace(value, eq + 1);
            String v;
            if (i < n && value.charAt(i) == '"') {
                int close = ++i;
                boolean escaped = false;
                while (close < n && value.charAt(close) != '"') {
                    if (value.charAt(close) == '\\' && close + 1 < n && value.charAt(close + 1) == '"') {
                        escaped = true;
                        close++;
                    }
                    close++;
                }
                if (close >= n) throw new Malformed("an unterminated quoted-string");
                v = escaped ? unescape(value, i, close) : value.substring(i, close);
                i = close + 1;
            } else {
                int end = i;
                while (end < n && value.charAt(end) != ';') end++;
                v = value.substring(i, end).trim();
                if (v.isEmpty() || v.indexOf('"') >= 0 || v.indexOf(' ') >= 0 || v.indexOf('\t') >= 0) {
                    throw new Malformed("parameter " + name + " has an invalid value");
                }
                i = end;
            }
            params.put(name, v);
        }
    }

    /** @return the name in {@code [from, to)} (surrounding whitespace dropped) in lower case, a constant when it is a known one */
    private static String name(String value, int from, int to) {
        while (from < to && value.charAt(from) <= ' ') from++;
        while (to > from && value.charAt(to - 1) <= ' ') to--;
        for (String k : KNOWN) {
            if (k.length() == to - from && value.regionMatches(false, from, k, 0, k.length())) return k;
        }
        String name = value.substring(from, to).toLowerCase(Locale.ROOT);
        if (!isToken(name)) throw new Malformed("a parameter with an invalid name");
        return name;
    }

    /** Only {@code \"} is an escape (see the class comment). */
    private static String unescape(String value, int from, int to) {
        StringBuilder b = new StringBuilder(to - from);
        for (int i = from; i < to; i++) {
            char c = value.charAt(i);
            if (c == '\\' && i + 1 < to && value.charAt(i + 1) == '"') c = value.charAt(++i);
            b.append(c);
        }
        return b.toString();
    }

    private static int skipSpace(String s, int i) {
        while (i < s.length() && (s.charAt(i) == ' ' || s.charAt(i) == '\t')) i++;
        return i;
    }

    /** @return whether every character is an RFC 9110 tchar */
    static boolean isToken(String s) {
        return isToken(s, 0, s.length());
    }

    /** @return whether every character of {@code s[from, to)} is an RFC 9110 tchar, and there is one */
    static boolean isToken(String s, int from, int to) {
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (!(c < 0x7f && (Character.isLetterOrDigit(c) || "!#$%&'*+-.^_`|~".indexOf(c) >= 0))) return false;
        }
        return to > from;
    }
}
