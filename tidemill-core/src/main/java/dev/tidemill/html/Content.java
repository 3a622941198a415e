package dev.tidemill.html;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/** What the builder's varargs may hold, sorted into attributes and children. */
final class Content {
    private Content() {}

    /** Attributes and children of one element, in the order given. */
    record Parts(Attr[] attrs, Html[] children) {}

    private static final Html[] NO_CHILDREN = new Html[0];

    /**
     * @param owner names the element in a refusal; a {@code String} or, for an element, its tag
     *     (the message is only built when something is refused)
     */
    static Parts parts(Object[] content, Object owner) {
        // The common case, flat content of pieces, text and whole numbers: one pass, no lists.
        int attrs = 0;
        boolean flat = true;
        for (Object o : content) {
            if (o instanceof Attr) attrs++;
            else if (!(o == null || o instanceof Html || o instanceof String || o instanceof Integer || o instanceof Long)) flat = false;
        }
        if (flat) {
            Attr[] a = attrs == 0 ? NO_ATTRS : new Attr[attrs];
            Html[] c = content.length - attrs == 0 ? NO_CHILDREN : new Html[content.length - attrs];
            int ai = 0;
            int ci = 0;
            for (Object o : content) {
                if (o == null) continue;
                if (o instanceof Attr x) a[ai++] = x;
                else if (o instanceof Html h) c[ci++] = h;
                else c[ci++] = new Html.Text(o.toString()); // a String, Integer or Long
            }
            if (ci < c.length) c = java.util.Arrays.copyOf(c, ci);
            return new Parts(a, c);
        }
        List<Attr> attrList = new ArrayList<>(2);
        List<Html> children = new ArrayList<>(content.length);
        for (Object o : content) add(o, attrList, children, owner);
        return new Parts(attrList.toArray(NO_ATTRS), children.toArray(NO_CHILDREN));
    }

    private static final Attr[] NO_ATTRS = new Attr[0];

    static Html[] children(Object[] content, String owner) {
        Parts p = parts(content, owner);
        if (p.attrs().length > 0) throw new IllegalArgumentException(owner + " has no attributes: " + p.attrs()[0]);
        return p.children();
    }

    /** @return what a refusal calls the owner: an element by its tag */
    static String name(Object owner) {
        return owner instanceof Element.Tag t ? "<" + t.name() + ">" : String.valueOf(owner);
    }

    private static void add(Object o, List<Attr> attrs, List<Html> children, Object owner) {
        switch (o) {
            case null -> { }
            case Html h -> children.add(h);
            case Attr a -> attrs.add(a);
            case CharSequence s -> children.add(new Html.Text(s.toString()));
            case Number n -> children.add(new Html.Text(n.toString()));
            case Character c -> children.add(new Html.Text(c.toString()));
            case Boolean b -> children.add(new Html.Text(b.toString()));
            case Optional<?> opt -> add(opt.orElse(null), attrs, children, owner);
            case Iterable<?> it -> {
                for (Object x : it) add(x, attrs, children, owner);
            }
            case Stream<?> st -> st.forEachOrdered(x -> add(x, attrs, children, owner));
            case Object[] arr -> {
                for (Object x : arr) add(x, attrs, children, owner);
            }
            default -> throw new IllegalArgumentException(name(owner) + ": " + o.getClass().getName()
                    + " is not HTML content (an Html piece, an Attr, text, a number, or an iterable of them)");
        }
    }
}
