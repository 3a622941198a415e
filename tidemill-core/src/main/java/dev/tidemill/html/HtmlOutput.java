package dev.tidemill.html;

import io.netty.buffer.ByteBuf;
import java.util.Arrays;

/**
 * Where HTML is rendered: UTF-8 bytes appended to a byte array, escaped on the way in, then handed
 * to a Netty {@link ByteBuf} in large blocks, so a page never exists as one {@code String} and
 * the buffer is called once per block rather than once per string. The array is the thread's own
 * (at most {@link #KEPT_BYTES} kept between renders); a render that starts while another one is
 * under way on the same thread (a piece's {@code toString()} inside a template, say) gets a fresh
 * one.
 *
 * <p>Written by hand rather than through a {@code Writer}/{@code CharsetEncoder}: escaping and
 * UTF-8 encoding happen in one pass over each string, ASCII one byte per char with no lookup
 * table; a run of ASCII that needs no escaping is found by a small scanning loop and copied with
 * one call. Measured with quick JMH runs of {@code RenderBenchmark} (the 50-row page): writing each
 * string and segment into the {@code ByteBuf} directly cost the baked template 22.4 us per page
 * (bench/results/20261201T163908Z-html.json), this array and the run copies 17.4 us.
 */
final class HtmlOutput {
    /** How a string is escaped on its way in: the ASCII characters it rewrites, as a bit mask. */
    enum Escape {
        /** Markup, as is: tag names, pre-checked attribute names, trusted HTML. */
        NONE(0),
        /**
         * Text content: {@code & < > "}. The quote needs no escaping in text, but with it text
         * and a double-quoted attribute value share one rule, so a value written as both
         * ({@code data-name="x"} then {@code x}) is scanned once (see {@link #lastPlain}).
         */
        TEXT(1L << '&' | 1L << '<' | 1L << '>' | 1L << '"'),
        /** A double-quoted attribute value: {@code & < > "}. */
        DOUBLE_QUOTED(1L << '&' | 1L << '<' | 1L << '>' | 1L << '"'),
        /** A single-quoted attribute value (JSON in attributes): {@code & < > '}. */
        SINGLE_QUOTED(1L << '&' | 1L << '<' | 1L << '>' | 1L << '\''),
        /** A comment: {@code < >}, so neither {@code -->} nor {@code --!>} can end it early. */
        COMMENT(1L << '<' | 1L << '>');

        /** Bit {@code c} set: the character {@code c} (below 64) is written as an entity. */
        final long rewrites;

        Escape(long rewrites) {
            this.rewrites = rewrites;
        }
    }

    /** A thread's array is kept between renders up to this size (bytes); a larger page's is dropped. */
    static final int KEPT_BYTES = 1 << 20;
    /** Bytes handed to the sink at a time when one is set; below it the array grows instead. */
    private static final int BLOCK_BYTES = 64 * 1024;

    private static final ThreadLocal<HtmlOutput> THREAD = ThreadLocal.withInitial(() -> new HtmlOutput(new byte[16 * 1024], null));

    private byte[] buf;
    private int pos;
    private ByteBuf sink;
    private boolean inUse;
    /** Set while a template is baked: strings go to it, so it can find the parameters' placeholders. */
    final Bake.Trace trace;

    private HtmlOutput(byte[] buf, Bake.Trace trace) {
        this.buf = buf;
        this.trace = trace;
    }

    /** @return an output for one render on this thread; {@link #release()} it when done */
    static HtmlOutput acquire() {
        HtmlOutput o = THREAD.get();
        if (o.inUse) o = new HtmlOutput(new byte[1024], null);
        o.inUse = true;
        o.pos = 0;
        return o;
    }

    /** @return an output that reports strings to a trace (baking) */
    static HtmlOutput tracing(Bake.Trace trace) {
        return new HtmlOutput(new byte[256], trace);
    }

    /** Renders {@code html} into {@code out}, in blocks. */
    static void render(Html html, ByteBuf out) {
        HtmlOutput o = acquire();
        o.sink = out;
        try {
            html.render(o);
            o.flush();
        } finally {
            o.sink = null;
            o.release();
        }
    }

    /** @return {@code html}'s bytes */
    static byte[] bytes(Html html) {
        HtmlOutput o = acquire();
        try {
            html.render(o);
            return o.take();
        } finally {
            o.release();
        }
    }

    void release() {
        inUse = false;
        pos = 0;
        lastPlain = priorPlain = null;
        if (buf.length > KEPT_BYTES) buf = new byte[16 * 1024];
    }

    /** @return the bytes written so far, and starts again from none */
    byte[] take() {
        byte[] b = Arrays.copyOf(buf, pos);
        pos = 0;
        return b;
    }

    /** Hands what is written to the sink. */
    void flush() {
        if (pos > 0 && sink != null) {
            sink.writeBytes(buf, 0, pos);
            pos = 0;
        }
    }

    /** Makes room for {@code n} more bytes. */
    private void room(int n) {
        if (pos + n <= buf.length) return;
        if (sink != null && pos >= BLOCK_BYTES) {
            flush();
            if (n <= buf.length) return;
        }
        buf = Arrays.copyOf(buf, Math.max(buf.length * 2, pos + n));
    }

    /**
     * Makes sure the next {@code n} bytes written with {@link #segment} fit without a check each.
     * Strings and children written in between may use the room up, so {@link #segment} still
     * checks, but only its own length against the array: the common case is one comparison.
     */
    void reserve(int n) {
        room(n);
    }

