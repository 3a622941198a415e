package dev.tidemill.internal.http1;

import io.netty.buffer.ByteBuf;
import io.netty.util.concurrent.FastThreadLocal;

/**
 * Checks the bytes of a request head against the HTTP/1.1 grammar (RFC 9112 sections 2-5, RFC
 * 9110 section 5) before Netty's decoder parses it, because the decoder is lenient where a
 * lenient parser behind a strict proxy (or the other way round) is how requests get smuggled: it
 * skips any number of control bytes before a request, splits the request line on runs of
 * whitespace, unfolds obs-fold, and leaves field-value bytes to header validation. Here a head is
 * refused with 400 (and the connection closed) for: more than {@code maxLeadingEmptyLines} empty lines
 * before the request line; a bare CR or a bare LF anywhere; a request line that is not exactly
 * {@code method SP target SP HTTP/d.d} with a token method, a target of visible ASCII without
 * {@code # \ " < >}; a header line that starts with whitespace (obs-fold), has no colon, an empty
 * name, a name with a non-token byte (whitespace before the colon included), or a value with a
 * control byte other than HTAB.
 *
 * <p>The check is incremental: the decoder feeds it the bytes of a head as they arrive, it
 * remembers where it stopped, and a head trickled in one byte at a time is still scanned once. It
 * only reads; the decoder parses the same bytes once the head is complete. Cost: one pass over
 * the head's bytes.
 */
final class HeadValidator {
    /** Empty lines (CRLF) tolerated before a request line ({@link dev.tidemill.Limits#maxLeadingEmptyLines()}). */
    private final int maxEmptyLines;

    /** @param maxEmptyLines empty lines tolerated before a request line (RFC 9112 2.2 asks for at least one) */
    HeadValidator(int maxEmptyLines) {
        this.maxEmptyLines = maxEmptyLines;
    }

    /** With the default {@link dev.tidemill.Limits#maxLeadingEmptyLines()}. */
    HeadValidator() {
        this(dev.tidemill.Limits.DEFAULTS.maxLeadingEmptyLines());
    }

    /** The head is malformed: answer {@code status} with {@code detail}, then close. */
    static final class MalformedHeadException extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;
        private final int status;

        MalformedHeadException(int status, String detail) {
            super(detail, null);
            this.status = status;
        }

