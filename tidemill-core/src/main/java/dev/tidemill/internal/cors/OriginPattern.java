package dev.tidemill.internal.cors;

import java.util.Locale;

/**
 * One allowed origin of a CORS policy: exact ({@code https://app.example.com}) or with one leading
 * wildcard label ({@code https://*.example.com}: one or more labels in its place, never none).
 * Matching is on the ASCII-lower-cased {@code Origin} serialisation browsers send
 * ({@code scheme://host[:port]}, no default port, no path); a default port written in the policy
 * is dropped so it matches what browsers send.
 */
public final class OriginPattern {
    private final String exact;      // null for a wildcard pattern
    private final String prefix;     // "https://" for a wildcard pattern
    private final String suffix;     // ".example.com[:port]" for a wildcard pattern

    private OriginPattern(String exact, String prefix, String suffix) {
        this.exact = exact;
        this.prefix = prefix;
        this.suffix = suffix;
    }

    /**
     * @param origin an origin or pattern as configured
     * @return it, parsed; throws {@link IllegalArgumentException} naming what is wrong
     */
    public static OriginPattern parse(String origin) {
        String o = normalise(origin);
        if (o.equals("null")) {
            throw new IllegalArgumentException("the origin 'null' cannot be allowed: sandboxed frames, local files and "
                    + "redirects of any site send it");
        }
        int sep = o.indexOf("://");
        if (sep <= 0) throw new IllegalArgumentException("an origin is scheme://host[:port]: " + origin);
        String scheme = o.substring(0, sep);
        if (!scheme.chars().allMatch(c -> (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.')) {
            throw new IllegalArgumentException("invalid scheme in origin: " + origin);
        }
        String rest = o.substring(sep + 3);
        if (rest.isEmpty() || rest.indexOf('/') >= 0 || rest.indexOf('?') >= 0 || rest.indexOf('#') >= 0 || rest.indexOf('@') >= 0) {
            throw new IllegalArgumentException("an origin has no path, query, fragment or user: " + origin);
        }
        String host = hostOf(rest);
        String port = rest.substring(host.length());
        if (!port.isEmpty() && !port.matches(":[0-9]{1,5}")) throw new IllegalArgumentException("invalid port in origin: " + origin);
        int star = host.indexOf('*');
        if (star < 0) {
            checkHost(host, origin);
            return new OriginPattern(o, null, null);
        }
        if (star != 0 || !host.startsWith("*.") || host.indexOf('*', 1) >= 0) {
            throw new IllegalArgumentException("a wildcard is allowed only as the whole first label (https://*.example.com): "
                    + origin);
        }
        String domain = host.substring(2);
        checkHost(domain, origin);
        if (domain.indexOf('.') < 0 || domain.startsWith("[")) {
            // *.com or *.localhost would allow every site under a top-level name
            throw new IllegalArgumentException("a wildcard origin needs at least two labels after '*.': " + origin);
        }
        return new OriginPattern(null, scheme + "://", "." + domain + port);
    }

    /** @return the origin lower-cased, with its scheme's default port (80 for http, 443 for https) dropped */
    public static String normalise(String origin) {
        String o = origin.strip().toLowerCase(Locale.ROOT);
        if (o.startsWith("http://") && o.endsWith(":80")) return o.substring(0, o.length() - 3);
        if (o.startsWith("https://") && o.endsWith(":443")) return o.substring(0, o.length() - 4);
        return o;
    }

    /**
     * @param origin an {@code Origin} header's value, as sent
     * @return whether this pattern allows it
     */
    public boolean matches(String origin) {
        if (exact != null) return exact.length() == origin.length() && exact.equalsIgnoreCase(origin);
        if (origin.length() <= prefix.length() + suffix.length()) return false;
        String o = origin.toLowerCase(Locale.ROOT);
        if (!o.startsWith(prefix) || !o.endsWith(suffix)) return false;
        String sub = o.substring(prefix.length(), o.length() - suffix.length());
        // one or more labels of letters, digits and hyphens; no port, no brackets smuggled in
        if (sub.startsWith(".") || sub.endsWith(".") || sub.contains("..")) return false;
        return sub.chars().allMatch(c -> (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.');
    }

    private static String hostOf(String rest) {
        if (rest.startsWith("[")) {
            int end = rest.indexOf(']');
            if (end < 0) throw new IllegalArgumentException("unclosed IPv6 literal in origin: " + rest);
            return rest.substring(0, end + 1);
        }
        int colon = rest.indexOf(':');
        return colon < 0 ? rest : rest.substring(0, colon);
    }

    private static void checkHost(String host, String origin) {
        if (host.startsWith("[") && host.endsWith("]")) return;
        if (host.isEmpty() || host.startsWith(".") || host.endsWith(".") || host.contains("..")
                || !host.chars().allMatch(c -> (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.')) {
            throw new IllegalArgumentException("invalid host in origin: " + origin);
        }
    }

    @Override
    public String toString() {
        return exact != null ? exact : prefix + "*" + suffix;
    }
}