    /** Appends a baked template's static segment. */
    void segment(byte[] b) {
        int n = b.length;
        if (pos + n > buf.length) room(n);
        System.arraycopy(b, 0, buf, pos, n);
        pos += n;
    }


    /** Appends ASCII markup known to need no escaping. */
    @SuppressWarnings("deprecation") // getBytes(int, int, byte[], int) copies the low byte of each char: right for ASCII, and no allocation
    HtmlOutput ascii(String s) {
        int n = s.length();
        room(n);
        s.getBytes(0, n, buf, pos);
        pos += n;
        return this;
    }

    HtmlOutput ascii(char c) {
        room(1);
        buf[pos++] = (byte) c;
        return this;
    }

    /** Appends {@code s} escaped as {@code how} says, encoded as UTF-8 (a lone surrogate becomes U+FFFD). */
    HtmlOutput write(String s, Escape how) {
        if (s == lastPlain && (how.rewrites & ~lastPlainFor) == 0 || s == priorPlain && (how.rewrites & ~priorPlainFor) == 0) return copy(s);
        if (trace != null && trace.intercept(this, s, how)) return this;
        return encode(s, how);
    }

    /**
     * The last string {@link #encode} found to be ASCII without a character its escaping
     * rewrites, and that escaping's mask; {@link #priorPlain} the one before. A value is often
     * written twice close together, as an attribute and as text ({@code data-name="x"} then
     * {@code x}, {@code href="mailto:x">x}): written again with an escaping that rewrites no more,
     * it is copied without a look at its chars. Compared by identity (strings are immutable), so
     * it costs two comparisons per string. The check sits in {@link #write}, which the JIT inlines
     * everywhere; inside {@link #encode} the same memo made the baked 50-row page slower (20.2
     * against 18.7 us). Here it took it from 18.7 to 17.4 us (JMH, 2 forks x 4 iterations of 2 s,
     * {@code RenderBenchmark}, side by side).
     */
    private String lastPlain;
    private long lastPlainFor;
    /** The one before {@link #lastPlain}. */
    private String priorPlain;
    private long priorPlainFor;

    @SuppressWarnings("deprecation") // see ascii(String)
    private HtmlOutput copy(String s) {
        int n = s.length();
        room(n);
        s.getBytes(0, n, buf, pos);
        pos += n;
        return this;
    }

    /** {@link #write}, without a trace looking. */
    @SuppressWarnings("deprecation") // getBytes(int, int, byte[], int): exact for a run of ASCII chars, and a plain array copy
    HtmlOutput encode(String s, Escape how) {
        int n = s.length();
        long rewrites = how.rewrites;
        int i = 0;
        while (i < n) {
            int run = plain(s, i, n, rewrites);
            if (run == n && i == 0) {
                priorPlain = lastPlain;
                priorPlainFor = lastPlainFor;
                lastPlain = s;
                lastPlainFor = rewrites;
            }
            if (run > i) { // ASCII that stays as it is: copied in one call, not char by char
                room(run - i);
                s.getBytes(i, run, buf, pos);
                pos += run - i;
                if (run == n) return this;
                i = run;
            }
            room(6); // the longest one char becomes: &quot; (six bytes), or a pair's four
            char c = s.charAt(i++);
            byte[] b = buf;
            int p = pos;
            if (c < 0x80) {
                p = entity(b, p, c);
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
            pos = p;
        }
        return this;
    }

    /**
     * @return the index of the first char from {@code i} that is not ASCII or that {@code rewrites}
     *     holds, or {@code n}: a small loop on its own, so the JIT inlines {@code charAt} into it
     */
    private static int plain(String s, int i, int n, long rewrites) {
        for (; i + 1 < n; i += 2) { // two chars a turn: one test of both, half the loop's overhead
            char c = s.charAt(i);
            char d = s.charAt(i + 1);
            if ((c & 0xFFC0) == 0x40 && (d & 0xFFC0) == 0x40) continue; // both in 64..127: letters and some punctuation
            if (c < 64 ? (rewrites >>> c & 1) != 0 : c >= 0x80) return i;
            if (d < 64 ? (rewrites >>> d & 1) != 0 : d >= 0x80) return i + 1;
        }
        if (i < n) {
            char c = s.charAt(i);
            if (c < 64 ? (rewrites >>> c & 1) != 0 : c >= 0x80) return i;
            i++;
        }
        return n;
    }

    /** Writes {@code " & ' < >} as its entity; @return the new position */
    private static int entity(byte[] b, int p, char c) {
        switch (c) {
            case '&' -> {
                b[p] = '&'; b[p + 1] = 'a'; b[p + 2] = 'm'; b[p + 3] = 'p'; b[p + 4] = ';';
                return p + 5;
            }
            case '<' -> {
                b[p] = '&'; b[p + 1] = 'l'; b[p + 2] = 't'; b[p + 3] = ';';
                return p + 4;
            }
            case '>' -> {
                b[p] = '&'; b[p + 1] = 'g'; b[p + 2] = 't'; b[p + 3] = ';';
                return p + 4;
            }
            case '"' -> {
                b[p] = '&'; b[p + 1] = 'q'; b[p + 2] = 'u'; b[p + 3] = 'o'; b[p + 4] = 't'; b[p + 5] = ';';
                return p + 6;
            }
            default -> { // the apostrophe
                b[p] = '&'; b[p + 1] = '#'; b[p + 2] = '3'; b[p + 3] = '9'; b[p + 4] = ';';
                return p + 5;
            }
        }
    }
}
