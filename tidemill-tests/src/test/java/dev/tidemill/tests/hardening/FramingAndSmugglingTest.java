package dev.tidemill.tests.hardening;

import static dev.tidemill.tests.hardening.Cases.chunked;
import static dev.tidemill.tests.hardening.Cases.post;
import static dev.tidemill.tests.hardening.Cases.refused;
import static dev.tidemill.tests.hardening.Cases.served;

import dev.tidemill.Transport;
import dev.tidemill.tests.support.Setup;
import java.util.EnumMap;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Category 1, framing and request smuggling: every way a front end and Tidemill could disagree on
 * where a request ends. Ambiguous framing is refused with 400 and the connection closed, and the
 * request smuggled behind it in the same write never runs. Runs on every transport, since each
 * hands the decoder its bytes in different slices.
 */
@Timeout(300)
class FramingAndSmugglingTest {
    static final String CAT = "1 framing and smuggling";
    private static final Map<Transport, HostileServer> SERVERS = new EnumMap<>(Transport.class);

    static Stream<HostileCase> cases() {
        return Stream.of(
                // Content-Length together with Transfer-Encoding
                refused(CAT, "Content-Length then Transfer-Encoding: chunked", "RFC 9112 6.3 (3); CVE-2019-20445 (Netty)",
                        post("Content-Length: 5\r\nTransfer-Encoding: chunked\r\n", "0\r\n\r\n"), 400),
                refused(CAT, "Transfer-Encoding: chunked then Content-Length", "RFC 9112 6.3 (3); CVE-2019-20445 (Netty)",
                        post("Transfer-Encoding: chunked\r\nContent-Length: 5\r\n", "0\r\n\r\n"), 400),
                refused(CAT, "Content-Length: 0 with Transfer-Encoding: chunked", "RFC 9112 6.3 (3)",
                        post("Content-Length: 0\r\nTransfer-Encoding: chunked\r\n", "5\r\nhello\r\n0\r\n\r\n"), 400),
                refused(CAT, "Transfer-Encoding with Content-Length on HTTP/1.0",
                        "RFC 9112 6.1: HTTP/1.0 with Transfer-Encoding is faulty framing",
                        "POST /echo HTTP/1.0\r\nConnection: keep-alive\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\nhello", 400),
                // Transfer-Encoding whose final coding is not chunked, or is unknown
                refused(CAT, "Transfer-Encoding: chunked, identity", "RFC 9112 6.3 (4): chunked must be final",
                        post("Transfer-Encoding: chunked, identity\r\n", "0\r\n\r\n"), 400),
                refused(CAT, "Transfer-Encoding: identity", "RFC 9112 6.3 (4); RFC 7230 removed identity",
                        post("Transfer-Encoding: identity\r\n", "hello"), 400),
                refused(CAT, "Transfer-Encoding: gzip", "RFC 9112 6.3 (4)",
                        post("Transfer-Encoding: gzip\r\n", ""), 400),
                refused(CAT, "Transfer-Encoding: gzip with Content-Length", "RFC 9112 6.3 (3, 4)",
                        post("Transfer-Encoding: gzip\r\nContent-Length: 5\r\n", "hello"), 400),
                refused(CAT, "Transfer-Encoding: xchunked", "RFC 9112 6.3 (4); PortSwigger TE.TE obfuscation",
                        post("Transfer-Encoding: xchunked\r\n", "5\r\nhello\r\n0\r\n\r\n"), 400),
                refused(CAT, "Transfer-Encoding: chunkedx", "RFC 9112 6.3 (4); PortSwigger TE.TE obfuscation",
                        post("Transfer-Encoding: chunkedx\r\n", "5\r\nhello\r\n0\r\n\r\n"), 400),
                refused(CAT, "Transfer-Encoding: chunked, chunked", "RFC 9112 6.1: chunked applied at most once",
                        post("Transfer-Encoding: chunked, chunked\r\n", "0\r\n\r\n"), 400),
                refused(CAT, "Transfer-Encoding: chunked;ext=1", "RFC 9112 7.1: chunked has no parameters",
                        post("Transfer-Encoding: chunked;ext=1\r\n", "0\r\n\r\n"), 400),
                refused(CAT, "Transfer-Encoding with a NUL after chunked", "RFC 9110 5.5: NUL in a field value",
                        post("Transfer-Encoding: chunked\u0000\r\n", "0\r\n\r\n"), 400),
                refused(CAT, "Transfer-Encoding with a vertical tab before chunked", "PortSwigger TE.TE obfuscation",
                        post("Transfer-Encoding:\u000bchunked\r\n", "0\r\n\r\n"), 400),
                refused(CAT, "Transfer-Encoding empty", "RFC 9112 6.1: transfer-coding is a token",
                        post("Transfer-Encoding: \r\n", ""), 400),
                // split, duplicated, disguised Transfer-Encoding fields
                refused(CAT, "two Transfer-Encoding: chunked fields", "RFC 9112 6.1; PortSwigger TE.TE",
                        post("Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n", "0\r\n\r\n"), 400),
                refused(CAT, "Transfer-Encoding split: chunked then identity", "RFC 9112 6.3 (4); PortSwigger TE.TE",
                        post("Transfer-Encoding: chunked\r\nTransfer-Encoding: identity\r\n", "0\r\n\r\n"), 400),
                refused(CAT, "Transfer-Encoding split: identity then chunked", "RFC 9112 6.1; PortSwigger TE.TE",
                        post("Transfer-Encoding: identity\r\nTransfer-Encoding: chunked\r\n", "0\r\n\r\n"), 400),
                refused(CAT, "space before the Transfer-Encoding colon", "RFC 9112 5.1; CVE-2019-16276 (Go)",
                        post("Transfer-Encoding : chunked\r\n", "0\r\n\r\n"), 400),
                refused(CAT, "tab before the Transfer-Encoding colon", "RFC 9112 5.1",
                        post("Transfer-Encoding\t: chunked\r\n", "0\r\n\r\n"), 400),
                refused(CAT, "space before the Transfer-Encoding name", "RFC 9112 2.2 and 5.2; CVE-2020-7238 (Netty)",
                        post(" Transfer-Encoding: chunked\r\nContent-Length: 5\r\n", "hello"), 400),
                refused(CAT, "obs-folded Transfer-Encoding value", "RFC 9112 5.2; CVE-2022-32215 (llhttp)",
                        post("Transfer-Encoding: identity\r\n chunked\r\n", "0\r\n\r\n"), 400),
                refused(CAT, "Transfer-Encoding on HTTP/1.0", "RFC 9112 6.1",
                        "POST /echo HTTP/1.0\r\nConnection: keep-alive\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400),
                served(CAT, "Transfer_Encoding (underscore) is just another header", "'_' is a tchar; never mapped to "
                        + "Transfer-Encoding (CGI-style normalisation is a known smuggling vector)",
                        post("Transfer_Encoding: chunked\r\nContent-Length: 5\r\n", "0\r\n\r\n")),
                // Content-Length values
                refused(CAT, "duplicate Content-Length, same value", "RFC 9110 8.6 (a recipient may reject); CVE-2019-20445",
                        post("Content-Length: 5\r\nContent-Length: 5\r\n", "hello"), 400),
                refused(CAT, "duplicate Content-Length, different values", "RFC 9112 6.3 (5)",
                        post("Content-Length: 5\r\nContent-Length: 0\r\n", "hello"), 400),
                refused(CAT, "Content-Length list 5, 5", "RFC 9110 8.6",
                        post("Content-Length: 5, 5\r\n", "hello"), 400),
                refused(CAT, "Content-Length list 5, 0", "RFC 9112 6.3 (5)",
                        post("Content-Length: 5, 0\r\n", "hello"), 400),
                refused(CAT, "duplicate Content-Length on HTTP/1.0 keep-alive, different values", "RFC 9112 6.3 (5)",
                        "POST /echo HTTP/1.0\r\nConnection: keep-alive\r\nContent-Length: 5\r\nContent-Length: 0\r\n\r\nhello", 400),
                refused(CAT, "duplicate Content-Length on HTTP/1.0 keep-alive, same value", "RFC 9110 8.6",
                        "POST /echo HTTP/1.0\r\nConnection: keep-alive\r\nContent-Length: 5\r\nContent-Length: 5\r\n\r\nhello", 400),
                refused(CAT, "Content-Length: +5", "RFC 9110 8.6: 1*DIGIT; CVE-2022-24761 (Waitress)",
                        post("Content-Length: +5\r\n", "hello"), 400),
                refused(CAT, "Content-Length: -1", "RFC 9110 8.6: 1*DIGIT",
                        post("Content-Length: -1\r\n", ""), 400),
                refused(CAT, "Content-Length: 0x10", "RFC 9110 8.6: 1*DIGIT; CVE-2022-24761 (Waitress)",
                        post("Content-Length: 0x10\r\n", "0123456789abcdef"), 400),
                refused(CAT, "Content-Length: 5.0", "RFC 9110 8.6: 1*DIGIT",
                        post("Content-Length: 5.0\r\n", "hello"), 400),
                refused(CAT, "Content-Length: 1e1", "RFC 9110 8.6: 1*DIGIT",
                        post("Content-Length: 1e1\r\n", "helloworld"), 400),
                refused(CAT, "Content-Length: 5 5", "RFC 9110 8.6",
                        post("Content-Length: 5 5\r\n", "hello"), 400),
                refused(CAT, "Content-Length: 1_0", "RFC 9110 8.6; CVE-2022-24761 (Waitress)",
                        post("Content-Length: 1_0\r\n", "helloworld"), 400),
                refused(CAT, "Content-Length: abc", "RFC 9110 8.6",
                        post("Content-Length: abc\r\n", ""), 400),
                refused(CAT, "Content-Length empty", "RFC 9110 8.6; CVE-2023-40225 (HAProxy)",
                        post("Content-Length: \r\n", "hello"), 400),
                refused(CAT, "Content-Length with a NUL", "RFC 9110 5.5",
                        post("Content-Length: 5\u0000\r\n", "hello"), 400),
                refused(CAT, "Content-Length over 2^63", "RFC 9110 8.6: overflow must not wrap",
                        post("Content-Length: 99999999999999999999\r\n", ""), 400),
                refused(CAT, "Content-Length 2^64 (wraps to 0 in 64-bit arithmetic)", "RFC 9110 8.6: overflow must not wrap",
                        post("Content-Length: 18446744073709551616\r\n", "hello"), 400),
                refused(CAT, "space before the Content-Length colon", "RFC 9112 5.1; CVE-2019-16276 (Go)",
                        post("Content-Length : 5\r\n", "hello"), 400),
                refused(CAT, "obs-folded Content-Length", "RFC 9112 5.2",
                        post("Content-Length: 5\r\n 0\r\n", "hello"), 400),
                // well-formed framing that looks odd: must be served, and must end where we think it ends
                served(CAT, "Transfer-Encoding: Chunked (case-insensitive coding)", "RFC 9112 7: coding names are case-insensitive",
                        post("Transfer-Encoding: Chunked\r\n", "1\r\nz\r\n0\r\n\r\n")),
                served(CAT, "Transfer-Encoding with spaces around the value", "RFC 9110 5.5: OWS is not part of the value",
                        post("Transfer-Encoding:   chunked  \r\n", "1\r\nz\r\n0\r\n\r\n")),
                served(CAT, "Content-Length with leading zeros", "RFC 9110 8.6: 1*DIGIT",
                        post("Content-Length: 005\r\n", "hello")),
                served(CAT, "Content-Length without a space after the colon", "RFC 9112 5: OWS",
                        post("Content-Length:5\r\n", "hello")),
                served(CAT, "chunked body holding the bytes of another request", "the smuggling probe must stay data",
                        chunked("23\r\nGET /smuggled HTTP/1.1\r\nHost: x\r\n\r\n\r\n0\r\n\r\n")),
                served(CAT, "Content-Length body holding the bytes of another request", "the smuggling probe must stay data",
                        post("Content-Length: 35\r\n", "GET /smuggled HTTP/1.1\r\nHost: x\r\n\r\n")),
                served(CAT, "HTTP/1.0 keep-alive with Content-Length", "RFC 9112 9.3",
                        "POST /echo HTTP/1.0\r\nConnection: keep-alive\r\nContent-Length: 5\r\n\r\nhello"));
    }

    static Stream<Arguments> transportsAndCases() {
        return Setup.transports().flatMap(s -> cases().map(c -> Arguments.of(s, c)));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("transportsAndCases")
    void hostileFraming(Setup setup, HostileCase c) {
        CaseRunner.check(SERVERS.computeIfAbsent(setup.transport(), t -> new HostileServer(setup)), c);
    }

    @AfterAll
    static void stop() {
        SERVERS.values().forEach(HostileServer::close);
        SERVERS.clear();
    }
}
