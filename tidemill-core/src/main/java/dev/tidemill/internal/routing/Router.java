package dev.tidemill.internal.routing;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import dev.tidemill.internal.routing.RouteMatch.Found;
import dev.tidemill.internal.routing.RouteMatch.MethodNotAllowed;
import dev.tidemill.internal.routing.RouteMatch.NotFound;
import java.util.Objects;

/**
 * Finds the route for a method and a raw (still percent-encoded) path: one radix tree per method.
 *
 * <p><b>Patterns.</b> A pattern starts with {@code /}; each segment is literal text, {@code {name}}
 * (one whole, non-empty segment) or, last, {@code {*name}} (the rest of the path: zero or more
 * segments, slashes included). Literal text is compared with the percent-decoded request segment, so
 * a literal may be written decoded ({@code /café}) or encoded ({@code /caf%C3%A9}); both are the same
 * route. Trailing slashes matter: {@code /a} and {@code /a/} are different routes.
 * {@code /files/{*rest}} matches {@code /files} and {@code /files/} (rest {@code ""}) and
 * {@code /files/a/b} (rest {@code a/b}).
 *
 * <p><b>Priority</b>, whatever the registration order: at each segment a literal beats a
 * {@code {param}}, which beats a {@code {*catchAll}}; when the more specific branch fails further
 * down, the search backtracks to the next one (routes {@code /a/b/c} and {@code /a/{x}/d}: {@code
 * /a/b/d} matches the second). A route that ends where the path ends beats a catch-all matching
 * zero segments. Two routes of the same shape (patterns equal but for parameter names) are refused.
 *
 * <p><b>Encoded slashes.</b> The path is split on its raw {@code /} before any decoding, so {@code
 * %2F} never moves a segment boundary: {@code /files/a%2Fb} matches {@code /files/{name}} with the
 * raw value {@code a%2Fb}. Parameter values are handed out raw; decoding them is the caller's job.
 *
 * <p><b>Complexity.</b> Static text is stored compressed (a node holds a run of characters, across
 * slashes), so a path with no {@code %} is matched by comparing its characters in place, with no
 * allocation unless a route with parameters is found. Each node is entered at most once per lookup,
 * because the position where a node starts is fixed by the path from the root; so backtracking is
 * never exponential: a lookup costs O(path length) in the usual case and O(tree size) at worst. A
 * path holding {@code %} first costs one O(length) pass that decodes its segments.
 *
 * <p><b>Threads.</b> {@link #add} is not thread-safe; once the router is safely published, {@link
 * #match} and {@link #allowedMethods} may run concurrently.
 *
 * @param <T> the route value
 */
public final class Router<T> {
    // Sorted by method, so that the Allow list comes out sorted.
    private String[] methods = {};
    private Node<T>[] roots = newNodes(0);

    /** Creates an empty router. */
    public Router() {}

    /**
     * Adds a route.
     *
     * @param method the method, compared exactly (callers upper-case it)
     * @param pattern the pattern, see the class comment
     * @param value what {@link #match} hands back
     * @throws IllegalArgumentException if the pattern is invalid
     * @throws IllegalStateException if a route of the same method and shape exists
     */
    public void add(String method, String pattern, T value) {
        Objects.requireNonNull(method, "method");
        if (method.isEmpty()) throw new IllegalArgumentException("method must not be empty");
        RoutePattern parsed = RoutePattern.parse(pattern);
        Node<T> node = rootFor(method, true);
        Leaf<T> leaf = new Leaf<>(method, pattern, value, parsed.names());
        int params = 0;
        List<Object> tokens = parsed.tokens();
        for (int t = 0; t < tokens.size(); t++) {
            Object token = tokens.get(t);
            if (token instanceof String text) {
                node = insertStatic(node, text);
            } else if (token == RoutePattern.PARAM) {
                if (node.param == null) {
                    node.param = new Node<>("");
                    node.param.paramIndex = params;
                }
                node = node.param;
                params++;
            } else {
                if (node.catchAll != null) throw conflict(leaf, node.catchAll);
                node.catchAll = leaf;
                return;
            }
        }
        if (node.leaf != null) throw conflict(leaf, node.leaf);
        node.leaf = leaf;
    }

    /**
     * A router of the same routes, each value mapped: the tree is copied as it is, with no pattern
     * parsed or inserted again (at start a server swaps each route for its endpoint this way).
     *
     * @param mapper the value of each route in the copy, called once per route
     * @param <U> the copy's route value
     * @return the copy
     * @throws NullPointerException if {@code mapper} gives null
     */
    public <U> Router<U> map(java.util.function.Function<? super T, ? extends U> mapper) {
        Router<U> copy = new Router<>();
        copy.methods = methods.clone();
        copy.roots = newNodes(roots.length);
        for (int i = 0; i < roots.length; i++) copy.roots[i] = roots[i].map(mapper);
        return copy;
    }

