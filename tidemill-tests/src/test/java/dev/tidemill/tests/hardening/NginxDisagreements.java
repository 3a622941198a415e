package dev.tidemill.tests.hardening;

import static dev.tidemill.tests.hardening.NginxDisagreements.Reason.*;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The judged disagreements between Tidemill and nginx on the hardening cases of categories 1-4,
 * as data: for each case where the two answer differently, both answers as {@link DifferentialCheck}
 * records them ({@code 400}, {@code 2xx +SMUGGLED}, {@code close}...) and the reason, one of the
 * kinds docs/security.md judges. Every case not listed here must get the same answer from both.
 *
 * <p>Recorded from the run in {@code bench/results/2026-11-30-differential.md} (nginx 1.22.1,
 * Debian nginx-light). A change in either column is a regression until someone re-judges it here
 * and in docs/security.md.
 */
final class NginxDisagreements {
    /** A kind of disagreement, with docs/security.md's judgement of why ours is acceptable. */
    enum Reason {
        TRANSFER_CODING("both refuse; RFC 9112 6.3 requires 400 + close when chunked is not the final coding"),
        LINE_ENDS_AND_FIELD_BYTES("stricter on purpose: bare LF, CR CR LF, control bytes and non-token name bytes are where"
                + " front and back ends disagreed in published smuggling reports"),
        EMPTY_LINES("stricter on purpose: unbounded skipping of empty lines costs CPU for nothing"),
        CHUNK_SYNTAX("stricter on purpose: malformed chunk lines and trailers (CVE-2025-22871, CVE-2025-55315)"),
        TRAILER_OVER_LIMIT("stricter on purpose: trailers count against the header limit (CVE-2023-46589)"),
        REQUEST_LINE_SHAPE("RFC 9112 3 allows lenient request-line parsing; we do not"),
        VERSION("505 is what RFC 9110 15.6.6 describes for an unsupported version"),
        UNKNOWN_METHOD("a valid token no route uses is 501 (RFC 9110 9.1), kept alive"),
        TARGET_FORM("targets two parsers could read differently (fragment, backslash, raw non-ASCII, other schemes,"
                + " bad query encoding) are refused"),
        REFUSED_KEPT_ALIVE("both refuse with 400; we keep the connection (its framing is intact), nginx closes it"),
        DOT_SEGMENTS("stricter on purpose: routes match the raw path, so a path two parsers resolve differently must not"
                + " reach a handler"),
        HOST_SYNTAX("malformed Host refused; an empty Host is allowed by RFC 9110 7.2"),
        OPTIONS_STAR("OPTIONS * is not implemented: 501 is honest");

        /** Why the disagreement is acceptable. */
        final String why;

        Reason(String why) {
            this.why = why;
        }
    }

    /**
     * One judged disagreement.
     *
     * @param tidemill what Tidemill answers
     * @param nginx what nginx answers
     * @param reason why the difference is acceptable
     */
    record Judged(String tidemill, String nginx, Reason reason) {}

