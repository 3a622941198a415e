package dev.tidemill.processor;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/** The path pattern rules of {@code dev.tidemill.Routes}, checked at compile time. */
final class Patterns {
    private Patterns() {}

    /**
     * @param pattern a full pattern
     * @param problem told what is wrong
     * @return the variables in order ({@code *name} for a catch-all), or null after telling {@code problem}
     */
    static List<String> variables(String pattern, Consumer<String> problem) {
        List<String> out = new ArrayList<>();
        String[] segments = pattern.substring(1).split("/", -1);
        for (int i = 0; i < segments.length; i++) {
            String s = segments[i];
            if (s.isEmpty() && i < segments.length - 1) {
                problem.accept("path " + pattern + " has an empty segment ('//'): remove it");
                return null;
            }
            if (s.indexOf('{') < 0 && s.indexOf('}') < 0) {
                String wrong = literal(s);
                if (wrong != null) {
                    problem.accept("segment \"" + s + "\" of " + pattern + " " + wrong);
                    return null;
                }
                continue;
            }
            if (!s.matches("\\{\\*?[A-Za-z_][A-Za-z0-9_]*}")) {
                problem.accept("segment \"" + s + "\" of " + pattern + " is not a variable: a variable is a whole segment, {name} or a final {*name}");
                return null;
            }
            boolean rest = s.startsWith("{*");
            if (rest && i < segments.length - 1) {
                problem.accept("the catch-all " + s + " of " + pattern + " is not the last segment: move it to the end");
                return null;
            }
            String name = s.substring(rest ? 2 : 1, s.length() - 1);
            if (out.contains(name) || out.contains("*" + name)) {
                problem.accept("path " + pattern + " names {" + name + "} twice: rename one");
                return null;
            }
            out.add(rest ? "*" + name : name);
        }
        return out;
    }

    /**
     * Checks a literal segment as the router does: it is matched against the decoded request path.
     *
     * @return what is wrong with it, or null
     */
    static String literal(String segment) {
        if (segment.indexOf('?') >= 0 || segment.indexOf('#') >= 0) {
            return "has '?' or '#', which start a query or a fragment, never part of a path: "
                    + "take the query with @QueryParam, or write %3F or %23 for the character";
        }
        if (segment.indexOf('%') < 0) return null;
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        for (int i = 0; i < segment.length(); i++) {
            char c = segment.charAt(i);
            if (c != '%') {
                byte[] b = String.valueOf(c).getBytes(java.nio.charset.StandardCharsets.UTF_8);
                bytes.write(b, 0, b.length);
                continue;
            }
            int hi = i + 2 < segment.length() ? Character.digit(segment.charAt(i + 1), 16) : -1;
            int lo = hi >= 0 ? Character.digit(segment.charAt(i + 2), 16) : -1;
            if (lo < 0) return "has a '%' not followed by two hex digits: write %25 for a '%' itself";
            bytes.write(hi << 4 | lo);
            i += 2;
        }
        try {
            String decoded = java.nio.charset.StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(java.nio.charset.CodingErrorAction.REPORT)
                    .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPORT)
                    .decode(java.nio.ByteBuffer.wrap(bytes.toByteArray())).toString();
            if (decoded.indexOf('/') >= 0) return "encodes a '/' (%2F), which no request segment can hold: make it two segments";
        } catch (java.nio.charset.CharacterCodingException e) {
            return "percent-encodes bytes that are not UTF-8: encode the character's UTF-8 bytes";
        }
        return null;
    }

    /** @return the pattern with variable names erased, so two routes that would collide compare equal */
    static String shape(String pattern) {
        return pattern.replaceAll("\\{\\*[^}]*}", "{*}").replaceAll("\\{[^*}][^}]*}", "{}");
    }
}
