package dev.tidemill.internal.exchange;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link RequestTarget}: the path of a request target, and its dot-segment check, table-driven. */
class RequestTargetTest {

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
        // origin-form
        "/                      | /",
        "/a/b                   | /a/b",
        "/a/b/                  | /a/b/",
        "//a//b                 | //a//b",
        "/a%20b                 | /a%20b",
        // query and fragment cut, the first of them wins
        "/a?x=1                 | /a",
        "/a?                    | /a",
        "/?x                    | /",
        "/a#frag                | /a",
        "/a?x#y                 | /a",
        "/a#y?x                 | /a",
        "/a?x=/b                | /a",
        // absolute-form, http and https, any case
        "http://h/a             | /a",
        "https://h/a/b?q=1      | /a/b",
        "http://h:8080/a#f      | /a",
        "HTTP://h/a             | /a",
        "HttpS://h/a            | /a",
        "http://user@h/a        | /a",
        "http://[::1]:80/a/b    | /a/b",
        // absolute-form without a path: the path is /
        "http://h               | /",
        "https://h:443          | /",
        // the authority ends at '?' or '#' too (found by these tests: the path was taken from the query)
        "http://h?q/y           | /",
        "http://h#f/y           | /",
    })
    void rawPath(String target, String path) {
        assertThat(RequestTarget.rawPath(target)).isEqualTo(path);
    }

    @Test
    void anOriginFormPathWithNothingToCutIsTheTargetItself() {
        String target = "/a/b";
        assertThat(RequestTarget.rawPath(target)).isSameAs(target);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "*", // asterisk-form (OPTIONS *)
        "example.com:443", // authority-form (CONNECT)
        "[::1]:443",
        "a/b", // relative
        "",
        "ftp://h/a", // other schemes
        "ws://h/a",
        "httpx://h/a",
        "h://x/a", // prefixes of http were taken for it (found by these tests)
        "ht://x/a",
        "htt://x/a",
        "http:/x/a",
        "httpss://h/a",
        "://h/a", // no scheme
        "http:/a", // no authority
        "http:a",
        "?x",
        "#f",
    })
    void notAPath(String target) {
        assertThat(RequestTarget.rawPath(target)).as("'%s'", target).isNull();
    }

    @ParameterizedTest
    @ValueSource(strings = {
        // at the end
        "/.", "/..", "/a/.", "/a/..", "/a/b/..",
        // at the start and in the middle
        "/./a", "/../a", "/a/./b", "/a/../b", "/a/b/../../c",
        // with empty segments around
        "//..", "/a//../b", "/..//", "/.//a",
        // followed by a trailing slash
        "/a/./", "/a/../",
        // percent-encoded, either case, mixed with literal dots
        "/%2e", "/%2E", "/%2e%2e", "/%2E%2e", "/%2e%2E", "/.%2e", "/%2e.", "/a/%2e/b", "/a/%2E%2E", "/%2e/",
    })
    void dotSegments(String path) {
        assertThat(RequestTarget.hasDotSegment(path)).as("'%s'", path).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "/", "/a", "/a/b", "/a/b/",
        // dots that are part of a name
        "/.a", "/a.", "/..a", "/a..", "/.a.", "/a.b", "/.well-known/x", "/a/.hidden",
        // three or more dots are a name, not a dot segment
        "/...", "/....", "/a/.../b", "/%2e%2e%2e", "/.%2e.",
        // empty segments only
        "//", "/a//b", "///",
        // broken or other percent-encodings
        "/%2", "/%2e%2", "/.%2", "/%2f..", "/%2ea", "/%252e", "/%3e", "/%2d",
        // a dot segment would need '/' around it, not another separator
        "/a;/..;", "/..;x", "/a\\..",
    })
    void noDotSegments(String path) {
        assertThat(RequestTarget.hasDotSegment(path)).as("'%s'", path).isFalse();
    }
}
