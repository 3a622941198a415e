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
        while (from < to && value.charAt(from) <= ' ') from++; // optional whitespace around a field value
        while (to > from && value.charAt(to - 1) <= ' ') to--;
        int i = from;
        if (i < to && value.charAt(i) == '[') {
            int close = value.indexOf(']', i);
            if (close < 0 || close >= to) return false;
            for (int k = i + 1; k < close; k++) {
                char c = value.charAt(k);
                if (!(Character.digit(c, 16) >= 0 || c == ':' || c == '.')) return false;
            }
            i = close + 1;
        } else {
            while (i < to && value.charAt(i) != ':') {
                char c = value.charAt(i);
                if (c >= 128 || !REG_NAME[c]) return false;
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
}
