package dev.tidemill.internal.exchange;

/**
 * The request target's path, and the one check on it that must not allocate per request: dot
 * segments. Protocol-neutral: HTTP/1.1 passes the request-target, HTTP/2 the {@code :path}.
 */
public final class RequestTarget {
    private RequestTarget() {}

    /**
     * @param uri the request target as sent
     * @return the path of an origin-form ({@code /a?b}) or absolute-form ({@code http://h/a}) target,
     *     still percent-encoded and without query or fragment; null if it is neither
     */
    public static String rawPath(String uri) {
        int start = 0;
        if (!uri.startsWith("/")) {
            int scheme = uri.indexOf("://");
            boolean http = scheme == 4 && uri.regionMatches(true, 0, "http", 0, 4)
                    || scheme == 5 && uri.regionMatches(true, 0, "https", 0, 5);
            if (!http) return null;
            // the authority ends at the first '/', '?' or '#' (RFC 3986 3.2)
            int i = scheme + 3;
            while (i < uri.length() && uri.charAt(i) != '/' && uri.charAt(i) != '?' && uri.charAt(i) != '#') i++;
            if (i == uri.length() || uri.charAt(i) != '/') return "/";
            start = i;
        }
        int end = uri.length();
        for (int i = start; i < uri.length(); i++) {
            char c = uri.charAt(i);
            if (c == '?' || c == '#') {
                end = i;
                break;
            }
        }
        return start == 0 && end == uri.length() ? uri : uri.substring(start, end);
    }

    /**
     * @param rawPath a path starting with {@code /}
     * @return whether a segment is {@code .} or {@code ..}, literally or percent-encoded ({@code %2e},
     *     {@code %2E}); scans in place, no substring per segment
     */
    public static boolean hasDotSegment(String rawPath) {
        int n = rawPath.length();
        int start = 1;
        while (start <= n) {
            int end = rawPath.indexOf('/', start);
            if (end < 0) end = n;
            int dots = 0;
            int i = start;
            boolean onlyDots = true;
            while (i < end && onlyDots && dots <= 2) {
                char c = rawPath.charAt(i);
                if (c == '.') {
                    dots++;
                    i++;
                } else if (c == '%' && i + 2 < end && rawPath.charAt(i + 1) == '2' && (rawPath.charAt(i + 2) | 0x20) == 'e') {
                    dots++;
                    i += 3;
                } else {
                    onlyDots = false;
                }
            }
            if (onlyDots && i == end && (dots == 1 || dots == 2)) return true;
            start = end + 1;
        }
        return false;
    }
}
