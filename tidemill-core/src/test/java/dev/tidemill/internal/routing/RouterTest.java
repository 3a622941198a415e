package dev.tidemill.internal.routing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidemill.internal.routing.RouteMatch.Found;
import dev.tidemill.internal.routing.RouteMatch.MethodNotAllowed;
import dev.tidemill.internal.routing.RouteMatch.NotFound;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RouterTest {

    private static Router<String> router(String... methodAndPatterns) {
        Router<String> r = new Router<>();
        for (String mp : methodAndPatterns) {
            String[] parts = mp.split(" ", 2);
            r.add(parts[0], parts[1], mp);
        }
        return r;
    }

    private static Found<String> found(RouteMatch<String> m) {
        assertThat(m).isInstanceOf(Found.class);
        return (Found<String>) m;
    }

    @Test
    void staticBeatsParamBeatsCatchAllWhateverTheOrder() {
        String[][] orders = {
            {"GET /a/b", "GET /a/{x}", "GET /a/{*rest}"},
            {"GET /a/{*rest}", "GET /a/{x}", "GET /a/b"},
            {"GET /a/{x}", "GET /a/{*rest}", "GET /a/b"},
        };
        for (String[] order : orders) {
            Router<String> r = router(order);
            assertThat(found(r.match("GET", "/a/b")).pattern()).isEqualTo("/a/b");
            Found<String> param = found(r.match("GET", "/a/c"));
            assertThat(param.pattern()).isEqualTo("/a/{x}");
            assertThat(param.names()).containsExactly("x");
            assertThat(param.rawValues()).containsExactly("c");
            Found<String> rest = found(r.match("GET", "/a/c/d"));
            assertThat(rest.pattern()).isEqualTo("/a/{*rest}");
            assertThat(rest.rawValues()).containsExactly("c/d");
        }
    }

    @Test
    void backtracksWhenTheLiteralBranchFailsDeeper() {
        Router<String> r = router("GET /a/b/c", "GET /a/{x}/d");
        Found<String> f = found(r.match("GET", "/a/b/d"));
        assertThat(f.pattern()).isEqualTo("/a/{x}/d");
        assertThat(f.rawValues()).containsExactly("b");
        assertThat(found(r.match("GET", "/a/b/c")).pattern()).isEqualTo("/a/b/c");
    }

    @Test
    void backtracksFromParamToCatchAll() {
        Router<String> r = router("GET /a/{x}/d", "GET /{*all}");
        assertThat(found(r.match("GET", "/a/b/e")).rawValues()).containsExactly("a/b/e");
        assertThat(found(r.match("GET", "/a/b/d")).rawValues()).containsExactly("b");
    }

    @Test
    void literalsSharingAPrefixAreSplitCorrectly() {
        Router<String> r = router("GET /users", "GET /uploads/{id}", "GET /us", "GET /users/{id}/posts");
        assertThat(found(r.match("GET", "/users")).pattern()).isEqualTo("/users");
        assertThat(found(r.match("GET", "/us")).pattern()).isEqualTo("/us");
        assertThat(found(r.match("GET", "/uploads/7")).rawValues()).containsExactly("7");
        assertThat(found(r.match("GET", "/users/9/posts")).rawValues()).containsExactly("9");
        assertThat(r.match("GET", "/u")).isInstanceOf(NotFound.class);
        assertThat(r.match("GET", "/user")).isInstanceOf(NotFound.class);
        assertThat(r.match("GET", "/users/9")).isInstanceOf(NotFound.class);
    }

    @Test
    void trailingSlashIsADifferentRoute() {
        Router<String> r = router("GET /a", "GET /b/");
        assertThat(found(r.match("GET", "/a")).pattern()).isEqualTo("/a");
        assertThat(r.match("GET", "/a/")).isInstanceOf(NotFound.class);
        assertThat(found(r.match("GET", "/b/")).pattern()).isEqualTo("/b/");
        assertThat(r.match("GET", "/b")).isInstanceOf(NotFound.class);
        r.add("GET", "/a/", "second");
        assertThat(found(r.match("GET", "/a/")).value()).isEqualTo("second");
    }

    @Test
    void headFallsBackToGet() {
        Router<String> r = router("GET /a", "HEAD /b", "GET /b");
        assertThat(found(r.match("HEAD", "/a")).value()).isEqualTo("GET /a");
        assertThat(found(r.match("HEAD", "/b")).value()).isEqualTo("HEAD /b");
        assertThat(r.match("HEAD", "/c")).isInstanceOf(NotFound.class);
    }

    @Test
    void methodNotAllowedListsSortedMethodsWithHeadWhereGetIs() {
        Router<String> r = router("POST /items", "GET /items", "DELETE /items/{id}", "PUT /items/{id}");
        assertThat(r.match("PATCH", "/items")).isEqualTo(new MethodNotAllowed<String>("GET, HEAD, POST"));
        assertThat(r.match("GET", "/items/3")).isEqualTo(new MethodNotAllowed<String>("DELETE, PUT"));
        assertThat(r.match("HEAD", "/items/3")).isEqualTo(new MethodNotAllowed<String>("DELETE, PUT"));
        assertThat(r.allowedMethods("/items")).containsExactly("GET", "HEAD", "POST");
        assertThat(r.allowedMethods("/nothing")).isEmpty();
    }

    @Test
    void notFoundIsOneSharedInstance() {
        Router<String> r = router("GET /a");
        assertThat(r.match("GET", "/b")).isSameAs(NotFound.instance());
        assertThat(r.match("POST", "/b")).isSameAs(r.match("GET", "/zzz"));
        assertThat(r.match("GET", "")).isSameAs(NotFound.instance());
        assertThat(r.match("GET", "*")).isSameAs(NotFound.instance());
    }

    @Test
    void encodedSlashNeverChangesTheMatch() {
        Router<String> r = router("GET /files/{name}", "GET /files/{name}/meta", "GET /files/a/b");
        Found<String> f = found(r.match("GET", "/files/a%2Fb"));
        assertThat(f.pattern()).isEqualTo("/files/{name}");
        assertThat(f.rawValues()).containsExactly("a%2Fb");
        assertThat(found(r.match("GET", "/files/a%2fb/meta")).rawValues()).containsExactly("a%2fb");
    }

    @Test
    void literalMatchesThePercentDecodedSegment() {
        Router<String> r = router("GET /café/{x}", "GET /a b", "GET /{x}/{y}");
        Found<String> f = found(r.match("GET", "/caf%C3%A9/%41"));
        assertThat(f.pattern()).isEqualTo("/café/{x}");
        assertThat(f.rawValues()).containsExactly("%41");
        assertThat(found(r.match("GET", "/a%20b")).pattern()).isEqualTo("/a b");
        // Does not decode: can fill a parameter, never equal a literal.
        assertThat(found(r.match("GET", "/caf%zz/1")).pattern()).isEqualTo("/{x}/{y}");
        assertThat(found(r.match("GET", "/caf%zz/1")).rawValues()).containsExactly("caf%zz", "1");
    }

    @Test
    void encodedLiteralInAPatternIsTheSameRouteAsItsDecodedForm() {
        Router<String> r = router("GET /a%20b");
        assertThat(found(r.match("GET", "/a b")).pattern()).isEqualTo("/a%20b");
        assertThat(found(r.match("GET", "/a%20b")).pattern()).isEqualTo("/a%20b");
        assertThatThrownBy(() -> r.add("GET", "/a b", "x"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("GET /a b conflicts with GET /a%20b: same shape");
    }

    @Test
    void sameShapeConflictNamesBothPatterns() {
        Router<String> r = router("GET /a/{id}", "GET /f/{*p}");
        assertThatThrownBy(() -> r.add("GET", "/a/{key}", "x"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("GET /a/{key} conflicts with GET /a/{id}: same shape");
        assertThatThrownBy(() -> r.add("GET", "/f/{*q}", "x"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("GET /f/{*q} conflicts with GET /f/{*p}: same shape");
        r.add("POST", "/a/{key}", "other method is fine");
        r.add("GET", "/a/{id}/", "trailing slash is another shape");
        assertThat(found(r.match("GET", "/a/1")).value()).isEqualTo("GET /a/{id}");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "a", "a/b", "/a{b}", "/{a}b", "/{}", "/{*}", "/{a}/{a}", "/{*a}/b",
        "/{1a}", "/{a-b}", "/{a}}", "/{{a}", "/a}", "/%zz", "/a%2Fb", "/a?b", "/x#y", "/{a}/{*a}"})
    void invalidPatternsAreRefusedNamingThePattern(String pattern) {
        Router<String> r = new Router<>();
        assertThatThrownBy(() -> r.add("GET", pattern, "x"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'" + pattern + "'");
    }

    @Test
    void rootRoute() {
        Router<String> r = router("GET /", "GET /{x}");
        assertThat(found(r.match("GET", "/")).pattern()).isEqualTo("/");
        assertThat(found(r.match("GET", "/a")).pattern()).isEqualTo("/{x}");
        assertThat(r.match("GET", "//")).isInstanceOf(NotFound.class);
    }

    @Test
    void catchAllMatchesZeroOrMoreSegments() {
        Router<String> r = router("GET /files/{*path}", "GET /{*all}");
        assertThat(found(r.match("GET", "/files")).rawValues()).containsExactly("");
        assertThat(found(r.match("GET", "/files/")).rawValues()).containsExactly("");
        assertThat(found(r.match("GET", "/files/a/b%2F/")).rawValues()).containsExactly("a/b%2F/");
        assertThat(found(r.match("GET", "/files//x")).rawValues()).containsExactly("/x");
        Found<String> root = found(r.match("GET", "/"));
        assertThat(root.pattern()).isEqualTo("/{*all}");
        assertThat(root.rawValues()).containsExactly("");
        assertThat(found(r.match("GET", "/filesx")).pattern()).isEqualTo("/{*all}");
    }

    @Test
    void exactRouteBeatsCatchAllMatchingZeroSegments() {
        Router<String> r = router("GET /files/{*path}", "GET /files");
        assertThat(found(r.match("GET", "/files")).pattern()).isEqualTo("/files");
        assertThat(found(r.match("GET", "/files/")).pattern()).isEqualTo("/files/{*path}");
    }

    @Test
    void paramNeverMatchesAnEmptySegment() {
        Router<String> r = router("GET /a/{x}", "GET /b/{x}/c");
        assertThat(r.match("GET", "/a/")).isInstanceOf(NotFound.class);
        assertThat(r.match("GET", "/b//c")).isInstanceOf(NotFound.class);
    }

    @Test
    void severalParamsComeInPatternOrder() {
        Router<String> r = router("GET /{org}/repos/{repo}/{*path}", "GET /{org}/repos/{repo}/issues/{n}");
        Found<String> f = found(r.match("GET", "/acme/repos/tide%20mill/src/Main.java"));
        assertThat(f.names()).containsExactly("org", "repo", "path");
        assertThat(f.rawValues()).containsExactly("acme", "tide%20mill", "src/Main.java");
        Found<String> g = found(r.match("GET", "/acme/repos/tm/issues/12"));
        assertThat(g.names()).containsExactly("org", "repo", "n");
        assertThat(g.rawValues()).containsExactly("acme", "tm", "12");
    }

    @Test
    void routeWithoutParamsAnswersWithoutAllocatingANewFound() {
        Router<String> r = router("GET /health");
        assertThat(r.match("GET", "/health")).isSameAs(r.match("GET", "/health"));
        Router<String> p = router("GET /x/{id}");
        assertThat(p.match("GET", "/x/1")).isNotSameAs(p.match("GET", "/x/1"));
        assertThat(found(p.match("GET", "/x/2")).rawValues()).containsExactly("2");
    }

    @Test
    void foundComparesArraysByContent() {
        Router<String> r = router("GET /x/{id}");
        assertThat(r.match("GET", "/x/1"))
                .isEqualTo(new Found<>("GET /x/{id}", "/x/{id}", new String[] {"id"}, new String[] {"1"}))
                .hasSameHashCodeAs(new Found<>("GET /x/{id}", "/x/{id}", new String[] {"id"}, new String[] {"1"}));
        assertThat(r.allowedMethods("/x/1")).isEqualTo(List.of("GET", "HEAD"));
    }

    @Test
    void aMappedRouterAnswersEveryPathAsTheOriginalWithEachValueMapped() {
        Router<String> original = router("GET /", "GET /a/b/c", "GET /a/{x}/d", "GET /a/{*rest}", "POST /a/{x}/d",
                "GET /caf%C3%A9", "DELETE /items/{id}", "GET /items/{id}/tags/{tag}", "PUT /files/{*path}", "GET /ab", "GET /abc/");
        Router<Integer> copy = original.map(String::length);
        List<String> paths = List.of("/", "/a/b/c", "/a/b/d", "/a/z/d", "/a/q", "/a", "/café", "/caf%C3%A9", "/items/7",
                "/items/7/tags/x", "/files", "/files/a/b", "/ab", "/abc", "/abc/", "/nothing", "/a%2Fb/d");
        for (String method : List.of("GET", "HEAD", "POST", "PUT", "DELETE", "PATCH")) {
            for (String path : paths) {
                RouteMatch<String> m = original.match(method, path);
                RouteMatch<Integer> c = copy.match(method, path);
                String at = method + " " + path;
                switch (m) {
                    case Found<String> f -> {
                        Found<Integer> g = (Found<Integer>) c;
                        assertThat(g.value()).as(at).isEqualTo(f.value().length());
                        assertThat(g.pattern()).as(at).isEqualTo(f.pattern());
                        assertThat(g.names()).as(at).containsExactly(f.names());
                        assertThat(g.rawValues()).as(at).containsExactly(f.rawValues());
                    }
                    case MethodNotAllowed<String> n -> assertThat(c).as(at).isEqualTo(new MethodNotAllowed<Integer>(n.allow()));
                    case NotFound<String> n -> assertThat(c).as(at).isInstanceOf(NotFound.class);
                }
            }
        }
        assertThat(copy.knowsMethod("PATCH")).isFalse();
        assertThat(copy.knowsMethod("HEAD")).isTrue();
    }

    @Test
    void aMappedRouterIsATreeOfItsOwn() {
        Router<String> original = router("GET /items/{id}", "GET /items/new");
        Router<String> copy = original.map(v -> "copy of " + v);
        original.add("GET", "/items", "GET /items");
        original.add("POST", "/items/{id}", "POST /items/{id}");
        assertThat(copy.match("GET", "/items")).isInstanceOf(NotFound.class);
        assertThat(copy.match("POST", "/items/1")).isEqualTo(new MethodNotAllowed<String>("GET, HEAD"));
        assertThat(found(copy.match("GET", "/items/new")).value()).isEqualTo("copy of GET /items/new");
        assertThatThrownBy(() -> original.map(v -> null)).isInstanceOf(NullPointerException.class);
    }
}
