package dev.tidemill.tests.hardening;

import dev.tidemill.tests.hardening.HostileCase.Close;

/** Builders for the case tables: every table reads as bytes, status, close, source. */
final class Cases {
    private Cases() {}

    /** A malformed request: answered with {@code status}, then the connection closes. */
    static HostileCase refused(String category, String name, String source, String bytes, int status) {
        return new HostileCase(category, name, source, bytes, status, Close.MUST);
    }

    /** A malformed request the server may answer with a 4xx or just close. */
    static HostileCase refusedOrClosed(String category, String name, String source, String bytes) {
        return new HostileCase(category, name, source, bytes, HostileCase.REFUSED_OR_CLOSED, Close.MUST);
    }

    /** A valid (if unusual) request: answered 200, and the connection stays usable. */
    static HostileCase served(String category, String name, String source, String bytes) {
        return new HostileCase(category, name, source, bytes, 200, Close.MUST_NOT);
    }

    /** A well-framed request answered with {@code status}; the connection stays usable. */
    static HostileCase answered(String category, String name, String source, String bytes, int status) {
        return new HostileCase(category, name, source, bytes, status, Close.MUST_NOT);
    }

    /** {@code METHOD target HTTP/1.1}, {@code Host: x}, the given header lines (each ending CRLF), a blank line, the body. */
    static String request(String method, String target, String headerLines, String body) {
        return method + " " + target + " HTTP/1.1\r\nHost: x\r\n" + headerLines + "\r\n" + body;
    }

    /** A POST to {@code /echo} with the given header lines and body. */
    static String post(String headerLines, String body) {
        return request("POST", "/echo", headerLines, body);
    }

    /** A chunked POST to {@code /echo} with the given (raw) chunked body. */
    static String chunked(String body) {
        return post("Transfer-Encoding: chunked\r\n", body);
    }

    /** A GET of {@code /echo} with one extra header line (given without its CRLF). */
    static String withHeader(String line) {
        return request("GET", "/echo", line + "\r\n", "");
    }

    /** {@code n} copies of {@code s}. */
    static String repeat(String s, int n) {
        return s.repeat(n);
    }
}
