package dev.tidemill.html;

import java.util.ArrayList;
import java.util.List;

/**
 * An element: a tag, its attributes in the order given, and its children. Made by {@link Tags}.
 * A void element ({@code br}, {@code img}, {@code input}...) refuses children; {@code script}
 * and {@code style} take only text, written as it is (code keeps its {@code & < >}) except that
 * {@code </script} / {@code </style} and {@code <!--} are broken up so no value can end the
 * element or open a comment.
 */
public final class Element extends Html {
    static final int NORMAL = 0;
    static final int VOID = 1;
    static final int RAW_TEXT = 2;

    private final String tag;
    /**
     * Attributes and children in the order given: {@link Attr}s, {@link Html} pieces, and text as
     * {@code String}, {@code Integer} or {@code Long} (escaped when rendered); nulls and absent
     * attributes render nothing. One array rather than an attribute array, a child array and a
     * {@code Text} per string: the builder's 50-row page went from 35.9 to 32.0 us per render
     * with it (quick JMH runs of {@code RenderBenchmark}, one after the other; the full run's figures are in docs/performance.md).
     */
    private final Object[] items;
    private final boolean hasAttrs;
    private final int kind;

    private Element(String tag, Object[] items, boolean hasAttrs, int kind) {
        this.tag = tag;
        this.items = items;
        this.hasAttrs = hasAttrs;
        this.kind = kind;
    }

    /** An element's tag as a refusal names it (wrapped, so the message is built only on a refusal). */
    record Tag(String name) {}

    static Element of(String tag, int kind, Object[] content) {
        if (kind == NORMAL) { // the common case, flat content with at most one class: kept as given (a copy)
            boolean flat = true;
            boolean attrs = false;
            int classes = 0;
            for (Object o : content) {
                if (o instanceof Attr a) {
                    attrs = true;
                    if (a.value != null && a.name.equals("class")) classes++;
                } else if (!(o == null || o instanceof Html || o instanceof String || o instanceof Integer || o instanceof Long)) {
                    flat = false;
                    break;
                }
            }
            if (flat && classes < 2) return new Element(tag, content.clone(), attrs, kind);
        }
        Content.Parts p = Content.parts(content, new Tag(tag));
        if (kind == VOID && p.children().length > 0) {
            throw new IllegalArgumentException("<" + tag + "> is a void element: it has no children");
        }
        if (kind == RAW_TEXT) {
            for (Html c : p.children()) {
                if (!(c instanceof Text)) throw new IllegalArgumentException("<" + tag + "> takes only text, not " + c);
            }
        }
        Attr[] attrs = merged(p.attrs());
        Object[] items = new Object[attrs.length + p.children().length];
        System.arraycopy(attrs, 0, items, 0, attrs.length);
        System.arraycopy(p.children(), 0, items, attrs.length, p.children().length);
        return new Element(tag, items, attrs.length > 0, kind);
    }

    /** One {@code class} attribute for all that were given (their names joined); otherwise as given, without the absent ones. */
    private static Attr[] merged(Attr[] given) {
        if (given.length == 0) return given;
        int classes = 0;
        int none = 0;
        for (Attr a : given) {
            if (a == Attr.NONE) none++;
            else if (a.name.equals("class") && a.value != null) classes++;
        }
        if (classes < 2) {
            if (none == 0) return given;
            Attr[] out = new Attr[given.length - none];
            int i = 0;
            for (Attr a : given) if (a != Attr.NONE) out[i++] = a;
            return out;
        }
        List<Attr> out = new ArrayList<>(given.length);
        StringBuilder names = new StringBuilder();
        int at = -1;
        for (Attr a : given) {
            if (a == Attr.NONE) continue;
            if (a.name.equals("class") && a.value != null) {
                if (!a.value.isEmpty()) names.append(names.isEmpty() ? "" : " ").append(a.value);
                if (at < 0) {
                    at = out.size();
                    out.add(a);
                }
                continue;
            }
            out.add(a);
        }
        out.set(at, Attr.of("class", names.toString()));
        return out.toArray(new Attr[0]);
    }

    @Override
    void render(HtmlOutput out) {
        out.ascii('<').ascii(tag);
        if (hasAttrs) for (Object o : items) if (o instanceof Attr a) a.render(out);
        out.ascii('>');
        if (kind == VOID) return;
        if (kind == RAW_TEXT) {
            for (Object o : items) if (o instanceof Text t) out.write(rawText(t.text), HtmlOutput.Escape.NONE);
        } else {
            for (Object o : items) {
                if (o instanceof Html h) h.render(out);
                else if (o instanceof String s) out.write(s, HtmlOutput.Escape.TEXT);
                else if (o instanceof Integer || o instanceof Long) out.write(o.toString(), HtmlOutput.Escape.TEXT);
            }
        }
        out.ascii("</").ascii(tag).ascii('>');
    }

    /**
     * @return {@code s} with every {@code </script} or {@code </style} (any case) written
     *     {@code <\/...} and every {@code <!--} written {@code <\!--}: in JavaScript and CSS the
     *     backslash is an escape that changes nothing inside a string, and the HTML parser no
     *     longer sees an end tag or a comment opening
     */
    String rawText(String s) {
        if (s.indexOf('<') < 0) return s;
        StringBuilder b = new StringBuilder(s.length() + 8);
        String end = "/" + tag;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            b.append(c);
            if (c != '<') continue;
            if (s.regionMatches(true, i + 1, end, 0, end.length()) || s.startsWith("!--", i + 1)) b.append('\\');
        }
        return b.toString();
    }

    /** @return the tag name */
    public String tag() {
        return tag;
    }
}
