package dev.tidemill.tests.hardening;

import static dev.tidemill.tests.hardening.Cases.answered;
import static dev.tidemill.tests.hardening.Cases.refused;
import static dev.tidemill.tests.hardening.Cases.served;

import java.util.stream.Stream;

/**
 * Category 4, request line and Host: methods, versions and targets outside the grammar, every
 * request-target form, and Host fields that are missing, doubled or malformed. A request line
 * whose bytes break the grammar is refused and the connection closed; a well-formed one whose
 * target we will not route (bad percent-encoding, dot segments, an unknown form) is answered 400
 * and the connection kept, since its framing is intact. Paths with dot
 * segments (literal or percent-encoded) are refused rather than normalised: Tidemill matches routes
 * on the raw path, and a path a proxy normalises differently from us must not reach a handler.
 */
class RequestLineAndHostTest extends CaseTable {
    static final String CAT = "4 request line and Host";

    private static String get(String target) {
        return "GET " + target + " HTTP/1.1\r\nHost: x\r\n\r\n";
    }

    private static String host(String hostLines) {
        return "GET /echo HTTP/1.1\r\n" + hostLines + "\r\n";
    }

    static Stream<HostileCase> cases() {
        return Stream.of(
                // request line shape
                refused(CAT, "request line of one token", "RFC 9112 3", "GARBAGE\r\n\r\n", 400),
                refused(CAT, "request line of four words", "RFC 9112 3", "GET /echo HTTP/1.1 extra\r\nHost: x\r\n\r\n", 400),
                refused(CAT, "request line without a version", "RFC 9112 3 (HTTP/0.9 is not supported)", "GET /echo\r\n\r\n", 400),
                refused(CAT, "two spaces between method and target", "RFC 9112 3: single SP (we take the strict reading)",
                        "GET  /echo HTTP/1.1\r\nHost: x\r\n\r\n", 400),
                refused(CAT, "tab between method and target", "RFC 9112 3: single SP", "GET\t/echo HTTP/1.1\r\nHost: x\r\n\r\n", 400),
                refused(CAT, "space before the method", "RFC 9112 3", " GET /echo HTTP/1.1\r\nHost: x\r\n\r\n", 400),
                refused(CAT, "space after the version", "RFC 9112 3", "GET /echo HTTP/1.1 \r\nHost: x\r\n\r\n", 400),
                // methods
                refused(CAT, "control byte in the method", "RFC 9110 9.1: token", "G\u0001T /echo HTTP/1.1\r\nHost: x\r\n\r\n", 400),
                refused(CAT, "separator in the method", "RFC 9110 9.1: token", "GE(T /echo HTTP/1.1\r\nHost: x\r\n\r\n", 400),
                refused(CAT, "non-ASCII method", "RFC 9110 9.1: token", "G\u00c9T /echo HTTP/1.1\r\nHost: x\r\n\r\n", 400),
                answered(CAT, "unknown method", "RFC 9110 9.1: unrecognised method -> 501", "BREW /echo HTTP/1.1\r\nHost: x\r\n\r\n", 501),
                answered(CAT, "lower-case get (methods are case-sensitive)", "RFC 9110 9.1",
                        "get /echo HTTP/1.1\r\nHost: x\r\n\r\n", 501),
                answered(CAT, "a 200-byte method", "RFC 9110 9.1", "A".repeat(200) + " /echo HTTP/1.1\r\nHost: x\r\n\r\n", 501),
                answered(CAT, "CONNECT to an origin server", "RFC 9110 9.3.6: CONNECT is for proxies; authority-form is "
                        + "not a target we route", "CONNECT x:443 HTTP/1.1\r\nHost: x:443\r\n\r\n", 400),
                // versions
                refused(CAT, "version HTTP/2.0 on HTTP/1 framing", "RFC 9110 15.6.6", "GET /echo HTTP/2.0\r\nHost: x\r\n\r\n", 505),
                refused(CAT, "version HTTP/1.2", "RFC 9110 15.6.6", "GET /echo HTTP/1.2\r\nHost: x\r\n\r\n", 505),
                refused(CAT, "version HTTP/0.9 in a request line", "RFC 9110 15.6.6", "GET /echo HTTP/0.9\r\nHost: x\r\n\r\n", 505),
                refused(CAT, "version in lower case", "RFC 9112 2.3: HTTP-name is case-sensitive", "GET /echo http/1.1\r\nHost: x\r\n\r\n", 400),
                refused(CAT, "version HTTP/1", "RFC 9112 2.3: DIGIT . DIGIT", "GET /echo HTTP/1\r\nHost: x\r\n\r\n", 400),
                refused(CAT, "version HTTP/1.10", "RFC 9112 2.3: one digit each", "GET /echo HTTP/1.10\r\nHost: x\r\n\r\n", 400),
                refused(CAT, "version HTTP/01.1", "RFC 9112 2.3: one digit each", "GET /echo HTTP/01.1\r\nHost: x\r\n\r\n", 400),
                refused(CAT, "version FOO/1.1", "RFC 9112 2.3", "GET /echo FOO/1.1\r\nHost: x\r\n\r\n", 400),
                // targets
                answered(CAT, "origin-form not starting with /", "RFC 9112 3.2.1", get("echo"), 400),
                answered(CAT, "asterisk-form with GET", "RFC 9112 3.2.4: only OPTIONS", get("*"), 400),
                refused(CAT, "fragment in the target", "RFC 9112 3.2: no fragment in a request-target", get("/echo#top"), 400),
                refused(CAT, "raw non-ASCII bytes in the path", "RFC 3986 2: must be percent-encoded", get("/\u00c3\u00a9cho"), 400),
                refused(CAT, "raw NUL in the path", "RFC 3986 2", get("/ec\u0000ho"), 400),
                refused(CAT, "backslash in the path", "RFC 3986 2: not a URI character", get("/echo\\..\\x"), 400),
                answered(CAT, "invalid percent-encoding %zz", "RFC 3986 2.1", get("/echo%zz"), 400),
                answered(CAT, "truncated percent-encoding %", "RFC 3986 2.1", get("/echo%"), 400),
                answered(CAT, "truncated percent-encoding %2", "RFC 3986 2.1", get("/echo%2"), 400),
                answered(CAT, "percent-encoded NUL", "RFC 3986 2.1; CWE-158", get("/echo%00"), 400),
                answered(CAT, "invalid percent-encoding in the query", "RFC 3986 2.1", get("/echo?a=%zz"), 400),
                answered(CAT, "dot-dot segment", "RFC 3986 5.2.4; path traversal", get("/x/../echo"), 400),
                answered(CAT, "dot segment", "RFC 3986 5.2.4", get("/./echo"), 400),
                answered(CAT, "encoded dot-dot segment %2e%2e", "RFC 3986 2.3, 5.2.4; CVE-2021-41773 (Apache httpd)",
                        get("/x/%2e%2e/echo"), 400),
                answered(CAT, "encoded dot-dot segment %2E%2E", "RFC 3986 2.3, 5.2.4", get("/x/%2E%2E/echo"), 400),
                answered(CAT, "half-encoded dot-dot segment .%2e", "RFC 3986 2.3, 5.2.4; CVE-2021-42013 (Apache httpd)",
                        get("/x/.%2e/echo"), 400),
                answered(CAT, "encoded dot segment %2e", "RFC 3986 2.3, 5.2.4", get("/%2e/echo"), 400),
                answered(CAT, "dot-dot as the last segment", "RFC 3986 5.2.4", get("/echo/.."), 400),
                answered(CAT, "absolute-form with a non-HTTP scheme", "RFC 9112 3.2.2", get("ftp://x/echo"), 400),
                answered(CAT, "absolute-form without an authority", "RFC 9112 3.2.2", get("http:/echo"), 400),
                answered(CAT, "authority-form with GET", "RFC 9112 3.2.3: only CONNECT", get("x:80"), 400),
                // Host
                refused(CAT, "missing Host on HTTP/1.1", "RFC 9112 3.2", "GET /echo HTTP/1.1\r\n\r\n", 400),
                refused(CAT, "two Host fields", "RFC 9112 3.2", host("Host: x\r\nHost: y\r\n"), 400),
                refused(CAT, "two Host fields, same value", "RFC 9112 3.2", host("Host: x\r\nHost: x\r\n"), 400),
                refused(CAT, "Host list x, y", "RFC 9112 3.2: a single value", host("Host: x, y\r\n"), 400),
                refused(CAT, "space inside Host", "RFC 9110 7.2: uri-host [ : port ]", host("Host: a b\r\n"), 400),
                refused(CAT, "slash inside Host", "RFC 9110 7.2", host("Host: x/y\r\n"), 400),
                refused(CAT, "userinfo in Host", "RFC 9110 7.2: no userinfo", host("Host: user@x\r\n"), 400),
                refused(CAT, "non-numeric port in Host", "RFC 3986 3.2.3: port = *DIGIT", host("Host: x:abc\r\n"), 400),
                refused(CAT, "NUL in Host", "RFC 9110 5.5", host("Host: x\u0000y\r\n"), 400),
                refused(CAT, "unclosed IPv6 literal in Host", "RFC 3986 3.2.2", host("Host: [::1\r\n"), 400),
                // valid: must be served
                served(CAT, "absolute-form target", "RFC 9112 3.2.2: a server must accept it",
                        "GET http://x/echo HTTP/1.1\r\nHost: x\r\n\r\n"),
                served(CAT, "absolute-form whose authority differs from Host", "RFC 9112 3.2.2: the target's authority wins",
                        "GET http://example.org/echo HTTP/1.1\r\nHost: other\r\n\r\n"),
                served(CAT, "HTTP/1.0 without Host", "RFC 9112 3.2: Host is required of HTTP/1.1 only",
                        "GET /echo HTTP/1.0\r\nConnection: keep-alive\r\n\r\n"),
                served(CAT, "Host with a port", "RFC 9110 7.2", host("Host: x:8080\r\n")),
                served(CAT, "Host as an IPv6 literal", "RFC 3986 3.2.2", host("Host: [::1]:8080\r\n")),
                served(CAT, "empty Host", "RFC 9110 7.2: empty when the authority is", host("Host:\r\n")),
                served(CAT, "an 8,000-byte path", "RFC 9112 3: recommended minimum 8,000 octets",
                        get("/echo?pad=" + "a".repeat(8_000 - "GET /echo?pad= HTTP/1.1".length()))),
                served(CAT, "percent-encoded path characters", "RFC 3986 2.1", get("/ech%6f")),
                served(CAT, "query with every allowed character", "RFC 3986 3.4", get("/echo?a=b&c=d/e?f:g@h!$'()*+,;=-._~%20")),
                answered(CAT, "OPTIONS *", "RFC 9110 9.3.7; 15.6.2: 501 for what the server does not implement",
                        "OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n", 501));
    }
}
