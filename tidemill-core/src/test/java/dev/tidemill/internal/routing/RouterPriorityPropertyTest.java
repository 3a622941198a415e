package dev.tidemill.internal.routing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.internal.routing.RouteMatch.Found;
import dev.tidemill.internal.routing.RouteMatch.MethodNotAllowed;
import dev.tidemill.internal.routing.RouteMatch.NotFound;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Compares {@link Router} with a brute-force reference: try every route, keep those that match
 * segment by segment, and pick the most specific by comparing their segment kinds in order
 * (literal &lt; param &lt; catch-all; a route that ends beats one that goes on with a catch-all).
 * Each route set is registered in several orders, which must not change any answer.
 */
class RouterPriorityPropertyTest {
    private static final int LITERAL = 0;
    private static final int PARAM = 1;
    private static final int CATCH_ALL = 2;

    /** A generated route: its method and its pattern's segments ({@code {}} param, {@code {*}} catch-all). */
    record Spec(String method, List<String> segments) {
        String pattern() {
            StringBuilder b = new StringBuilder();
            for (int i = 0; i < segments.size(); i++) {
                String s = segments.get(i);
                b.append('/').append(s.equals("{}") ? "{p" + i + "}" : s.equals("{*}") ? "{*rest}" : s);
            }
            return b.toString();
        }

        int kind(int i) {
            String s = segments.get(i);
            return s.equals("{}") ? PARAM : s.equals("{*}") ? CATCH_ALL : LITERAL;
        }

        /** The same for every route that {@link Router} must refuse as a duplicate of this one. */
        String shape() {
            StringBuilder b = new StringBuilder(method);
            for (int i = 0; i < segments.size(); i++) {
                b.append('/').append(kind(i) == LITERAL ? decode(segments.get(i)) : segments.get(i));
            }
            return b.toString();
        }
    }

    /** A generated request. */
    record Req(String method, String path) {}

    @Provide
    Arbitrary<List<Spec>> routeSets() {
        Arbitrary<List<String>> segments = Arbitraries.of("a", "b", "", "%61", "{}", "{*}")
                .list().ofMinSize(1).ofMaxSize(4)
                .filter(l -> !l.subList(0, l.size() - 1).contains("{*}"));
        Arbitrary<Spec> spec = Combinators.combine(Arbitraries.of("GET", "POST"), segments).as(Spec::new);
        return spec.list().ofMinSize(1).ofMaxSize(12);
    }

    @Provide
    Arbitrary<List<Req>> requests() {
        Arbitrary<String> path = Arbitraries.of("a", "b", "", "c", "%61", "a%2Fb", "%zz")
                .list().ofMinSize(1).ofMaxSize(5)
                .map(l -> "/" + String.join("/", l));
        return Combinators.combine(Arbitraries.of("GET", "POST", "HEAD", "PUT"), path).as(Req::new)
                .list().ofMinSize(1).ofMaxSize(20);
    }

    @Property(tries = 200)
    void agreesWithTheReferenceInEveryRegistrationOrder(
            @ForAll("routeSets") List<Spec> generated, @ForAll("requests") List<Req> requests, @ForAll long seed) {
        List<Spec> routes = new ArrayList<>();
        Set<String> shapes = new HashSet<>();
        for (Spec s : generated) if (shapes.add(s.shape())) routes.add(s);

        List<List<Spec>> orders = new ArrayList<>();
        orders.add(routes);
        List<Spec> reversed = new ArrayList<>(routes);
        Collections.reverse(reversed);
        orders.add(reversed);
        List<Spec> shuffled = new ArrayList<>(routes);
        Collections.shuffle(shuffled, new Random(seed));
        orders.add(shuffled);

        for (List<Spec> order : orders) {
            Router<String> router = new Router<>();
            for (Spec s : order) router.add(s.method(), s.pattern(), s.method() + " " + s.pattern());
            for (Req q : requests) {
                assertThat(router.match(q.method(), q.path()))
                        .as("%s %s with routes %s", q.method(), q.path(), order)
                        .isEqualTo(reference(routes, q.method(), q.path()));
            }
        }
    }

    @Property(tries = 200)
    void sameShapeIsRefusedAndOtherShapesAreNot(@ForAll("routeSets") List<Spec> generated) {
        Router<String> router = new Router<>();
        Set<String> shapes = new HashSet<>();
        for (Spec s : generated) {
            boolean fresh = shapes.add(s.shape());
            boolean accepted;
            try {
                router.add(s.method(), s.pattern(), "v");
                accepted = true;
            } catch (IllegalStateException e) {
                accepted = false;
            }
            assertThat(accepted).as("%s %s after %s", s.method(), s.pattern(), generated).isEqualTo(fresh);
        }
    }

    static RouteMatch<String> reference(List<Spec> routes, String method, String path) {
        String[] segs = path.substring(1).split("/", -1);
        Found<String> f = best(routes, method, segs);
        if (f == null && method.equals("HEAD")) f = best(routes, "GET", segs);
        if (f != null) return f;
        TreeSet<String> allow = new TreeSet<>();
        for (Spec s : routes) if (values(s, segs) != null) allow.add(s.method());
        if (allow.contains("GET")) allow.add("HEAD");
        return allow.isEmpty() ? NotFound.instance() : new MethodNotAllowed<>(String.join(", ", allow));
    }

    private static Found<String> best(List<Spec> routes, String method, String[] segs) {
        Spec best = null;
        for (Spec s : routes) {
            if (s.method().equals(method) && values(s, segs) != null && (best == null || moreSpecific(s, best))) best = s;
        }
        if (best == null) return null;
        List<String> names = new ArrayList<>();
        for (int i = 0; i < best.segments().size(); i++) {
            if (best.kind(i) == PARAM) names.add("p" + i);
            if (best.kind(i) == CATCH_ALL) names.add("rest");
        }
        return new Found<>(best.method() + " " + best.pattern(), best.pattern(), names.toArray(String[]::new),
                values(best, segs).toArray(String[]::new));
    }

    private static boolean moreSpecific(Spec a, Spec b) {
        int n = Math.min(a.segments().size(), b.segments().size());
        for (int i = 0; i < n; i++) if (a.kind(i) != b.kind(i)) return a.kind(i) < b.kind(i);
        return a.segments().size() < b.segments().size();
    }

    /** The raw parameter values if the route matches, else null. */
    private static List<String> values(Spec s, String[] segs) {
        List<String> values = new ArrayList<>();
        List<String> p = s.segments();
        for (int i = 0; i < p.size(); i++) {
            if (s.kind(i) == CATCH_ALL) {
                values.add(i >= segs.length ? "" : String.join("/", List.of(segs).subList(i, segs.length)));
                return values;
            }
            if (i >= segs.length) return null;
            if (s.kind(i) == PARAM) {
                if (segs[i].isEmpty()) return null;
                values.add(segs[i]);
            } else if (!decode(p.get(i)).equals(decode(segs[i]))) {
                return null;
            }
        }
        return p.size() == segs.length ? values : null;
    }

    /** Decoded text, or a value equal to no literal when it does not decode or holds a '/'. */
    private static String decode(String s) {
        try {
            String d = URLDecoder.decode(s, StandardCharsets.UTF_8);
            return d.contains("/") ? "\0slash" : d;
        } catch (IllegalArgumentException e) {
            return "\0invalid";
        }
    }
}
