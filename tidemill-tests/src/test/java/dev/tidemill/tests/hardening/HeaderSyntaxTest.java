package dev.tidemill.tests.hardening;

import static dev.tidemill.tests.hardening.Cases.refused;
import static dev.tidemill.tests.hardening.Cases.refusedOrClosed;
import static dev.tidemill.tests.hardening.Cases.served;
import static dev.tidemill.tests.hardening.Cases.withHeader;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Category 2, header syntax and control bytes: line terminators other than CRLF, NUL and other
 * control bytes, obs-fold, malformed field names. Anything a lenient parser and a strict one could
 * read differently is refused with 400 and the connection closed.
 */
class HeaderSyntaxTest extends CaseTable {
    static final String CAT = "2 header syntax and control bytes";

    static Stream<HostileCase> cases() {
        List<HostileCase> c = new ArrayList<>(List.of(
                // line terminators
                refused(CAT, "bare CR inside a header value", "RFC 9112 2.2; CVE-2023-30589 (llhttp)", withHeader("X-A: a\rb"), 400),
                refused(CAT, "bare CR ending a header line", "RFC 9112 2.2; CVE-2023-30589 (llhttp)",
                        "GET /echo HTTP/1.1\r\nHost: x\rX-A: b\r\n\r\n", 400),
                refused(CAT, "bare LF ending a header line", "RFC 9112 2.2; CVE-2022-32214 (llhttp)",
                        "GET /echo HTTP/1.1\r\nHost: x\nX-A: b\r\n\r\n", 400),
                refused(CAT, "bare LF ending the request line", "RFC 9112 2.2; CVE-2022-32214 (llhttp)",
                        "GET /echo HTTP/1.1\nHost: x\r\n\r\n", 400),
                refused(CAT, "bare LF everywhere", "RFC 9112 2.2 (we take the strict reading)",
                        "GET /echo HTTP/1.1\nHost: x\n\n", 400),
                refused(CAT, "bare LF ending the header block", "RFC 9112 2.2; CVE-2022-35256 (llhttp)",
                        "GET /echo HTTP/1.1\r\nHost: x\r\n\n", 400),
                refused(CAT, "CR CR LF ending a header line", "RFC 9112 2.2",
                        "GET /echo HTTP/1.1\r\nHost: x\r\r\n\r\n", 400),
                // control bytes
                refused(CAT, "NUL inside a header value", "RFC 9110 5.5", withHeader("X-A: a\u0000b"), 400),
                refused(CAT, "NUL inside a header name", "RFC 9110 5.1", withHeader("X-\u0000A: b"), 400),
                refused(CAT, "SOH (0x01) inside a header value", "RFC 9110 5.5: field-vchar", withHeader("X-A: a\u0001b"), 400),
                refused(CAT, "ESC (0x1b) inside a header value", "RFC 9110 5.5: field-vchar", withHeader("X-A: a\u001b[31mb"), 400),
                refused(CAT, "DEL (0x7f) inside a header value", "RFC 9110 5.5: field-vchar", withHeader("X-A: a\u007fb"), 400),
                refused(CAT, "control byte at the start of a header name", "CVE-2021-43797 (Netty)",
                        withHeader("\u0001Transfer-Encoding: chunked"), 400),
                refused(CAT, "control byte at the end of a header name", "CVE-2021-43797 (Netty)",
                        withHeader("Transfer-Encoding\u000b: chunked"), 400),
                refused(CAT, "DEL inside a header name", "RFC 9110 5.1: token", withHeader("X-\u007fA: b"), 400),
                // obs-fold and whitespace
                refused(CAT, "obs-fold with a space", "RFC 9112 5.2: a server must reject or unfold; we reject",
                        withHeader("X-A: a\r\n b"), 400),
                refused(CAT, "obs-fold with a tab", "RFC 9112 5.2", withHeader("X-A: a\r\n\tb"), 400),
                refused(CAT, "whitespace before the first header line", "RFC 9112 2.2",
                        "GET /echo HTTP/1.1\r\n Host: x\r\n\r\n", 400),
                refused(CAT, "space before a colon", "RFC 9112 5.1; CVE-2019-16276 (Go)", withHeader("X-A : b"), 400),
                refused(CAT, "tab before a colon", "RFC 9112 5.1", withHeader("X-A\t: b"), 400),
                // malformed names
                refused(CAT, "header line without a colon", "RFC 9112 5; CVE-2019-20444 (Netty)", withHeader("X-A b"), 400),
                refused(CAT, "empty header name", "RFC 9110 5.1: token", withHeader(": b"), 400),
                refused(CAT, "space inside a header name", "RFC 9110 5.1: token", withHeader("X A: b"), 400),
                refused(CAT, "non-ASCII byte in a header name", "RFC 9110 5.1: token", withHeader("X-\u00e9: b"), 400),
                // stray bytes around the request
                refused(CAT, "garbage line before the request line", "RFC 9112 2.2",
                        "xyz\r\nGET /echo HTTP/1.1\r\nHost: x\r\n\r\n", 400),
                refusedOrClosed(CAT, "an endless stream of CR", "RFC 9112 2.2: ignore at least one empty line, not unbounded",
                        "\r".repeat(64 * 1024)),
                refusedOrClosed(CAT, "an endless stream of CRLF", "RFC 9112 2.2: ignore at least one empty line, not unbounded",
                        "\r\n".repeat(32 * 1024)),
                // unusual but valid: must be served
                served(CAT, "one empty line before the request line", "RFC 9112 2.2: SHOULD ignore at least one",
                        "\r\nGET /echo HTTP/1.1\r\nHost: x\r\n\r\n"),
                served(CAT, "tab inside a header value", "RFC 9110 5.5: HTAB is allowed", withHeader("X-A: a\tb")),
                served(CAT, "obs-text (0x80-0xff) in a header value", "RFC 9110 5.5: obs-text is allowed",
                        withHeader("X-A: caf\u00e9")),
                served(CAT, "empty header value", "RFC 9110 5.5", withHeader("X-A:")),
                served(CAT, "header name with every token symbol", "RFC 9110 5.6.2: tchar",
                        withHeader("X!#$%&'*+-.^_`|~A: b")),
                served(CAT, "header name case differs from the usual", "RFC 9110 5.1: case-insensitive", withHeader("x-A: b"))));
        // every separator that is not a tchar, inside a name
        for (char sep : "()<>@,;\\\"/[]?={}".toCharArray()) {
            c.add(refused(CAT, "separator '" + sep + "' inside a header name", "RFC 9110 5.6.2: tchar", withHeader("X" + sep + "A: b"), 400));
        }
        return c.stream();
    }
}
