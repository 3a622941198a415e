package dev.tidemill.html;

import java.util.Objects;

/**
 * One attribute of an element. Its name is validated when it is made (never escaped: a name that
 * needs escaping is refused); its value is escaped for its quotes when it is rendered. A
 * {@code true} value renders the bare name ({@code disabled}); {@code false} or {@code null}
 * renders nothing. Make them with {@link Tags#attr}, {@link Tags#cls}, {@link Tags#data} and
 * the other helpers there.
 */
public final class Attr {
    /** The attribute that renders nothing (a {@code false} or {@code null} value). */
    static final Attr NONE = new Attr("", null, false);

    final String name;
    /** The value, or null for a bare attribute. */
    final String value;
    /** Single-quoted: for JSON, whose double quotes would otherwise all become {@code &quot;}. */
    final boolean singleQuoted;
    /** A baked template's whole-attribute parameter, by index; -1 for a real attribute. */
    private final int placeholder;

    private Attr(String name, String value, boolean singleQuoted) {
        this(name, value, singleQuoted, -1);
    }

    private Attr(String name, String value, boolean singleQuoted, int placeholder) {
        this.name = name;
        this.value = value;
        this.singleQuoted = singleQuoted;
        this.placeholder = placeholder;
    }

    /** @return the placeholder a template is traced with for its attribute parameter {@code index} */
    static Attr placeholder(int index) {
        return new Attr("\uE000attr", null, false, index);
    }

    /**
     * @param name the name (see {@link #checkName})
     * @param value a string or number (rendered double-quoted and escaped), {@code true} (the
     *     bare name), {@code false} or {@code null} (nothing)
     * @return the attribute
     * @throws IllegalArgumentException for an invalid name, or a value of another type
     */
    static Attr of(String name, Object value) {
        checkName(name);
        if (value == null || value == Boolean.FALSE) return NONE;
        if (value == Boolean.TRUE) return new Attr(name, null, false);
        if (value instanceof CharSequence || value instanceof Number || value instanceof Character) {
            return new Attr(name, value.toString(), false);
        }
        throw new IllegalArgumentException("attribute " + name + ": a value is a string, a number or a boolean, not "
                + value.getClass().getName());
    }

    /** A single-quoted attribute: its value's {@code '} (and {@code & < >}) are escaped, its {@code "} left as they are. */
    static Attr singleQuoted(String name, String value) {
        checkName(name);
        return value == null ? NONE : new Attr(name, value, true);
    }

    /**
     * Checks an attribute name: not empty, and no whitespace, control character, {@code " ' < > / = &}
     * or backtick (the HTML standard's attribute-name rules, plus {@code &} and the backtick that
     * old parsers treated as quotes). Names are never escaped, so a name is valid or refused.
     *
     * @param name the name
     * @throws IllegalArgumentException naming what is wrong
     */
    static void checkName(String name) {
        Objects.requireNonNull(name, "name");
        if (name.isEmpty()) throw new IllegalArgumentException("an attribute name is not empty");
        if (plainAscii(name)) return;
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c <= 0x20 || c == 0x7F || c >= 0x80 && c <= 0x9F || "\"'<>/=&`".indexOf(c) >= 0 || Character.isWhitespace(c)
                    || Character.getType(c) == Character.SURROGATE && !validSurrogate(name, i)) {
                throw new IllegalArgumentException("attribute name " + printable(name) + ": no whitespace, control, "
                        + "\", ', <, >, /, =, & or backtick");
            }
        }
    }

    /** ASCII letters, digits and {@code - _ : .} (bit set: allowed), the names nearly every page uses. */
    private static final long LOW_OK = 1L << '-' | 1L << '.' | 1L << ':' | 0x03FF_0000_0000_0000L; // - . : and 0-9
    private static final long HIGH_OK = 0x07FF_FFFE_87FF_FFFEL; // A-Z, _, a-z (bits of chars 64-127)

    /** @return whether every char is one of the common ones: then the full check has nothing to find */
    private static boolean plainAscii(String name) {
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            long bits = c < 64 ? LOW_OK : c < 128 ? HIGH_OK : 0;
            if ((bits >>> (c & 63) & 1) == 0) return false;
        }
        return true;
    }

    private static boolean validSurrogate(String s, int i) {
        char c = s.charAt(i);
        if (Character.isHighSurrogate(c)) return i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1));
        return i > 0 && Character.isHighSurrogate(s.charAt(i - 1));
    }

    private static String printable(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            if (c < 0x20 || c == 0x7F) b.append(String.format("\\u%04x", (int) c));
            else b.append(c);
        }
        return b.append('"').toString();
    }

    void render(HtmlOutput out) {
        if (this == NONE) return;
        if (placeholder >= 0) {
            Bake.Trace.of(out).attribute(out, placeholder);
            return;
        }
        out.ascii(' ').write(name, HtmlOutput.Escape.NONE);
        if (value == null) return;
        if (singleQuoted) out.ascii("='").write(value, HtmlOutput.Escape.SINGLE_QUOTED).ascii('\'');
        else out.ascii("=\"").write(value, HtmlOutput.Escape.DOUBLE_QUOTED).ascii('"');
    }

    @Override
    public String toString() {
        return this == NONE ? "(no attribute)" : name + (value == null ? "" : "=" + value);
    }
}