        int status() {
            return status;
        }
    }

    /** Returned by {@link #feed} while the head is not complete yet. */
    static final int INCOMPLETE = -1;

    // Scanner states (ints, not an enum: no ordinal load per byte).
    private static final int EMPTY_LINES = 0;
    private static final int METHOD = 1;
    private static final int TARGET = 2;
    private static final int VERSION = 3;
    private static final int REQUEST_LINE_LF = 4;
    private static final int LINE_START = 5;
    private static final int NAME = 6;
    private static final int VALUE = 7;
    private static final int LINE_LF = 8;
    private static final int END_LF = 9;

    private static final boolean[] TCHAR = new boolean[128];
    private static final boolean[] TARGET_CHAR = new boolean[128];
    /** Bytes allowed inside a field value: HTAB, visible ASCII, SP and obs-text (RFC 9110 5.5). */
    private static final boolean[] VALUE_CHAR = new boolean[256];
    /** {@link #TCHAR} and {@link #TARGET_CHAR} over all 256 byte values (false from 0x80 on). */
    private static final boolean[] TCHAR_256 = new boolean[256];
    private static final boolean[] TARGET_CHAR_256 = new boolean[256];
    private static final FastThreadLocal<byte[]> SCRATCH = new FastThreadLocal<>() {
        @Override
        protected byte[] initialValue() {
            return new byte[2048];
        }
    };

    static {
        for (char c = '0'; c <= '9'; c++) TCHAR[c] = true;
        for (char c = 'a'; c <= 'z'; c++) TCHAR[c] = true;
        for (char c = 'A'; c <= 'Z'; c++) TCHAR[c] = true;
        for (char c : "!#$%&'*+-.^_`|~".toCharArray()) TCHAR[c] = true;
        for (char c = 0x21; c < 0x7f; c++) TARGET_CHAR[c] = true;
        // '#' starts a fragment (never sent in a request); the rest are not URI characters and no
        // browser sends them unencoded. { } | ^ ` stay allowed: browsers leave them in query strings.
        for (char c : "#\\\"<>".toCharArray()) TARGET_CHAR[c] = false;
        VALUE_CHAR['\t'] = true;
        for (int c = 0x20; c < 0x7f; c++) VALUE_CHAR[c] = true;
        for (int c = 0x80; c < 0x100; c++) VALUE_CHAR[c] = true;
        System.arraycopy(TCHAR, 0, TCHAR_256, 0, 128);
        System.arraycopy(TARGET_CHAR, 0, TARGET_CHAR_256, 0, 128);
    }

    private int state = EMPTY_LINES;
    /** Bytes of the current head already scanned, counted from where the head starts. */
    private int scanned;
    private int emptyLines;
    private int tokenLength;
    private int line;
    // Where the parts of the last complete head are, counted from where the head starts, so the
    // decoder can build the request from them without scanning the bytes again (see Head).
    private int methodStart;
    private int methodEnd;
    private int targetEnd;
    private int versionEnd;
    /** Per header line: name start, name end (the colon), value start, value end (the CR). */
    private int[] fields = new int[64];
    private int fieldCount;
    /** The version's bytes so far, packed (at most 8: "HTTP/d.d"), and how many. No per-connection buffer. */
    private long version;
    private int versionLength;

    /** Starts over for the next head. */
    void reset() {
        fieldCount = 0;
        state = EMPTY_LINES;
        scanned = 0;
        emptyLines = 0;
        tokenLength = 0;
        line = 0;
        version = 0;
        versionLength = 0;
    }

    /**
     * Scans the head's bytes that arrived since the last call.
     *
     * @param buf the decoder's cumulation; the head starts at its reader index
     * @return the length of the complete head (through its final CRLF CRLF), or {@link #INCOMPLETE}
     * @throws MalformedHeadException at the first byte the grammar does not allow
     */
    int feed(ByteBuf buf) {
        // Scanned in copies of at most 2 KiB: a byte[] loop is what the JIT compiles best (no bounds
        // check per byte on the buffer, no megamorphic ByteProcessor call), and copying a head costs
        // less than scanning it through ByteBuf.getByte. The array is per event-loop thread, not per
        // connection; what follows the head (a body, pipelined requests) is copied 2 KiB at most.
        byte[] a = SCRATCH.get();
        // 256 bytes first (a typical API request's head), doubling: pipelined requests behind the
        // head are not copied again and again for each head in front of them.
        int chunk = 256;
        for (;; chunk = Math.min(chunk * 2, a.length)) {
            int from = buf.readerIndex() + scanned;
            int n = Math.min(buf.writerIndex() - from, chunk);
            if (n <= 0) return INCOMPLETE;
            buf.getBytes(from, a, 0, n);
            int length = scan(a, n);
            if (length != INCOMPLETE) return length;
        }
    }

    /** Scans {@code n} bytes of the head, copied into {@code a}; @return the head's length once complete */
    private int scan(byte[] a, int n) {
        // State, position and token length live in locals for the loop and are stored once at the
        // end: as fields they were a load and a store per byte, and the scan was the largest
        // Tidemill frame of a plaintext profile (async-profiler, wrk -c64 on one core).
        int st = state;
        int sc = scanned;
        int tl = tokenLength;
        for (int k = 0; k < n; k++) {
            // Runs of bytes that cannot change the state (most of a method, a target, a name, a
            // value) are skipped in a tight loop over a table, not one trip through the switch each.
            boolean[] run = st == VALUE ? VALUE_CHAR : st == NAME ? TCHAR_256 : st == TARGET ? TARGET_CHAR_256
                    : st == METHOD ? TCHAR_256 : null;
            if (run != null) {
                int stop = k;
                while (stop < n && run[a[stop] & 0xff]) stop++;
                int skipped = stop - k;
                sc += skipped;
                if (st == TARGET || st == METHOD) tl += skipped;
                if (stop == n) break;
                k = stop;
            }
            int b = a[k] & 0xff;
            sc++;
            switch (st) {
                case EMPTY_LINES -> {
                    if (b == '\r') {
                        st = REQUEST_LINE_LF;
                        tl = -1; // marks "CR of an empty line"
                    } else if (b == '\n') {
                        throw bad("a bare LF before the request line");
                    } else if (b == ' ') {
                        throw bad("request line starts with a space");
                    } else if (b < 128 && TCHAR[b]) {
                        st = METHOD;
                        tl = 1;
                        methodStart = sc - 1;
                        fieldCount = 0;
                    } else {
                        throw bad("request method: " + describe(b) + " is not a token character");
                    }
                }
                case METHOD -> { // a byte the run loop stopped at: not a token character
                    if (b == ' ') {
                        methodEnd = sc - 1;
                        st = TARGET;
                        tl = 0;
                    } else if (b == '\r' || b == '\n') {
                        throw bad("request line: no target and no version");
                    } else {
                        throw bad("request method: " + describe(b) + " is not a token character");
                    }
                }
                case TARGET -> {
                    if (b == ' ') {
                        if (tl == 0) throw bad("more than one space between the method and the target");
                        targetEnd = sc - 1;
                        st = VERSION;
                        version = 0;
                        versionLength = 0;
                    } else if (b == '\r' || b == '\n') {
                        throw bad("request line without an HTTP version (HTTP/0.9 is not served)");
                    } else {
                        throw bad("request target: " + describe(b) + " is not allowed (RFC 3986)");
                    }
                }
                case VERSION -> {
                    if (b == '\r') {
                        checkVersion();
                        versionEnd = sc - 1;
                        st = REQUEST_LINE_LF;
                    } else if (versionLength >= 8 || b == ' ' || b < 0x21 || b > 0x7e) {
                        throw bad(b == ' ' ? "request line: more than three parts, or a space after the version"
                                : "request line: malformed HTTP version");
                    } else {
                        version = version << 8 | b;
                        versionLength++;
                    }
                }
                case REQUEST_LINE_LF -> {
                    if (b != '\n') throw bad("a bare CR in the request line");
                    if (tl == -1) { // an empty line before the request line
                        if (++emptyLines > maxEmptyLines) throw bad("more than " + maxEmptyLines + " empty lines before the request line (maxLeadingEmptyLines)");
                        st = EMPTY_LINES;
                    } else {
                        st = LINE_START;
                    }
                }
                case LINE_START -> {
                    line++;
                    if (b == '\r') {
                        st = END_LF;
                    } else if (b == ' ' || b == '\t') {
                        throw bad(line == 1 ? "whitespace before the first header line (RFC 9112 2.2)"
                                : "header line " + line + ": obs-fold (a line starting with whitespace) is not accepted (RFC 9112 5.2)");
                    } else if (b == ':') {
                        throw bad("header line " + line + ": empty field name");
                    } else {
                        st = NAME;
                        name(b);
                        startField(sc - 1);
                    }
                }
                case NAME -> {
                    if (b != ':') name(b);
                    st = VALUE;
                    fields[4 * fieldCount + 1] = sc - 1;
                    fields[4 * fieldCount + 2] = sc;
                }
                case VALUE -> {
                    if (b == '\r') {
                        st = LINE_LF;
                        fields[4 * fieldCount + 3] = sc - 1;
                        fieldCount++;
                    } else if (b == '\n') {
                        throw bad("header line " + line + ": a bare LF");
                    } else {
                        throw bad("header line " + line + ": " + describe(b) + " in a field value (RFC 9110 5.5)");
                    }
                }
                case LINE_LF -> {
                    if (b != '\n') throw bad("header line " + line + ": a bare CR");
                    st = LINE_START;
                }
                case END_LF -> {
                    if (b != '\n') throw bad("a bare CR ending the header block");
                    int fieldsFound = fieldCount;
                    reset();
                    fieldCount = fieldsFound; // the offsets describe this head until the next one starts
                    return sc;
                }
                default -> throw new IllegalStateException("state " + st);
            }
        }
        state = st;
        scanned = sc;
        tokenLength = tl;
        return INCOMPLETE;
    }

    /** Starts a header line's record at {@code pos} (name start); grows the table as needed. */
    private void startField(int pos) {
        if (4 * fieldCount + 4 > fields.length) fields = java.util.Arrays.copyOf(fields, fields.length * 2);
        fields[4 * fieldCount] = pos;
    }

    // Offsets of the last complete head, from where it starts (valid until the next feed).

    int methodStart() {
        return methodStart;
    }

    int methodEnd() {
        return methodEnd;
    }

    int targetEnd() {
        return targetEnd;
    }

    int versionEnd() {
        return versionEnd;
    }

    /** @return the header lines of the last complete head */
    int fieldCount() {
        return fieldCount;
    }

    /** @return the offsets of header line {@code i}: name start, name end, value start, value end, at {@code 4 i} */
    int[] fields() {
        return fields;
    }

    /** @return bytes scanned of a head not yet complete */
    int pending() {
        return scanned;
    }

    private void name(int b) {
        if (b == '\r' || b == '\n') throw bad("header line " + line + ": no colon");
        if (b == ' ' || b == '\t') throw bad("header line " + line + ": whitespace in the field name or before the colon (RFC 9112 5.1)");
        if (b >= 128 || !TCHAR[b]) throw bad("header line " + line + ": " + describe(b) + " in a field name (RFC 9110 5.1)");
    }

    private void checkVersion() {
        if (versionLength != 8 || (version >>> 24) != HTTP_SLASH || !digit(versionByte(5)) || versionByte(6) != '.'
                || !digit(versionByte(7))) {
            StringBuilder v = new StringBuilder(versionLength);
            for (int i = 0; i < versionLength; i++) v.append((char) versionByte(i));
            throw bad("request line: malformed HTTP version '" + printable(v.toString()) + "' (expected HTTP/1.1)");
        }
        // A well-formed version we do not speak (HTTP/2.0, HTTP/0.9) passes here: the gate answers 505.
    }

    /** "HTTP/" as the five high bytes of a packed 8-byte version. */
    private static final long HTTP_SLASH = (long) 'H' << 32 | (long) 'T' << 24 | 'T' << 16 | 'P' << 8 | '/';

    /** @return byte {@code i} of the version as sent (0 = first) */
    private char versionByte(int i) {
        return (char) (version >>> (8 * (versionLength - 1 - i)) & 0xff);
    }

    private static boolean digit(char c) {
        return c >= '0' && c <= '9';
    }

    private static String describe(int b) {
        if (b >= 0x21 && b < 0x7f) return "'" + (char) b + "'";
        return String.format("byte 0x%02x", b);
    }

    private static String printable(String s) {
        StringBuilder b = new StringBuilder();
        for (char c : s.toCharArray()) b.append(c >= 0x20 && c < 0x7f ? String.valueOf(c) : String.format("\\x%02x", (int) c));
        return b.toString();
    }

    private static MalformedHeadException bad(String detail) {
        return new MalformedHeadException(400, detail);
    }
}
