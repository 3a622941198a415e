package dev.tidemill.internal.topic;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Subjects and patterns, as Stario's Relay has them: a subject is dotted ({@code room.42.message},
 * non-empty segments, no {@code *}); a pattern is a subject, a prefix wildcard ({@code room.*}:
 * every subject that continues {@code room} with a dot, at any depth, but not {@code room} itself)
 * or the catch-all {@code *}. A subject is matched by looking up the few patterns that can match
 * it ({@link #keys}: itself, each of its prefixes with {@code .*}, and {@code *}), so a publish
 * costs one lookup per segment whatever the number of patterns.
 */
final class Subjects {
    /** Longest subject or pattern accepted, in characters. */
    static final int MAX_LENGTH = 1024;

    private Subjects() { }

    /** @throws IllegalArgumentException unless {@code subject} is a well-formed subject */
    static void checkSubject(String subject) {
        String why = problem(subject);
        if (why != null) throw new IllegalArgumentException("subject '" + subject + "': " + why);
    }

    private static String problem(String s) {
        if (s == null) return "null";
        if (s.isEmpty()) return "empty";
        if (s.length() > MAX_LENGTH) return "longer than " + MAX_LENGTH + " characters";
        if (s.charAt(0) == '.' || s.charAt(s.length() - 1) == '.') return "starts or ends with a dot";
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '*') return "a '*' is only allowed in a pattern, as its last segment";
            if (c == '.' && s.charAt(i - 1) == '.') return "an empty segment (two dots)";
            if (c < 0x20 || c == 0x7f) return "a control character";
        }
        return null;
    }

    /**
     * Validates patterns and drops every one another covers ({@code a.b} and {@code a.b.*} under
     * {@code a.*}; everything under {@code *}), so that at most one of the result matches any subject.
     *
     * @return the patterns that remain, in the order given
     * @throws IllegalArgumentException for none, or a malformed one
     */
    static List<String> merge(String... patterns) {
        if (patterns == null || patterns.length == 0) throw new IllegalArgumentException("subscribe needs at least one pattern");
        Set<String> unique = new LinkedHashSet<>();
        for (String p : patterns) {
            checkPattern(p);
            unique.add(p);
        }
        if (unique.contains("*")) return List.of("*");
        List<String> kept = new ArrayList<>();
        for (String p : unique) {
            boolean covered = false;
            for (String q : unique) {
                if (q != p && q.endsWith(".*") && covers(q.substring(0, q.length() - 1), p)) {
                    covered = true;
                    break;
                }
            }
            if (!covered) kept.add(p);
        }
        return List.copyOf(kept);
    }

    /** @return whether every subject {@code p} matches starts with {@code prefixDot} (a prefix and its dot) */
    private static boolean covers(String prefixDot, String p) {
        String base = p.endsWith(".*") ? p.substring(0, p.length() - 1) : p;
        return base.length() > prefixDot.length() ? base.startsWith(prefixDot) : false;
    }

    /** @throws IllegalArgumentException unless {@code pattern} is a subject, a prefix wildcard or {@code *} */
    static void checkPattern(String pattern) {
        if ("*".equals(pattern)) return;
        if (pattern != null && pattern.endsWith(".*")) {
            String prefix = pattern.substring(0, pattern.length() - 2);
            String why = problem(prefix);
            if (why != null) throw new IllegalArgumentException("pattern '" + pattern + "': " + why);
            return;
        }
        String why = problem(pattern);
        if (why != null) throw new IllegalArgumentException("pattern '" + pattern + "': " + why
                + " (patterns are a subject, a prefix wildcard such as room.*, or *)");
    }

    /**
     * @param subject a well-formed subject
     * @return the patterns that match it: the subject, each shorter prefix followed by {@code .*}
     *     (longest first), and {@code *}
     */
    static String[] keys(String subject) {
        int dots = 0;
        for (int i = 0; i < subject.length(); i++) if (subject.charAt(i) == '.') dots++;
        String[] keys = new String[dots + 2];
        keys[0] = subject;
        int k = 1;
        for (int i = subject.length() - 1; i > 0; i--) {
            if (subject.charAt(i) == '.') keys[k++] = subject.substring(0, i + 1) + '*';
        }
        keys[k] = "*";
        return keys;
    }
}
