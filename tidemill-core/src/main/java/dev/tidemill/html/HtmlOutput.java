package dev.tidemill.html;

import io.netty.buffer.ByteBuf;

/**
 * Where HTML is rendered: UTF-8 bytes appended to a Netty {@link ByteBuf}, escaped on the way in,
 * so a page never exists as one {@code String}. Written by hand rather than through a
 * {@code Writer}/{@code CharsetEncoder}: the escaping and the UTF-8 encoding happen in one pass
 * over each string, ASCII (most markup) one byte per char with no lookup table.
 */
final class HtmlOutput {
    /** How a string is escaped on its way in. */
    enum Escape {
        /** Markup, as is: tag names, pre-checked attribute names, trusted HTML. */
        NONE,
        /** Text content: {@code & < >}. */
        TEXT,
        /** A double-quoted attribute value: {@code & < > "}. */
        DOUBLE_QUOTED,
        /** A single-quoted attribute value (JSON in attributes): {@code & < > '}. */
        SINGLE_QUOTED,
        /** A comment: {@code < >}, so neither {@code -->} nor {@code --!>} can end it early. */
        COMMENT
    }

    private final ByteBuf out;
    /** Set while a template is baked: strings go to it, so it can find the parameters' placeholders. */
    final Bake.Trace trace;

    HtmlOutput(ByteBuf out) {
        this(out, null);
    }

    HtmlOutput(ByteBuf out, Bake.Trace trace) {
        this.out = out;
        this.trace = trace;
    }

    /** Appends bytes that are already markup (a baked template's static segments). */
    HtmlOutput bytes(byte[] b) {
        out.writeBytes(b);
        return this;
    }

    /** @return the buffer written to (a trace cuts it into segments) */
    ByteBuf buffer() {
        return out;
    }

    /** Appends ASCII markup known to need no escaping. */
    HtmlOutput ascii(String s) {
        out.writeCharSequence(s, java.nio.charset.StandardCharsets.US_ASCII);
        return this;
    }

    HtmlOutput ascii(char c) {
        out.writeByte(c);
        return this;
    }

    /** Appends {@code s} escaped as {@code how} says, encoded as UTF-8 (a lone surrogate becomes U+FFFD). */
    HtmlOutput write(CharSequence s, Escape how) {
        if (trace != null && trace.intercept(s, how)) return this;
        return encode(s, how);
    }

    /** The ASCII characters some escaping touches: {@code " & ' < >}. */
    private static final long SPECIAL = 1L << '"' | 1L << '&' | 1L << '\'' | 1L << '<' | 1L << '>';
    /** Per thread: strings are encoded into it, then copied into the buffer with one call, not a call per byte. */
    private static final ThreadLocal<byte[]> SCRATCH = ThreadLocal.withInitial(() -> new byte[4096]);
    private byte[] scratch;

    /** {@link #write}, without a trace looking. */
    HtmlOutput encode(CharSequence s, Escape how) {
        byte[] b = scratch;
        if (b == null) b = scratch = SCRATCH.get();
        int n = s.length();
        int limit = b.length - 8; // room for the longest one character writes (&quot;)
        int i = 0;
        while (i < n) {
            int p = 0;
            while (i < n && p < limit) {
                char c = s.charAt(i++);
                if (c < 0x80) {
                    if (c >= 64 || (SPECIAL >>> c & 1) == 0 || how == Escape.NONE) {
                        b[p++] = (byte) c;
                        continue;
                    }
                    p = special(b, p, c, how);
                } else if (c < 0x800) {
                    b[p++] = (byte) (0xC0 | c >> 6);
                    b[p++] = (byte) (0x80 | c & 0x3F);
                } else if (Character.isSurrogate(c)) {
                    int cp = Character.isHighSurrogate(c) && i < n && Character.isLowSurrogate(s.charAt(i))
                            ? Character.toCodePoint(c, s.charAt(i++)) : 0xFFFD;
                    if (cp == 0xFFFD) {
                        b[p++] = (byte) 0xEF;
                        b[p++] = (byte) 0xBF;
                        b[p++] = (byte) 0xBD;
                    } else {
                        b[p++] = (byte) (0xF0 | cp >> 18);
                        b[p++] = (byte) (0x80 | cp >> 12 & 0x3F);
                        b[p++] = (byte) (0x80 | cp >> 6 & 0x3F);
                        b[p++] = (byte) (0x80 | cp & 0x3F);
                    }
                } else {
                    b[p++] = (byte) (0xE0 | c >> 12);
                    b[p++] = (byte) (0x80 | c >> 6 & 0x3F);
                    b[p++] = (byte) (0x80 | c & 0x3F);
                }
            }
            out.writeBytes(b, 0, p);
        }
        return this;
    }

    /** Writes one of {@code " & ' < >} as {@code how} escapes it; @return the new position */
    private static int special(byte[] b, int p, char c, Escape how) {
        String entity = switch (c) {
            case '&' -> how == Escape.COMMENT ? null : "&amp;";
            case '<' -> "&lt;";
            case '>' -> "&gt;";
            case '"' -> how == Escape.DOUBLE_QUOTED ? "&quot;" : null;
            default -> how == Escape.SINGLE_QUOTED ? "&#39;" : null; // the apostrophe
        };
        if (entity == null) {
            b[p++] = (byte) c;
            return p;
        }
        for (int k = 0; k < entity.length(); k++) b[p++] = (byte) entity.charAt(k);
        return p;
    }
}
