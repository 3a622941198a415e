package dev.tidemill.html;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/** What the builder's varargs may hold, sorted into attributes and children. */
final class Content {
    private Content() {}

    /** Attributes and children of one element, in the order given. */
    record Parts(List<Attr> attrs, Html[] children) {}

    static Parts parts(Object[] content, String owner) {
        List<Attr> attrs = new ArrayList<>(2);
        List<Html> children = new ArrayList<>(content.length);
        for (Object o : content) add(o, attrs, children, owner);
        return new Parts(attrs, children.toArray(new Html[0]));
    }

    static Html[] children(Object[] content, String owner) {
        Parts p = parts(content, owner);
        if (!p.attrs().isEmpty()) throw new IllegalArgumentException(owner + " has no attributes: " + p.attrs().get(0));
        return p.children();
    }

    private static void add(Object o, List<Attr> attrs, List<Html> children, String owner) {
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
            default -> throw new IllegalArgumentException(owner + ": " + o.getClass().getName()
                    + " is not HTML content (an Html piece, an Attr, text, a number, or an iterable of them)");
        }
    }
}