    /**
     * Finds the route for a request. HEAD uses the GET route when no HEAD route has the path.
     *
     * @param method the request method
     * @param rawPath the path as sent, percent-encoded, without the query string
     * @return {@link Found}, {@link MethodNotAllowed} if other methods have the path, else {@link NotFound}
     */
    public RouteMatch<T> match(String method, String rawPath) {
        if (rawPath.isEmpty() || rawPath.charAt(0) != '/') return NotFound.instance();
        DecodedPath key = rawPath.indexOf('%') < 0 ? null : DecodedPath.of(rawPath);
        String s = key == null ? rawPath : key.text;
        Found<T> found = find(rootFor(method, false), s, key);
        boolean head = method.equals("HEAD");
        if (found == null && head) found = find(rootFor("GET", false), s, key);
        if (found != null) return found;
        List<String> allow = allowed(s, key, method, head);
        return allow.isEmpty() ? NotFound.instance() : new MethodNotAllowed<>(String.join(", ", allow));
    }

    /**
     * @param method a request method
     * @return whether any route uses it (HEAD counts wherever GET has a route): a method no route
     *     uses is one this server does not implement (501), not one a path disallows (405)
     */
    public boolean knowsMethod(String method) {
        if (java.util.Arrays.binarySearch(methods, method) >= 0) return true;
        return method.equals("HEAD") && java.util.Arrays.binarySearch(methods, "GET") >= 0;
    }

    /**
     * @param rawPath the path as sent, percent-encoded, without the query string
     * @return the sorted methods that have a route for this path, HEAD included wherever GET is
     */
    public List<String> allowedMethods(String rawPath) {
        if (rawPath.isEmpty() || rawPath.charAt(0) != '/') return List.of();
        DecodedPath key = rawPath.indexOf('%') < 0 ? null : DecodedPath.of(rawPath);
        return Collections.unmodifiableList(allowed(key == null ? rawPath : key.text, key, null, false));
    }

    private List<String> allowed(String s, DecodedPath key, String skip, boolean skipGet) {
        List<String> allow = List.of();
        boolean get = false;
        boolean head = false;
        for (int i = 0; i < methods.length; i++) {
            String m = methods[i];
            // The request's own trees were searched already and did not match.
            if (m.equals(skip) || (skipGet && m.equals("GET")) || find(roots[i], s, key) == null) continue;
            if (allow.isEmpty()) allow = new ArrayList<>(4);
            allow.add(m);
            get |= m.equals("GET");
            head |= m.equals("HEAD");
        }
        if (get && !head) {
            allow.add("HEAD");
            Collections.sort(allow);
        }
        return allow;
    }

    private static <T> Found<T> find(Node<T> root, String s, DecodedPath key) {
        return root == null ? null : walk(root, s, 0, key);
    }

    /**
     * Depth-first search below {@code n}, whose own text ends at {@code pos}: literal child first,
     * then the parameter child, then the catch-all. Parameter values are filled in on the way back
     * up, so a failed search allocates nothing.
     */
    private static <T> Found<T> walk(Node<T> n, String s, int pos, DecodedPath key) {
        int len = s.length();
        if (pos == len) {
            if (n.leaf != null) return n.leaf.found();
            // A catch-all matches zero segments: /files/{*rest} matches /files.
            return n.catchAll == null ? null : withValue(n.catchAll.found(), n.catchAll.names.length - 1, "");
        }
        char c = s.charAt(pos);
        char[] firsts = n.firsts;
        for (int i = 0; i < firsts.length; i++) {
            if (firsts[i] != c) continue;
            // Children start with distinct characters: at most one can match.
            Node<T> child = n.statics[i];
            if (s.startsWith(child.prefix, pos)) {
                Found<T> f = walk(child, s, pos + child.prefix.length(), key);
                if (f != null) return f;
            }
            break;
        }
        Node<T> p = n.param;
        if (p != null) {
            // A param child only hangs below text ending in '/', so pos starts a segment.
            int end = s.indexOf('/', pos);
            if (end < 0) end = len;
            if (end > pos) {
                Found<T> f = walk(p, s, end, key);
                if (f != null) return withValue(f, p.paramIndex, slice(s, pos, end, key));
            }
        }
        // A catch-all hangs where its '/' would start; the value drops that '/'.
        Leaf<T> all = n.catchAll;
        if (all != null && c == '/') return withValue(all.found(), all.names.length - 1, slice(s, pos + 1, len, key));
        return null;
    }

    private static <T> Found<T> withValue(Found<T> f, int index, String value) {
        f.rawValues()[index] = value;
        return f;
    }

    private static String slice(String s, int from, int to, DecodedPath key) {
        return key == null ? s.substring(from, to) : key.raw.substring(key.rawIndex[from], key.rawIndex[to]);
    }