    /** Judged disagreements by {@link #key(String, String)}. */
    static final Map<String, Judged> BY_CASE = table(
            judged("1 framing and smuggling", "Transfer-Encoding: chunked, identity", "400", "501", TRANSFER_CODING),
            judged("1 framing and smuggling", "Transfer-Encoding: identity", "400", "501", TRANSFER_CODING),
            judged("1 framing and smuggling", "Transfer-Encoding: gzip", "400", "501", TRANSFER_CODING),
            judged("1 framing and smuggling", "Transfer-Encoding: gzip with Content-Length", "400", "501", TRANSFER_CODING),
            judged("1 framing and smuggling", "Transfer-Encoding: xchunked", "400", "501", TRANSFER_CODING),
            judged("1 framing and smuggling", "Transfer-Encoding: chunkedx", "400", "501", TRANSFER_CODING),
            judged("1 framing and smuggling", "Transfer-Encoding: chunked, chunked", "400", "501", TRANSFER_CODING),
            judged("1 framing and smuggling", "Transfer-Encoding: chunked;ext=1", "400", "501", TRANSFER_CODING),
            judged("1 framing and smuggling", "Transfer-Encoding with a vertical tab before chunked", "400", "501", TRANSFER_CODING),
            judged("1 framing and smuggling", "Transfer-Encoding empty", "400", "501", TRANSFER_CODING),
            judged("2 header syntax and control bytes", "bare LF ending a header line", "400", "2xx +SMUGGLED", LINE_ENDS_AND_FIELD_BYTES),
            judged("2 header syntax and control bytes", "bare LF ending the request line", "400", "2xx +SMUGGLED", LINE_ENDS_AND_FIELD_BYTES),
            judged("2 header syntax and control bytes", "bare LF everywhere", "400", "2xx +SMUGGLED", LINE_ENDS_AND_FIELD_BYTES),
            judged("2 header syntax and control bytes", "bare LF ending the header block", "400", "2xx +SMUGGLED", LINE_ENDS_AND_FIELD_BYTES),
            judged("2 header syntax and control bytes", "CR CR LF ending a header line", "400", "2xx +SMUGGLED", LINE_ENDS_AND_FIELD_BYTES),
            judged("2 header syntax and control bytes", "SOH (0x01) inside a header value", "400", "2xx +SMUGGLED", LINE_ENDS_AND_FIELD_BYTES),
            judged("2 header syntax and control bytes", "ESC (0x1b) inside a header value", "400", "2xx +SMUGGLED", LINE_ENDS_AND_FIELD_BYTES),
            judged("2 header syntax and control bytes", "DEL (0x7f) inside a header value", "400", "2xx +SMUGGLED", LINE_ENDS_AND_FIELD_BYTES),
            judged("2 header syntax and control bytes", "non-ASCII byte in a header name", "400", "2xx +SMUGGLED", LINE_ENDS_AND_FIELD_BYTES),
            judged("2 header syntax and control bytes", "an endless stream of CR", "400", "2xx", EMPTY_LINES),
            judged("2 header syntax and control bytes", "an endless stream of CRLF", "400", "2xx", EMPTY_LINES),
            judged("2 header syntax and control bytes", "separator '(' inside a header name", "400", "2xx +SMUGGLED", LINE_ENDS_AND_FIELD_BYTES),
            judged("2 header syntax and control bytes", "separator ')' inside a header name", "400", "2xx +SMUGGLED", LINE_ENDS_AND_FIELD_BYTES),
            judged("2 header syntax and control bytes", "separator '<' inside a header name", "400", "2xx +SMUGGLED", LINE_ENDS_AND_FIELD_BYTES),
            judged("2 header syntax and control bytes", "separator '>' inside a header name", "400", "2xx +SMUGGLED", LINE_ENDS_AND_FIELD_BYTES),
            judged("2 header syntax and control bytes", "separator '@' inside a header name", "400", "2xx +SMUGGLED", LINE_ENDS_AND_FIELD_BYTES),
            judged("2 header syntax and control bytes", "separator ',' inside a header name", "400", "2xx +SMUGGLED", LINE_ENDS_AND_FIELD_BYTES),
            judged("2 header syntax and control bytes", "separator ';' inside a header name", "400", "2xx +SMUGGLED", LINE_ENDS_AND_FIELD_BYTES),
            judged("2 header syntax and control bytes", "separator '\\' inside a header name", "400", "2xx +SMUGGLED", LINE_ENDS_AND_FIELD_BYTES),
            judged("2 header syntax and control bytes", "separator '\"' inside a header name", "400", "2xx +SMUGGLED", LINE_ENDS_AND_FIELD_BYTES),
            judged("2 header syntax and control bytes", "separator '/' inside a header name", "400", "2xx +SMUGGLED", LINE_ENDS_AND_FIELD_BYTES),
            judged("2 header syntax and control bytes", "separator '[' inside a header name", "400", "2xx +SMUGGLED", LINE_ENDS_AND_FIELD_BYTES),
            judged("2 header syntax and control bytes", "separator ']' inside a header name", "400", "2xx +SMUGGLED", LINE_ENDS_AND_FIELD_BYTES),
            judged("2 header syntax and control bytes", "separator '?' inside a header name", "400", "2xx +SMUGGLED", LINE_ENDS_AND_FIELD_BYTES),
            judged("2 header syntax and control bytes", "separator '=' inside a header name", "400", "2xx +SMUGGLED", LINE_ENDS_AND_FIELD_BYTES),
            judged("2 header syntax and control bytes", "separator '{' inside a header name", "400", "2xx +SMUGGLED", LINE_ENDS_AND_FIELD_BYTES),
            judged("2 header syntax and control bytes", "separator '}' inside a header name", "400", "2xx +SMUGGLED", LINE_ENDS_AND_FIELD_BYTES),
            judged("3 chunked bodies", "chunk size line ending in a bare LF", "400", "2xx +SMUGGLED", CHUNK_SYNTAX),
            judged("3 chunked bodies", "chunk extension ending in a bare LF", "400", "2xx +SMUGGLED", CHUNK_SYNTAX),
            judged("3 chunked bodies", "chunk extension with a NUL", "400", "2xx +SMUGGLED", CHUNK_SYNTAX),
            judged("3 chunked bodies", "chunk data ending in a bare LF", "400", "2xx +SMUGGLED", CHUNK_SYNTAX),
            judged("3 chunked bodies", "last chunk without the final CRLF, next request behind it", "400", "2xx", CHUNK_SYNTAX),
            judged("3 chunked bodies", "last chunk followed by two junk bytes", "400", "2xx", CHUNK_SYNTAX),
            judged("3 chunked bodies", "trailer without a colon", "400", "2xx +SMUGGLED", CHUNK_SYNTAX),
            judged("3 chunked bodies", "trailer ending in a bare LF", "400", "2xx +SMUGGLED", CHUNK_SYNTAX),
            judged("3 chunked bodies", "trailer section larger than the header limit", "431", "2xx +SMUGGLED", TRAILER_OVER_LIMIT),
            judged("4 request line and Host", "request line without a version", "400", "timeout/garbled", REQUEST_LINE_SHAPE),
            judged("4 request line and Host", "two spaces between method and target", "400", "2xx +SMUGGLED", REQUEST_LINE_SHAPE),
            judged("4 request line and Host", "space after the version", "400", "2xx +SMUGGLED", REQUEST_LINE_SHAPE),
            judged("4 request line and Host", "unknown method", "501 +SMUGGLED", "2xx +SMUGGLED", UNKNOWN_METHOD),
            judged("4 request line and Host", "lower-case get (methods are case-sensitive)", "501 +SMUGGLED", "400", UNKNOWN_METHOD),
            judged("4 request line and Host", "a 200-byte method", "501 +SMUGGLED", "2xx +SMUGGLED", UNKNOWN_METHOD),
            judged("4 request line and Host", "CONNECT to an origin server", "400 +SMUGGLED", "400", REFUSED_KEPT_ALIVE),
            judged("4 request line and Host", "version HTTP/1.2", "505", "2xx +SMUGGLED", VERSION),
            judged("4 request line and Host", "version HTTP/0.9 in a request line", "505", "400", VERSION),
            judged("4 request line and Host", "version HTTP/1.10", "400", "2xx +SMUGGLED", REQUEST_LINE_SHAPE),
            judged("4 request line and Host", "origin-form not starting with /", "400 +SMUGGLED", "400", REFUSED_KEPT_ALIVE),
            judged("4 request line and Host", "asterisk-form with GET", "400 +SMUGGLED", "400", REFUSED_KEPT_ALIVE),
            judged("4 request line and Host", "fragment in the target", "400", "2xx +SMUGGLED", TARGET_FORM),
            judged("4 request line and Host", "raw non-ASCII bytes in the path", "400", "404 +SMUGGLED", TARGET_FORM),
            judged("4 request line and Host", "backslash in the path", "400", "2xx +SMUGGLED", TARGET_FORM),
            judged("4 request line and Host", "invalid percent-encoding %zz", "400 +SMUGGLED", "400", REFUSED_KEPT_ALIVE),
            judged("4 request line and Host", "truncated percent-encoding %", "400 +SMUGGLED", "400", REFUSED_KEPT_ALIVE),
            judged("4 request line and Host", "truncated percent-encoding %2", "400 +SMUGGLED", "400", REFUSED_KEPT_ALIVE),
            judged("4 request line and Host", "percent-encoded NUL", "400 +SMUGGLED", "400", REFUSED_KEPT_ALIVE),
            judged("4 request line and Host", "invalid percent-encoding in the query", "400 +SMUGGLED", "2xx +SMUGGLED", TARGET_FORM),
            judged("4 request line and Host", "dot-dot segment", "400 +SMUGGLED", "2xx +SMUGGLED", DOT_SEGMENTS),
            judged("4 request line and Host", "dot segment", "400 +SMUGGLED", "2xx +SMUGGLED", DOT_SEGMENTS),
            judged("4 request line and Host", "encoded dot-dot segment %2e%2e", "400 +SMUGGLED", "2xx +SMUGGLED", DOT_SEGMENTS),
            judged("4 request line and Host", "encoded dot-dot segment %2E%2E", "400 +SMUGGLED", "2xx +SMUGGLED", DOT_SEGMENTS),
            judged("4 request line and Host", "half-encoded dot-dot segment .%2e", "400 +SMUGGLED", "2xx +SMUGGLED", DOT_SEGMENTS),
            judged("4 request line and Host", "encoded dot segment %2e", "400 +SMUGGLED", "2xx +SMUGGLED", DOT_SEGMENTS),
            judged("4 request line and Host", "dot-dot as the last segment", "400 +SMUGGLED", "404 +SMUGGLED", DOT_SEGMENTS),
            judged("4 request line and Host", "absolute-form with a non-HTTP scheme", "400 +SMUGGLED", "2xx +SMUGGLED", TARGET_FORM),
            judged("4 request line and Host", "absolute-form without an authority", "400 +SMUGGLED", "400", REFUSED_KEPT_ALIVE),
            judged("4 request line and Host", "authority-form with GET", "400 +SMUGGLED", "400", REFUSED_KEPT_ALIVE),
            judged("4 request line and Host", "userinfo in Host", "400", "2xx +SMUGGLED", HOST_SYNTAX),
            judged("4 request line and Host", "non-numeric port in Host", "400", "2xx +SMUGGLED", HOST_SYNTAX),
            judged("4 request line and Host", "unclosed IPv6 literal in Host", "400", "2xx +SMUGGLED", HOST_SYNTAX),
            judged("4 request line and Host", "empty Host", "2xx +SMUGGLED", "400", HOST_SYNTAX),
            judged("4 request line and Host", "OPTIONS *", "501 +SMUGGLED", "400", OPTIONS_STAR));

    private NginxDisagreements() {}

    /** @return the key of a case: its category and name */
    static String key(String category, String name) {
        return category + " / " + name;
    }

    private record Row(String key, Judged judged) {}

    private static Row judged(String category, String name, String tidemill, String nginx, Reason reason) {
        return new Row(key(category, name), new Judged(tidemill, nginx, reason));
    }

    private static Map<String, Judged> table(Row... rows) {
        Map<String, Judged> map = new LinkedHashMap<>();
        Stream.of(rows).forEach(r -> {
            if (map.put(r.key(), r.judged()) != null) throw new IllegalStateException("judged twice: " + r.key());
        });
        return Map.copyOf(map);
    }
}
