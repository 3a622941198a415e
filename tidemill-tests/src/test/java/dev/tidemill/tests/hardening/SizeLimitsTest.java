package dev.tidemill.tests.hardening;

import static dev.tidemill.tests.hardening.Cases.post;
import static dev.tidemill.tests.hardening.Cases.refused;
import static dev.tidemill.tests.hardening.Cases.served;

import dev.tidemill.Limits;
import java.util.stream.Stream;

/**
 * Category 5, sizes, at the default limits ({@link Limits#DEFAULTS}): the request line, the header
 * block, the header count and the body, each at its limit (served) and one past it (refused with
 * the status that names it). A declared body over the limit is refused before any of it is sent,
 * and a huge declared length is never allocated: the cases send no body at all. A client still
 * sending megabytes when it is refused gets the answer, not a reset: the server closes in stages
 * (its FIN after the answer, then it reads and discards until the client closes; see
 * {@code LingeringClose}).
 */
class SizeLimitsTest extends CaseTable {
    static final String CAT = "5 sizes";
    private static final Limits L = Limits.DEFAULTS;

    /** A request line of exactly {@code length} bytes (without CRLF): {@code GET /echo?p=aaa... HTTP/1.1}. */
    private static String requestLine(int length) {
        String head = "GET /echo?p=";
        String tail = " HTTP/1.1";
        return head + "a".repeat(length - head.length() - tail.length()) + tail;
    }

    /** A header block of {@code count} fields (Host included) whose field bytes (names + values) total about {@code bytes}. */
    private static String headers(int count, int bytes) {
        StringBuilder b = new StringBuilder("Host: x\r\n");
        int each = Math.max(1, (bytes - 5) / Math.max(1, count - 1));
        for (int i = 1; i < count; i++) {
            String name = String.format("X-H%04d", i);
            b.append(name).append(": ").append("v".repeat(Math.max(1, each - name.length()))).append("\r\n");
        }
        return b.toString();
    }

    static Stream<HostileCase> cases() {
        return Stream.of(
                served(CAT, "request line at the limit", "Limits.maxRequestLineBytes",
                        requestLine(L.maxRequestLineBytes()) + "\r\nHost: x\r\n\r\n"),
                refused(CAT, "request line one byte past the limit", "Limits.maxRequestLineBytes; RFC 9112 3 (414)",
                        requestLine(L.maxRequestLineBytes() + 1) + "\r\nHost: x\r\n\r\n", 414),
                refused(CAT, "a 1 MiB request line", "Limits.maxRequestLineBytes; RFC 9112 3 (414); RFC 9112 9.6",
                        requestLine(1 << 20) + "\r\nHost: x\r\n\r\n", 414),
                served(CAT, "header count at the limit", "Limits.maxHeaderCount",
                        "GET /echo HTTP/1.1\r\n" + headers(L.maxHeaderCount(), 2_000) + "\r\n"),
                refused(CAT, "header count one past the limit", "Limits.maxHeaderCount; RFC 6585 5 (431)",
                        "GET /echo HTTP/1.1\r\n" + headers(L.maxHeaderCount() + 1, 2_000) + "\r\n", 431),
                refused(CAT, "10,000 tiny headers", "Limits.maxHeaderCount; RFC 6585 5 (431); RFC 9112 9.6",
                        "GET /echo HTTP/1.1\r\nHost: x\r\n" + "a: b\r\n".repeat(10_000) + "\r\n", 431),
                refused(CAT, "one header value over the header block limit", "Limits.maxHeaderBytes; RFC 6585 5 (431)",
                        "GET /echo HTTP/1.1\r\nHost: x\r\nX-Big: " + "v".repeat(L.maxHeaderBytes() + 1) + "\r\n\r\n", 431),
                refused(CAT, "header block over the limit in many fields", "Limits.maxHeaderBytes; RFC 6585 5 (431)",
                        "GET /echo HTTP/1.1\r\n" + headers(50, L.maxHeaderBytes() + 2_000) + "\r\n", 431),
                refused(CAT, "a 1 MiB header value", "Limits.maxHeaderBytes; RFC 6585 5 (431); RFC 9112 9.6",
                        "GET /echo HTTP/1.1\r\nHost: x\r\nX-Big: " + "v".repeat(1 << 20) + "\r\n\r\n", 431),
                served(CAT, "header block just under the limit", "Limits.maxHeaderBytes",
                        "GET /echo HTTP/1.1\r\n" + headers(20, L.maxHeaderBytes() - 1_000) + "\r\n"),
                refused(CAT, "declared body one byte over the limit, none sent", "Limits.maxBodyBytes; RFC 9110 15.5.14 (413)",
                        post("Content-Length: " + (L.maxBodyBytes() + 1) + "\r\n", ""), 413),
                refused(CAT, "declared body over the limit, 4 MiB of it sent anyway", "Limits.maxBodyBytes; RFC 9112 9.6 (staged close)",
                        post("Content-Length: " + (L.maxBodyBytes() + 1) + "\r\n", "a".repeat(4 << 20)), 413),
                refused(CAT, "declared body of 2^62 bytes, none sent (never allocated)", "Limits.maxBodyBytes",
                        post("Content-Length: " + (1L << 62) + "\r\n", ""), 413),
                refused(CAT, "declared body of Long.MAX_VALUE, none sent", "Limits.maxBodyBytes",
                        post("Content-Length: " + Long.MAX_VALUE + "\r\n", ""), 413),
                // A chunked body counts against the limit byte by byte as it arrives (the decoder does
                // not expose a chunk's declared size): an announced chunk that never comes is cut by
                // the body-stall timeout, with nothing allocated for it.
                refused(CAT, "chunk size over the body limit, data not sent", "Limits.maxBodyBytes; Timeouts.bodyStall",
                        post("Transfer-Encoding: chunked\r\n", Long.toHexString(L.maxBodyBytes() + 1) + "\r\n"), 408),
                refused(CAT, "chunk data past the body limit", "Limits.maxBodyBytes",
                        post("Transfer-Encoding: chunked\r\n", Long.toHexString(L.maxBodyBytes() + 1) + "\r\n"
                                + "a".repeat((int) L.maxBodyBytes() + 1) + "\r\n0\r\n\r\n"), 413),
                refused(CAT, "chunk size of 2^62 (past what the decoder accepts)", "RFC 9112 7.1",
                        post("Transfer-Encoding: chunked\r\n", Long.toHexString(1L << 62) + "\r\n"), 400));
    }
}
