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

    /** {@link #write}, without a trace looking. */
    HtmlOutput encode(CharSequence s, Escape how) {
        int n = s.length();
        out.ensureWritable(n);
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                switch (c) {
                    case '&' -> {
                        if (how == Escape.NONE || how == Escape.COMMENT) out.writeByte(c);
                        else ascii("&amp;");
                    }
                    case '<' -> {
                        if (how == Escape.NONE) out.writeByte(c);
                        else ascii("&lt;");
                    }
                    case '>' -> {
                        if (how == Escape.NONE) out.writeByte(c);
                        else ascii("&gt;");
                    }
                    case '"' -> {
                        if (how == Escape.DOUBLE_QUOTED) ascii("&quot;");
                        else out.writeByte(c);
                    }
                    case '\'' -> {
                        if (how == Escape.SINGLE_QUOTED) ascii("&#39;");
                        else out.writeByte(c);
                    }
                    default -> out.writeByte(c);
                }
            } else if (c < 0x800) {
                out.writeByte(0xC0 | c >> 6).writeByte(0x80 | c & 0x3F);
            } else if (Character.isSurrogate(c)) {
                int cp = Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))
                        ? Character.toCodePoint(c, s.charAt(++i)) : 0xFFFD;
                if (cp == 0xFFFD) {
                    out.writeByte(0xEF).writeByte(0xBF).writeByte(0xBD);
                } else {
                    out.writeByte(0xF0 | cp >> 18).writeByte(0x80 | cp >> 12 & 0x3F)
                            .writeByte(0x80 | cp >> 6 & 0x3F).writeByte(0x80 | cp & 0x3F);
                }
            } else {
                out.writeByte(0xE0 | c >> 12).writeByte(0x80 | c >> 6 & 0x3F).writeByte(0x80 | c & 0x3F);
            }
        }
        return this;
    }
}
