package dev.tidemill.tests.hardening;

import static dev.tidemill.tests.hardening.Cases.chunked;
import static dev.tidemill.tests.hardening.Cases.refused;
import static dev.tidemill.tests.hardening.Cases.served;

import java.util.stream.Stream;

/**
 * Category 3, chunked request bodies: chunk sizes only a lenient integer parser accepts, chunk
 * extensions hiding line terminators, chunk data of the wrong length, trailers. A chunked body we
 * cannot frame exactly is refused with 400 and the connection closed.
 */
class MalformedChunkedBodyTest extends CaseTable {
    static final String CAT = "3 chunked bodies";

    static Stream<HostileCase> cases() {
        return Stream.of(
                // chunk sizes
                refused(CAT, "chunk size 0x5", "RFC 9112 7.1: 1*HEXDIG; CVE-2022-24761 (Waitress)", chunked("0x5\r\nhello\r\n0\r\n\r\n"), 400),
                refused(CAT, "chunk size +5", "RFC 9112 7.1; CVE-2022-24761 (Waitress)", chunked("+5\r\nhello\r\n0\r\n\r\n"), 400),
                refused(CAT, "chunk size -5", "RFC 9112 7.1", chunked("-5\r\nhello\r\n0\r\n\r\n"), 400),
                refused(CAT, "chunk size 1_0", "RFC 9112 7.1; CVE-2022-24761 (Waitress)",
                        chunked("1_0\r\nhelloworld123456\r\n0\r\n\r\n"), 400),
                refused(CAT, "chunk size with a leading space", "RFC 9112 7.1", chunked(" 5\r\nhello\r\n0\r\n\r\n"), 400),
                refused(CAT, "chunk size not hex", "RFC 9112 7.1", chunked("g\r\nhello\r\n0\r\n\r\n"), 400),
                refused(CAT, "chunk size empty", "RFC 9112 7.1", chunked("\r\nhello\r\n0\r\n\r\n"), 400),
                refused(CAT, "chunk size digits then junk", "RFC 9112 7.1; apache/trafficserver#10580",
                        chunked("1these-bytes-never-get-validated\r\nZ\r\n0\r\n\r\n"), 400),
                refused(CAT, "chunk size overflowing 64 bits", "RFC 9112 7.1: overflow must not wrap",
                        chunked("10000000000000005\r\nhello\r\n0\r\n\r\n"), 400),
                refused(CAT, "chunk size of 2^64 - 1", "RFC 9112 7.1",
                        chunked("ffffffffffffffff\r\nhello\r\n0\r\n\r\n"), 400),
                // line terminators in chunk lines
                refused(CAT, "chunk size line ending in a bare LF", "RFC 9112 7.1; CVE-2025-22871 (Go net/http)",
                        chunked("5\nhello\r\n0\r\n\r\n"), 400),
                refused(CAT, "chunk size line ending in a bare CR", "RFC 9112 2.2",
                        chunked("5\rhello\r\n0\r\n\r\n"), 400),
                refused(CAT, "chunk extension ending in a bare LF", "RFC 9112 7.1.1; CVE-2025-55315 (Kestrel)",
                        chunked("5;\nhello\r\n0\r\n\r\n"), 400),
                refused(CAT, "chunk extension with a bare LF inside", "RFC 9112 7.1.1; CVE-2025-58056 (Netty)",
                        chunked("5;a\nb\r\nhello\r\n0\r\n\r\n"), 400),
                refused(CAT, "chunk extension with a bare CR inside", "RFC 9112 2.2", chunked("5;a\rb\r\nhello\r\n0\r\n\r\n"), 400),
                refused(CAT, "chunk extension with a quoted CRLF", "RFC 9112 7.1.1: quoted-string has no CR or LF",
                        chunked("5;a=\"x\r\n\"\r\nhello\r\n0\r\n\r\n"), 400),
                refused(CAT, "chunk extension with a NUL", "RFC 9112 7.1.1: token", chunked("5;a\u0000\r\nhello\r\n0\r\n\r\n"), 400),
                // chunk data of the wrong length
                refused(CAT, "chunk data missing its CRLF", "RFC 9112 7.1", chunked("5\r\nhello0\r\n\r\n"), 400),
                refused(CAT, "chunk data ending in a bare LF", "RFC 9112 7.1", chunked("5\r\nhello\n0\r\n\r\n"), 400),
                refused(CAT, "chunk data longer than its size", "RFC 9112 7.1", chunked("3\r\nhello\r\n0\r\n\r\n"), 400),
                refused(CAT, "chunk data shorter than its size", "RFC 9112 7.1", chunked("7\r\nhello\r\n0\r\n\r\n"), 400),
                // last chunk and trailers
                refused(CAT, "last chunk without the final CRLF, next request behind it", "RFC 9112 7.1; oven-sh/bun#29732",
                        chunked("5\r\nhello\r\n0\r\n"), 400),
                refused(CAT, "last chunk followed by two junk bytes", "RFC 9112 7.1; oven-sh/bun#29732",
                        chunked("5\r\nhello\r\n0\r\nXX"), 400),
                refused(CAT, "trailer without a colon", "RFC 9112 7.1.2", chunked("0\r\nX-T v\r\n\r\n"), 400),
                refused(CAT, "trailer ending in a bare LF", "RFC 9112 2.2", chunked("0\r\nX-T: v\n\r\n"), 400),
                served(CAT, "obs-folded trailer (unfolded; trailers are discarded)", "RFC 9112 5.2: reject or replace with SP; "
                        + "the empty line still ends the message for every parser", chunked("0\r\nX-T: v\r\n w\r\n\r\n")),
                refused(CAT, "trailer section larger than the header limit", "CVE-2023-46589 (Tomcat): refused whole, never "
                        + "read as a second request", chunked("0\r\nX-T: " + "a".repeat(20_000) + "\r\n\r\n"), 431),
                // valid: must be served and end where we think
                served(CAT, "chunk extension with a token value", "RFC 9112 7.1.1: extensions are ignored",
                        chunked("5;name=value\r\nhello\r\n0\r\n\r\n")),
                served(CAT, "chunk extension with a quoted value", "RFC 9112 7.1.1", chunked("5;name=\"v a l\"\r\nhello\r\n0\r\n\r\n")),
                served(CAT, "chunk extension on the last chunk", "RFC 9112 7.1", chunked("5\r\nhello\r\n0;end\r\n\r\n")),
                served(CAT, "last chunk written as 000", "RFC 9112 7.1: last-chunk = 1*\"0\"", chunked("5\r\nhello\r\n000\r\n\r\n")),
                served(CAT, "chunk size with leading zeros", "RFC 9112 7.1", chunked("0005\r\nhello\r\n0\r\n\r\n")),
                served(CAT, "upper-case hex chunk size", "RFC 9112 7.1: HEXDIG is case-insensitive", chunked("A\r\nhelloworld\r\n0\r\n\r\n")),
                served(CAT, "a trailer field", "RFC 9112 7.1.2", chunked("5\r\nhello\r\n0\r\nX-T: v\r\n\r\n")),
                served(CAT, "framing fields in trailers are ignored", "RFC 9110 6.5.1: never merged with the header",
                        chunked("5\r\nhello\r\n0\r\nContent-Length: 50\r\nTransfer-Encoding: chunked\r\n\r\n")),
                served(CAT, "many one-byte chunks", "RFC 9112 7.1", chunked("1\r\na\r\n".repeat(500) + "0\r\n\r\n")));
    }
}
