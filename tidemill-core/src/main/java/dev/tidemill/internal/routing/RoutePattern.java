package dev.tidemill.internal.routing;

import java.util.ArrayList;
import java.util.List;

/**
 * A route pattern checked and cut into tokens for {@link Router}: literal text (a {@code String},
 * decoded, slashes included), {@link #PARAM} and {@link #CATCH_ALL}. {@code /a/{x}/b/{*rest}}
 * becomes {@code "/a/", PARAM, "/b", CATCH_ALL}: the slash before a catch-all is left to the
 * catch-all, so that it can also match zero segments.
 *
 * @param tokens the tokens, in order
 * @param names the parameter names, in order
 */
record RoutePattern(List<Object> tokens, String[] names) {
    /** Token for a {@code {name}} segment. */
    static final Object PARAM = new Object();
    /** Token for a final {@code {*name}} segment. */
    static final Object CATCH_ALL = new Object();
    /**
     * Stands for a request segment that cannot equal any literal (it does not decode, or decodes to
     * text holding {@code /}). U+FFFF is a Unicode noncharacter; literals may not hold it.
     */
    static final char NO_MATCH = '\uFFFF';
    /** {@link #NO_MATCH} as a String. */
    static final String NO_MATCH_TEXT = String.valueOf(NO_MATCH);

    /**
     * @param pattern e.g. {@code /items/{id}}
     * @return the tokens and names
     * @throws IllegalArgumentException naming the pattern, if it is invalid
     */
    static RoutePattern parse(String pattern) {
        if (pattern == null) throw new NullPointerException("pattern");
        if (pattern.isEmpty() || pattern.charAt(0) != '/') throw invalid(pattern, "it must start with '/'");
        List<Object> tokens = new ArrayList<>();
        List<String> names = new ArrayList<>();
        StringBuilder text = new StringBuilder("/");
        int n = pattern.length();
        for (int i = 1; ; ) {
            int end = pattern.indexOf('/', i);
            if (end < 0) end = n;
            String seg = pattern.substring(i, end);
            boolean last = end == n;
            if (seg.indexOf('{') >= 0 || seg.indexOf('}') >= 0) {
                boolean catchAll = parameter(pattern, seg, names);
                if (catchAll && !last) throw invalid(pattern, "the catch-all " + seg + " must be the last segment");
                if (catchAll) text.setLength(text.length() - 1); // its '/' belongs to the catch-all
                tokens.add(text.toString());
                tokens.add(catchAll ? CATCH_ALL : PARAM);
                text.setLength(0);
            } else {
                text.append(literal(pattern, seg));
            }
            if (last) break;
            text.append('/');
            i = end + 1;
        }
        if (!text.isEmpty()) tokens.add(text.toString());
        return new RoutePattern(List.copyOf(tokens), names.toArray(String[]::new));
    }

    /** Checks a {@code {name}} or {@code {*name}} segment, records its name; true for a catch-all. */
    private static boolean parameter(String pattern, String seg, List<String> names) {
        int n = seg.length();
        if (n < 2 || seg.charAt(0) != '{' || seg.charAt(n - 1) != '}'
                || seg.indexOf('{', 1) >= 0 || seg.indexOf('}') != n - 1) {
            throw invalid(pattern, "'{' and '}' must enclose a whole segment, as in /items/{id}, not '" + seg + "'");
        }
        boolean catchAll = seg.charAt(1) == '*';
        String name = seg.substring(catchAll ? 2 : 1, n - 1);
        if (name.isEmpty()) throw invalid(pattern, "a parameter name must not be empty");
        if (!isName(name)) {
            throw invalid(pattern, "parameter name '" + name + "' must match [A-Za-z_][A-Za-z0-9_]*");
        }
        if (names.contains(name)) throw invalid(pattern, "parameter name '" + name + "' is used twice");
        names.add(name);
        return catchAll;
    }

    /** Decodes a literal segment: routes are compared with the decoded request segment. */
    private static String literal(String pattern, String seg) {
        if (seg.indexOf('?') >= 0 || seg.indexOf('#') >= 0) {
            throw invalid(pattern, "'?' and '#' start a query or a fragment, never part of a path");
        }
        String decoded;
        try {
            decoded = PathDecoder.decode(seg);
        } catch (MalformedEncodingException e) {
            throw invalid(pattern, "invalid percent-encoding in '" + seg + "'");
        }
        if (decoded.indexOf('/') >= 0) throw invalid(pattern, "a literal segment must not encode '/' ('" + seg + "')");
        if (decoded.indexOf(NO_MATCH) >= 0) throw invalid(pattern, "a literal segment must not hold U+FFFF");
        return decoded;
    }

    private static boolean isName(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean letter = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
            if (!letter && (i == 0 || c < '0' || c > '9')) return false;
        }
        return true;
    }

    private static IllegalArgumentException invalid(String pattern, String why) {
        return new IllegalArgumentException("invalid route pattern '" + pattern + "': " + why);
    }
}
