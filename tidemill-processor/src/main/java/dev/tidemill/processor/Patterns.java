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
            if (s.indexOf('{') < 0 && s.indexOf('}') < 0) continue;
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

    /** @return the pattern with variable names erased, so two routes that would collide compare equal */
    static String shape(String pattern) {
        return pattern.replaceAll("\\{\\*[^}]*}", "{*}").replaceAll("\\{[^*}][^}]*}", "{}");
    }
}
