package dev.tidemill.internal.assets;

import java.util.Locale;

/**
 * A {@code Range} header against a representation of known length (RFC 9110 14.1 and 14.2): the
 * one byte range to send, or why none. Only a single range is served: a request for several gets
 * the whole representation with 200 (a server may ignore {@code Range}, 14.2), which also makes a
 * header of a thousand overlapping ranges cost one comparison (CVE-2011-3192's pattern).
 *
 * @param kind what the header asked for
 * @param first first byte, inclusive (for {@link Kind#SINGLE})
 * @param last last byte, inclusive (for {@link Kind#SINGLE})
 */
record ByteRange(Kind kind, long first, long last) {
    /** What the header amounts to. */
    enum Kind {
        /** absent, another unit, or malformed: ignored, 200 */
        NONE,
        /** more than one range: ignored, 200 */
        MULTIPLE,
        /** one range, none of whose bytes exist: 416 */
        UNSATISFIABLE,
        /** one range: 206 */
        SINGLE
    }

    private static final ByteRange NONE = new ByteRange(Kind.NONE, 0, -1);
    private static final ByteRange MULTIPLE = new ByteRange(Kind.MULTIPLE, 0, -1);
    private static final ByteRange UNSATISFIABLE = new ByteRange(Kind.UNSATISFIABLE, 0, -1);

    /** @return bytes in the range */
    long length() {
        return last - first + 1;
    }

    /**
     * @param header the {@code Range} value
     * @param length the representation's length in bytes
     * @return the range to serve
     */
    static ByteRange parse(String header, long length) {
        String v = header.strip();
        int eq = v.indexOf('=');
        if (eq < 0 || !v.substring(0, eq).strip().toLowerCase(Locale.ROOT).equals("bytes")) return NONE;
        String set = v.substring(eq + 1);
        int comma = set.indexOf(',');
        String spec = (comma < 0 ? set : set.substring(0, comma)).strip();
        if (comma >= 0) {
            // a list with another non-empty element is several ranges (empty elements are allowed, RFC 9110 5.6.1)
            if (!set.substring(comma + 1).replace(",", "").isBlank()) return MULTIPLE;
        }
        int dash = spec.indexOf('-');
        if (dash < 0) return NONE;
        String a = spec.substring(0, dash).strip();
        String b = spec.substring(dash + 1).strip();
        if (a.isEmpty()) { // suffix: the last n bytes
            long n = digits(b);
            if (n < 0) return NONE;
            if (n == 0 || length == 0) return UNSATISFIABLE;
            return new ByteRange(Kind.SINGLE, Math.max(0, length - n), length - 1);
        }
        long first = digits(a);
        if (first < 0) return NONE;
        long last;
        if (b.isEmpty()) {
            last = Long.MAX_VALUE;
        } else {
            last = digits(b);
            if (last < 0 || last < first) return NONE; // invalid range-spec: the header is ignored
        }
        if (first >= length) return UNSATISFIABLE;
        return new ByteRange(Kind.SINGLE, first, Math.min(last, length - 1));
    }

    /** @return the value of 1*DIGIT (saturating at Long.MAX_VALUE), or -1 if it is not that */
    private static long digits(String s) {
        if (s.isEmpty()) return -1;
        long n = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') return -1;
            n = n > (Long.MAX_VALUE - 9) / 10 ? Long.MAX_VALUE : n * 10 + (c - '0');
        }
        return n;
    }
}
