package dev.tidemill.internal.routing;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Percent-decoding of URL components: path segments here, query strings and form bodies through
 * {@link QueryString}. Decoding is strict: a {@code %} not followed by two hex digits, or bytes that
 * are not valid in the charset, throw {@link MalformedEncodingException} rather than being passed
 * through, so that two different byte strings never decode to the same text by accident.
 */
public final class PathDecoder {
    private PathDecoder() {}

    /**
     * Percent-decodes one path segment as UTF-8. {@code +} stays {@code +}: it means a space only in
     * query strings and forms.
     *
     * @param raw the segment as sent
     * @return the decoded text; {@code raw} itself when it holds no {@code %}
     * @throws MalformedEncodingException {@code invalid percent-encoding in path}
     */
    public static String decode(String raw) {
        if (raw.indexOf('%') < 0) return raw;
        return decode(raw, 0, raw.length(), false, false, StandardCharsets.UTF_8, "path");
    }

    /**
     * Decodes {@code s[from, to)}.
     *
     * @param plusIsSpace whether {@code +} means a space (query strings and forms)
     * @param charsAreBytes whether each char of {@code s} stands for one byte (a form body read as
     *     ISO-8859-1) rather than for a Unicode character (a URI, where a raw non-ASCII character is
     *     taken as its UTF-8 bytes)
     * @param cs the charset the decoded bytes are in; must be ASCII-compatible
     * @param where named in the exception message
     */
    static String decode(String s, int from, int to, boolean plusIsSpace, boolean charsAreBytes, Charset cs,
            String where) {
        boolean plain = true;
        for (int i = from; i < to && plain; i++) {
            char c = s.charAt(i);
            plain = c != '%' && (c != '+' || !plusIsSpace) && (c < 0x80 || !charsAreBytes);
        }
        if (plain) return s.substring(from, to);
        // A char becomes at most 3 UTF-8 bytes (a surrogate pair, 2 chars, becomes 4).
        byte[] buf = new byte[(to - from) * (charsAreBytes ? 1 : 3)];
        int n = 0;
        boolean ascii = true;
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (c == '%') {
                int hi = i + 2 < to ? hex(s.charAt(i + 1)) : -1;
                int lo = hi >= 0 ? hex(s.charAt(i + 2)) : -1;
                if (lo < 0) throw malformed(where);
                byte b = (byte) (hi << 4 | lo);
                ascii &= b >= 0;
                buf[n++] = b;
                i += 2;
            } else if (c == '+' && plusIsSpace) {
                buf[n++] = ' ';
            } else if (c < 0x80 || charsAreBytes) {
                ascii &= c < 0x80;
                buf[n++] = (byte) c;
            } else {
                ascii = false;
                n = putUtf8(s, i, to, buf, n, where);
                if (Character.isHighSurrogate(c)) i++;
            }
        }
        if (ascii && isAsciiCompatible(cs)) return new String(buf, 0, n, StandardCharsets.ISO_8859_1);
        try {
            CharBuffer out = cs.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(buf, 0, n));
            return out.toString();
        } catch (CharacterCodingException e) {
            throw malformed(where);
        }
    }

    private static boolean isAsciiCompatible(Charset cs) {
        return cs.equals(StandardCharsets.UTF_8) || cs.equals(StandardCharsets.ISO_8859_1)
                || cs.equals(StandardCharsets.US_ASCII);
    }

    /** Writes the UTF-8 bytes of the character at {@code s[i]} (a surrogate pair takes two chars). */
    private static int putUtf8(String s, int i, int to, byte[] buf, int n, String where) {
        char c = s.charAt(i);
        if (c < 0x800) {
            buf[n++] = (byte) (0xC0 | c >> 6);
            buf[n++] = (byte) (0x80 | c & 0x3F);
        } else if (Character.isSurrogate(c)) {
            char d = i + 1 < to ? s.charAt(i + 1) : 0;
            if (!Character.isHighSurrogate(c) || !Character.isLowSurrogate(d)) throw malformed(where);
            int cp = Character.toCodePoint(c, d);
            buf[n++] = (byte) (0xF0 | cp >> 18);
            buf[n++] = (byte) (0x80 | cp >> 12 & 0x3F);
            buf[n++] = (byte) (0x80 | cp >> 6 & 0x3F);
            buf[n++] = (byte) (0x80 | cp & 0x3F);
        } else {
            buf[n++] = (byte) (0xE0 | c >> 12);
            buf[n++] = (byte) (0x80 | c >> 6 & 0x3F);
            buf[n++] = (byte) (0x80 | c & 0x3F);
        }
        return n;
    }

    private static int hex(char c) {
        if (c >= '0' && c <= '9') return c - '0';
        if (c >= 'a' && c <= 'f') return c - 'a' + 10;
        if (c >= 'A' && c <= 'F') return c - 'A' + 10;
        return -1;
    }

    private static MalformedEncodingException malformed(String where) {
        return new MalformedEncodingException("invalid percent-encoding in " + where);
    }
}
