package dev.tidemill.internal.http1;

/**
 * The syntax of a {@code Host} field value (RFC 9110 7.2, RFC 3986 3.2.2): {@code uri-host [":"
 * port]}, where the host is empty, an IP literal in brackets, or a reg-name / IPv4 address of
 * unreserved, percent-encoded and sub-delim characters, and the port is up to five digits.
 * Checked in place, without trimming or substrings: it runs on every request.
 */
final class HostHeader {
    private static final boolean[] REG_NAME = new boolean[128];

    static {
        for (char c = '0'; c <= '9'; c++) REG_NAME[c] = true;
        for (char c = 'a'; c <= 'z'; c++) REG_NAME[c] = true;
        for (char c = 'A'; c <= 'Z'; c++) REG_NAME[c] = true;
        for (char c : "-._~!$&'()*+,;=%".toCharArray()) REG_NAME[c] = true;
    }

    private HostHeader() {}

    /** @param value a Host field value @return whether it is {@code uri-host [":" port]} */
    static boolean valid(String value) {
        int from = 0;
        int to = value.length();
        while (from < to && ows(value.charAt(from))) from++; // optional whitespace around a field value
        while (to > from && ows(value.charAt(to - 1))) to--;
        int i = from;
        if (i < to && value.charAt(i) == '[') {
            int close = value.indexOf(']', i);
            if (close < 0 || close >= to || !ipLiteral(value, i + 1, close)) return false;
            i = close + 1;
        } else {
            while (i < to && value.charAt(i) != ':') {
                char c = value.charAt(i);
                if (c >= 128 || !REG_NAME[c]) return false;
                if (c == '%') { // pct-encoded: exactly two hex digits
                    if (i + 2 >= to || hex(value.charAt(i + 1)) < 0 || hex(value.charAt(i + 2)) < 0) return false;
                    i += 2;
                }
                i++;
            }
        }
        if (i == to) return true;
        if (value.charAt(i) != ':') return false;
        int digits = to - i - 1;
        if (digits > 5) return false;
        for (int k = i + 1; k < to; k++) {
            char c = value.charAt(k);
            if (c < '0' || c > '9') return false;
        }
        return true;
    }

    private static boolean ows(char c) {
        return c == ' ' || c == '\t';
    }

    private static int hex(char c) {
        return c < 128 ? Character.digit(c, 16) : -1;
    }

    /**
     * The inside of {@code [...]}: an IPv6 address (RFC 3986 3.2.2: up to eight groups of one to
     * four hex digits, one {@code ::} at most, an IPv4 address allowed as the last 32 bits), or an
     * IPvFuture ({@code v<hex>.<unreserved / sub-delims / ":">}).
     */
    static boolean ipLiteral(String s, int from, int to) {
        if (from >= to) return false;
        char first = s.charAt(from);
        if (first == 'v' || first == 'V') {
            int i = from + 1;
            int digits = 0;
            while (i < to && hex(s.charAt(i)) >= 0) {
                i++;
                digits++;
            }
            if (digits == 0 || i >= to - 1 || s.charAt(i) != '.') return false;
            for (i++; i < to; i++) {
                char c = s.charAt(i);
                if (c >= 128 || !(REG_NAME[c] && c != '%' || c == ':')) return false;
            }
            return true;
        }
        int groups = 0;
        boolean compressed = false;
        int i = from;
        if (s.startsWith("::", i)) {
            compressed = true;
            i += 2;
            if (i == to) return true; // "::"
        } else if (s.charAt(i) == ':') {
            return false;
        }
        while (i < to) {
            int j = i;
            while (j < to && hex(s.charAt(j)) >= 0 && j - i < 5) j++;
            if (j < to && s.charAt(j) == '.') { // an IPv4 address as the last 32 bits
                if (!ipv4(s, i, to)) return false;
                groups += 2;
                i = to;
                break;
            }
            int len = j - i;
            if (len < 1 || len > 4) return false;
            groups++;
            i = j;
            if (i == to) break;
            if (s.charAt(i) != ':') return false;
            i++;
            if (i < to && s.charAt(i) == ':') {
                if (compressed) return false; // "::" at most once
                compressed = true;
                i++;
                if (i == to) break;
            } else if (i == to) {
                return false; // a trailing single ':'
            }
        }
        return compressed ? groups <= 7 : groups == 8;
    }

    private static boolean ipv4(String s, int from, int to) {
        int parts = 0;
        int i = from;
        while (i <= to) {
            int j = i;
            int v = 0;
            while (j < to && s.charAt(j) >= '0' && s.charAt(j) <= '9' && j - i < 3) v = v * 10 + (s.charAt(j++) - '0');
            if (j == i || v > 255 || (j - i > 1 && s.charAt(i) == '0')) return false;
            parts++;
            if (j == to) break;
            if (s.charAt(j) != '.') return false;
            i = j + 1;
        }
        return parts == 4;
    }
}
