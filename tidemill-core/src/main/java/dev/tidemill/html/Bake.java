package dev.tidemill.html;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * Baked templates: a template is a lambda over typed parameters that builds {@link Html} with
 * {@link Tags}. Baking runs it once with placeholders, renders that, and keeps the result as
 * pre-encoded byte segments with slots between them; rendering then writes the segments as they
 * are and escapes only the slot values. Parameters are {@code String} (text, or an attribute
 * value: escaped for where it lands), {@link Html} (a child: loops and conditionals are computed
 * outside and passed in, or another baked template is nested) or {@link Attr} (a whole attribute).
 *
 * <p>What a placeholder cannot survive is refused at bake time, naming the template and the
 * parameter: a string operation on a parameter (its placeholder no longer reaches the output
 * intact), a parameter that never reaches the output, output that depends on a parameter's value
 * (a conditional or loop on it: the template is traced twice with different placeholders and both
 * traces must agree), and a parameter used where nothing can be escaped (an attribute name,
 * {@code <script>}/{@code <style>} content, {@link Html#trusted}).
 */
public final class Bake {
    private Bake() {}

    /** A baked template of one parameter. @param <A> its type */
    @FunctionalInterface
    public interface Template1<A> {
        /** @param a the parameter @return the page or fragment, rendered when written */
        Html render(A a);
    }

    /** A baked template of two parameters. @param <A> the first's type @param <B> the second's */
    @FunctionalInterface
    public interface Template2<A, B> {
        /** @param a the first parameter @param b the second @return the page or fragment */
        Html render(A a, B b);
    }

    /** A baked template of three parameters. @param <A> first @param <B> second @param <C> third */
    @FunctionalInterface
    public interface Template3<A, B, C> {
        /** @param a first @param b second @param c third @return the page or fragment */
        Html render(A a, B b, C c);
    }

    /** A baked template of any number of parameters, checked against their declared types at each render. */
    @FunctionalInterface
    public interface TemplateN {
        /** @param args the parameters, in order @return the page or fragment */
        Html render(Object... args);
    }

    /** A template body of three parameters. @param <A> first @param <B> second @param <C> third */
    @FunctionalInterface
    public interface Body3<A, B, C> {
        /** @param a first @param b second @param c third @return what the template builds */
        Html build(A a, B b, C c);
    }

    /**
     * @param name the template's name, for refusals
     * @param a the parameter's type: String, Html or Attr
     * @param body builds the HTML from the parameter
     * @param <A> the parameter's type
     * @return the baked template
     * @throws IllegalArgumentException if the template cannot be baked, saying why
     */
    public static <A> Template1<A> bake(String name, Class<A> a, Function<A, ? extends Html> body) {
        Compiled c = compile(name, new Class<?>[] {a}, p -> body.apply(a.cast(p[0])));
        return x -> c.apply(x);
    }

    /** Two parameters; see {@link #bake(String, Class, Function)}. */
    public static <A, B> Template2<A, B> bake(String name, Class<A> a, Class<B> b, BiFunction<A, B, ? extends Html> body) {
        Compiled c = compile(name, new Class<?>[] {a, b}, p -> body.apply(a.cast(p[0]), b.cast(p[1])));
        return (x, y) -> c.apply(x, y);
    }

    /** Three parameters; see {@link #bake(String, Class, Function)}. */
    public static <A, B, C> Template3<A, B, C> bake(String name, Class<A> a, Class<B> b, Class<C> c, Body3<A, B, C> body) {
        Compiled t = compile(name, new Class<?>[] {a, b, c}, p -> body.build(a.cast(p[0]), b.cast(p[1]), c.cast(p[2])));
        return (x, y, z) -> t.apply(x, y, z);
    }

    /**
     * Any number of parameters (a table row with many cells, say); see {@link #bake(String, Class, Function)}.
     *
     * @param name the template's name
     * @param types the parameters' types, each String, Html or Attr
     * @param body builds the HTML from the parameters, in order
     * @return the baked template; a render with the wrong number or types of arguments is refused
     */
    public static TemplateN bake(String name, java.util.List<Class<?>> types, Function<Object[], ? extends Html> body) {
        Class<?>[] t = types.toArray(new Class<?>[0]);
        Compiled c = compile(name, t, body::apply);
        return args -> {
            if (args.length != t.length) {
                throw new IllegalArgumentException("template " + name + " takes " + t.length + " parameters, not " + args.length);
            }
            return c.apply(args);
        };
    }

    private static final char START = '\uE000';
    private static final char END = '\uE001';
    private static final int STRING = 0;
    private static final int CHILD = 1;
    private static final int ATTRIBUTE = 2;

    private static Compiled compile(String name, Class<?>[] types, Function<Object[], Html> body) {
        Objects.requireNonNull(name, "name");
        for (int i = 0; i < types.length; i++) {
            if (types[i] != String.class && types[i] != Html.class && types[i] != Attr.class) {
                throw new IllegalArgumentException("template " + name + ", parameter " + (i + 1) + ": " + types[i].getName()
                        + " cannot be baked; a parameter is a String, an Html or an Attr (format numbers and dates outside)");
            }
        }
        Trace first = trace(name, types, body, 0);
        Trace second = trace(name, types, body, 64); // long placeholders: a branch on a length shows
        if (!first.sameShape(second)) {
            throw new IllegalArgumentException("template " + name + ": its output depends on a parameter's value (a conditional or"
                    + " a loop on one?); compute those outside and pass the result in as an Html parameter");
        }
        for (int i = 0; i < types.length; i++) {
            if (!first.uses(i)) {
                throw new IllegalArgumentException("template " + name + ", parameter " + (i + 1) + ": it never reaches the output "
                        + "intact (unused, or changed by a string operation such as trim, toUpperCase or substring)");
            }
        }
        return first.compiled(name, types);
    }

    private static Trace trace(String name, Class<?>[] types, Function<Object[], Html> body, int padding) {
        Object[] placeholders = new Object[types.length];
        String[] markers = new String[types.length];
        for (int i = 0; i < types.length; i++) {
            // Letters of both cases and a space at each end: case changes, trims and cuts all break it.
            markers[i] = " " + START + "p" + i + "P" + "\uE002".repeat(padding) + END + " ";
            placeholders[i] = types[i] == String.class ? markers[i] : types[i] == Html.class ? new Slot(i) : Attr.placeholder(i);
        }
        Trace t = new Trace(name, markers);
        Html built;
        try {
            built = body.apply(placeholders);
        } catch (RuntimeException e) {
            String msg = String.valueOf(e.getMessage());
            int at = msg.indexOf(START);
            String which = at >= 0 && at + 2 < msg.length() && Character.isDigit(msg.charAt(at + 2))
                    ? ", parameter " + (msg.charAt(at + 2) - '0' + 1) : "";
            throw new IllegalArgumentException("template " + name + which + " failed while it was traced with placeholders"
                    + " (is a parameter parsed, compared, or used as an attribute name?): " + e, e);
        }
        HtmlOutput out = HtmlOutput.tracing(t);
        built.render(out);
        t.cut(out);
        return t;
    }

    /** A child parameter's placeholder. */
    private static final class Slot extends Html {
        private final int index;

        Slot(int index) {
            this.index = index;
        }

        @Override
        void render(HtmlOutput out) {
            Trace.of(out).child(out, index);
        }
    }

    /** What one traced rendering produced: segments and the slots between them. */
    static final class Trace {
        private final String template;
        private final String[] markers;
        private final List<byte[]> segments = new ArrayList<>();
        private final List<int[]> slots = new ArrayList<>(); // {kind, parameter, escape ordinal}

        Trace(String template, String[] markers) {
            this.template = template;
            this.markers = markers;
        }

        static Trace of(HtmlOutput out) {
            if (out.trace == null) throw new IllegalStateException("a template placeholder was rendered outside its template");
            return out.trace;
        }

        /** @return whether {@code s} held a placeholder (then it was written here, cut around the slots) */
        boolean intercept(HtmlOutput out, String str, HtmlOutput.Escape how) {
            if (str.indexOf(START) < 0 && str.indexOf(END) < 0) return false;
            int from = 0;
            while (true) {
                int at = str.indexOf(START, from);
                if (at < 0) {
                    if (str.indexOf(END, from) >= 0) throw refused(-1, "a placeholder was cut apart (a string operation on a parameter)");
                    out.encode(str.substring(from), how);
                    return true;
                }
                int end = str.indexOf(END, at);
                boolean whole = at > from && str.charAt(at - 1) == ' ' && end > 0 && end + 1 < str.length() && str.charAt(end + 1) == ' ';
                int param = whole ? parameter(str.substring(at - 1, end + 2)) : -1;
                if (param < 0) throw refused(-1, "a placeholder was changed (a string operation on a parameter)");
                out.encode(str.substring(from, at - 1), how);
                if (how == HtmlOutput.Escape.NONE) {
                    throw refused(param, "used as an attribute name, in <script>/<style> or in Html.trusted, where it cannot be escaped");
                }
                slot(out, STRING, param, how.ordinal());
                from = end + 2;
            }
        }

        void child(HtmlOutput out, int param) {
            slot(out, CHILD, param, 0);
        }

        void attribute(HtmlOutput out, int param) {
            slot(out, ATTRIBUTE, param, 0);
        }

        private void slot(HtmlOutput out, int kind, int param, int escape) {
            cut(out);
            slots.add(new int[] {kind, param, escape});
        }

        void cut(HtmlOutput out) {
            segments.add(out.take());
        }

        private int parameter(String marker) {
            for (int i = 0; i < markers.length; i++) if (markers[i].equals(marker)) return i;
            return -1;
        }

        boolean uses(int param) {
            for (int[] s : slots) if (s[1] == param) return true;
            return false;
        }

        boolean sameShape(Trace other) {
            if (segments.size() != other.segments.size() || slots.size() != other.slots.size()) return false;
            for (int i = 0; i < segments.size(); i++) if (!Arrays.equals(segments.get(i), other.segments.get(i))) return false;
            for (int i = 0; i < slots.size(); i++) if (!Arrays.equals(slots.get(i), other.slots.get(i))) return false;
            return true;
        }

        private IllegalArgumentException refused(int param, String why) {
            return new IllegalArgumentException("template " + template + (param >= 0 ? ", parameter " + (param + 1) : "") + ": " + why);
        }

        Compiled compiled(String name, Class<?>[] types) {
            int[][] s = slots.toArray(new int[0][]);
            return new Compiled(name, types, segments.toArray(new byte[0][]), s);
        }
    }

    /** A baked template: segments, and the slots between them. */
    private record Compiled(String name, Class<?>[] types, byte[][] segments, int[][] slots, int[] flat, int staticBytes) {
        Compiled(String name, Class<?>[] types, byte[][] segments, int[][] slots) {
            this(name, types, segments, slots, flatten(slots), Arrays.stream(segments).mapToInt(b -> b.length).sum());
        }

        /** @return the slots as one array, kind, parameter and escape for each: one load less per slot at render */
        private static int[] flatten(int[][] slots) {
            int[] f = new int[slots.length * 3];
            for (int i = 0; i < slots.length; i++) System.arraycopy(slots[i], 0, f, i * 3, 3);
            return f;
        }

        Html apply(Object... args) {
            for (int i = 0; i < args.length; i++) {
                if (args[i] != null && !types[i].isInstance(args[i])) {
                    throw new IllegalArgumentException("template " + name + ", parameter " + (i + 1) + ": not a " + types[i].getName());
                }
            }
            return new Rendered(this, args);
        }
    }

    /** One rendering of a baked template. */
    private static final class Rendered extends Html {
        private static final HtmlOutput.Escape[] ESCAPES = HtmlOutput.Escape.values();
        private final Compiled t;
        private final Object[] args;

        Rendered(Compiled t, Object[] args) {
            this.t = t;
            this.args = args;
        }

        @Override
        void render(HtmlOutput out) {
            byte[][] segments = t.segments;
            int[] slots = t.flat;
            out.reserve(t.staticBytes); // the segments' room, once: each segment is then a plain copy
            for (int i = 0, k = 0; k < slots.length; i++, k += 3) {
                out.segment(segments[i]);
                Object arg = args[slots[k + 1]];
                if (arg == null) continue; // an absent value renders nothing (an empty string, no child, no attribute)
                switch (slots[k]) {
                    case STRING -> out.write((String) arg, ESCAPES[slots[k + 2]]);
                    case CHILD -> {
                        if (arg instanceof Text text) out.write(text.text, HtmlOutput.Escape.TEXT); // the common child, without a virtual call
                        else ((Html) arg).render(out);
                    }
                    default -> ((Attr) arg).render(out);
                }
            }
            out.segment(segments[segments.length - 1]);
        }
    }
}