    /** Inserts literal text below {@code node}, splitting a node whose text only partly matches. */
    private static <T> Node<T> insertStatic(Node<T> node, String text) {
        while (!text.isEmpty()) {
            int i = indexOf(node.firsts, text.charAt(0));
            if (i < 0) {
                Node<T> child = new Node<>(text);
                node.addStatic(child);
                return child;
            }
            Node<T> child = node.statics[i];
            String prefix = child.prefix;
            int k = 0;
            int max = Math.min(prefix.length(), text.length());
            while (k < max && prefix.charAt(k) == text.charAt(k)) k++;
            if (k < prefix.length()) child.split(k);
            node = child;
            text = text.substring(k);
        }
        return node;
    }

    private Node<T> rootFor(String method, boolean create) {
        int i = Arrays.binarySearch(methods, method);
        if (i >= 0) return roots[i];
        if (!create) return null;
        int at = -i - 1;
        String[] m = new String[methods.length + 1];
        Node<T>[] r = newNodes(methods.length + 1);
        System.arraycopy(methods, 0, m, 0, at);
        System.arraycopy(roots, 0, r, 0, at);
        m[at] = method;
        r[at] = new Node<>("");
        System.arraycopy(methods, at, m, at + 1, methods.length - at);
        System.arraycopy(roots, at, r, at + 1, roots.length - at);
        methods = m;
        roots = r;
        return r[at];
    }

    private static IllegalStateException conflict(Leaf<?> added, Leaf<?> existing) {
        return new IllegalStateException(added.method + " " + added.pattern + " conflicts with "
                + existing.method + " " + existing.pattern + ": same shape");
    }

    private static int indexOf(char[] chars, char c) {
        for (int i = 0; i < chars.length; i++) if (chars[i] == c) return i;
        return -1;
    }

    @SuppressWarnings("unchecked")
    private static <T> Node<T>[] newNodes(int n) {
        return (Node<T>[]) new Node<?>[n];
    }

    /** A route's end: where its pattern stops, or where its catch-all starts. */
    private static final class Leaf<T> {
        final String method;
        final String pattern;
        final T value;
        final String[] names;
        /** The answer for a route without parameters, built once: matching it allocates nothing. */
        private final Found<T> fixed;

        Leaf(String method, String pattern, T value, String[] names) {
            this.method = method;
            this.pattern = pattern;
            this.value = value;
            this.names = names;
            this.fixed = names.length == 0 ? new Found<>(value, pattern, names, names) : null;
        }

        <U> Leaf<U> map(java.util.function.Function<? super T, ? extends U> mapper) {
            return new Leaf<>(method, pattern, Objects.requireNonNull(mapper.apply(value), "mapped value"), names);
        }

        Found<T> found() {
            return fixed != null ? fixed : new Found<>(value, pattern, names, new String[names.length]);
        }
    }

    /**
     * A node: literal text to consume ({@code prefix}; empty for a root or a parameter node, which
     * consumes one segment instead), then at most one literal child per first character, one
     * parameter child, one catch-all, and the route ending here.
     */
    private static final class Node<T> {
        String prefix;
        char[] firsts = {};
        Node<T>[] statics = newNodes(0);
        Node<T> param;
        /** For a parameter node: its index in the names of every route below it. */
        int paramIndex;
        Leaf<T> leaf;
        Leaf<T> catchAll;

        Node(String prefix) {
            this.prefix = prefix;
        }

        void addStatic(Node<T> child) {
            int n = firsts.length;
            firsts = Arrays.copyOf(firsts, n + 1);
            statics = Arrays.copyOf(statics, n + 1);
            firsts[n] = child.prefix.charAt(0);
            statics[n] = child;
        }

        /** @return a copy of this node and everything below, each route's value mapped (a leaf hangs at one node only) */
        <U> Node<U> map(java.util.function.Function<? super T, ? extends U> mapper) {
            Node<U> c = new Node<>(prefix);
            c.firsts = firsts.clone();
            c.statics = newNodes(statics.length);
            for (int i = 0; i < statics.length; i++) c.statics[i] = statics[i].map(mapper);
            c.param = param == null ? null : param.map(mapper);
            c.paramIndex = paramIndex;
            c.leaf = leaf == null ? null : leaf.map(mapper);
            c.catchAll = catchAll == null ? null : catchAll.map(mapper);
            return c;
        }

        /** Keeps {@code prefix[0, k)} here and moves the rest, with everything below, to a new child. */
        void split(int k) {
            Node<T> tail = new Node<>(prefix.substring(k));
            tail.firsts = firsts;
            tail.statics = statics;
            tail.param = param;
            tail.leaf = leaf;
            tail.catchAll = catchAll;
            prefix = prefix.substring(0, k);
            firsts = new char[] {tail.prefix.charAt(0)};
            statics = newNodes(1);
            statics[0] = tail;
            param = null;
            leaf = null;
            catchAll = null;
        }
    }
}
