package dev.tidemill.testing;

import java.io.IOException;
import java.net.ProtocolException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The HTTP/1.1 response parser (RFC 9112). Strict about what a server must get right: CRLF line
 * ends, a token header name directly followed by a colon, no control bytes in values, no
 * obsolete line folding, consistent {@code Content-Length}, never both {@code Content-Length}
 * and {@code Transfer-Encoding} on a response with a body. A violation throws
 * {@link ProtocolException} so the test that met it fails with the reason.
 */
final class ResponseReader {
    static final int MAX_HEADERS = 1000;
    static final int MAX_INTERIM = 100;

    private ResponseReader() {}

    /** A status line and its header fields. */
    record Head(String version, int status, String reason, List<Map.Entry<String, String>> headers) {}

    /** How the body of a response is delimited. */
    enum Kind { NONE, LENGTH, CHUNKED, CLOSE, /** HTTP/2: DATA frames until END_STREAM */ FRAMES }

    /** @param length the Content-Length for {@link Kind#LENGTH} */
    record Framing(Kind kind, long length) {}

    /** Reads a complete response, skipping (and recording in {@code interim}) 1xx responses except 101. */
    static TestResponse read(HttpInput in, String method, List<Integer> interim) throws IOException {
        Head head = readFinalHead(in, interim);
        return readBody(in, method, head, interim);
    }

    /** Reads the body of a response whose head was read. */
    static TestResponse readBody(HttpInput in, String method, Head head, List<Integer> interim) throws IOException {
        Framing f = framing(head, method);
        List<Map.Entry<String, String>> trailers = new ArrayList<>();
        byte[] body;
        switch (f.kind()) {
            case NONE -> body = new byte[0];
            case LENGTH -> {
                in.context("the body (Content-Length: " + f.length() + ")");
                body = in.readExactly(f.length());
            }
            case CHUNKED -> {
                var out = new java.io.ByteArrayOutputStream();
                byte[] chunk;
                while ((chunk = readChunk(in, trailers)) != null) {
                    out.write(chunk);
                    if (out.size() > HttpInput.MAX_BODY) {
                        throw new ProtocolException("chunked body over the limit of " + HttpInput.MAX_BODY + " bytes");
                    }
                }
                body = out.toByteArray();
            }
            case CLOSE -> {
                in.context("a body delimited by the connection's close");
                body = in.readToEof(false);
            }
            default -> throw new AssertionError(f);
        }
        return new TestResponse(head.version(), head.status(), head.reason(), head.headers(), body,
                f.kind() == Kind.CHUNKED, trailers, interim);
    }

    /** Reads heads until a final one (not 1xx, or 101), recording the interim status codes. */
    static Head readFinalHead(HttpInput in, List<Integer> interim) throws IOException {
        while (true) {
            Head head = readHead(in);
            if (head.status() >= 200 || head.status() == 101) return head;
            interim.add(head.status());
            if (interim.size() > MAX_INTERIM) {
                throw new ProtocolException("more than " + MAX_INTERIM + " interim (1xx) responses");
            }
        }
    }

    /** Reads a status line and header fields. */
    static Head readHead(HttpInput in) throws IOException {
        in.context("the status line");
        String line = in.readLine();
        // status-line = HTTP-version SP status-code SP [ reason-phrase ]
        if (line.length() < 12 || !line.startsWith("HTTP/") || line.charAt(8) != ' '
                || !isDigit(line.charAt(5)) || line.charAt(6) != '.' || !isDigit(line.charAt(7))
                || !isDigit(line.charAt(9)) || !isDigit(line.charAt(10)) || !isDigit(line.charAt(11))
                || (line.length() > 12 && line.charAt(12) != ' ')) {
            throw new ProtocolException("malformed status line: " + quote(line));
        }
        String version = line.substring(0, 8);
        int status = Integer.parseInt(line.substring(9, 12));
        if (status < 100) throw new ProtocolException("status code below 100: " + quote(line));
        String reason = line.length() > 13 ? line.substring(13) : "";
        checkFieldValue(reason, "reason phrase", line);
        in.context("the headers of a " + status + " response");
        List<Map.Entry<String, String>> headers = readFields(in, "header");
        return new Head(version, status, reason, List.copyOf(headers));
    }

    /** Reads header (or trailer) field lines up to the empty line. */
    static List<Map.Entry<String, String>> readFields(HttpInput in, String what) throws IOException {
        List<Map.Entry<String, String>> fields = new ArrayList<>();
        while (true) {
            String line = in.readLine();
            if (line.isEmpty()) return fields;
            if (line.charAt(0) == ' ' || line.charAt(0) == '\t') {
                throw new ProtocolException("obsolete line folding in a " + what + ": " + quote(line));
            }
            int colon = line.indexOf(':');
            if (colon <= 0) throw new ProtocolException(what + " line without a name and colon: " + quote(line));
            String name = line.substring(0, colon);
            for (int i = 0; i < name.length(); i++) {
                if (!isTchar(name.charAt(i))) {
                    throw new ProtocolException(what + " name is not a token (whitespace before the colon?): "
                            + quote(line));
                }
            }
            String value = trimOws(line.substring(colon + 1));
            checkFieldValue(value, what + " " + name, line);
            fields.add(Map.entry(name, value));
            if (fields.size() > MAX_HEADERS) throw new ProtocolException("more than " + MAX_HEADERS + " " + what + "s");
        }
    }

    /**
     * Reads one chunk of a chunked body.
     *
     * @param trailers receives the trailer fields when the last chunk is read
     * @return the chunk's data, or null for the terminating zero-size chunk (trailers then read)
     */
    static byte[] readChunk(HttpInput in, List<Map.Entry<String, String>> trailers) throws IOException {
        in.context("a chunk-size line");
        String line = in.readLine();
        long size = parseChunkSize(line);
        if (size == 0) {
            in.context("the trailer section of a chunked body");
            trailers.addAll(readFields(in, "trailer"));
            return null;
        }
        in.context("a chunk of " + size + " bytes");
        byte[] data = in.readExactly(size);
        in.context("the CRLF after a chunk of " + size + " bytes");
        String end = in.readLine();
        if (!end.isEmpty()) {
            throw new ProtocolException("a chunk of declared size " + size + " is followed by more data: "
                    + quote(end.length() > 60 ? end.substring(0, 60) + "..." : end));
        }
        return data;
    }

    /** chunk-size [ BWS ";" chunk-ext ] — hex digits, optional extensions. */
    static long parseChunkSize(String line) throws ProtocolException {
        int semi = line.indexOf(';');
        String hex = semi >= 0 ? line.substring(0, semi) : line;
        int end = hex.length();
        while (end > 0 && (hex.charAt(end - 1) == ' ' || hex.charAt(end - 1) == '\t')) end--;
        hex = hex.substring(0, end);
        if (hex.isEmpty() || hex.length() > 15) throw new ProtocolException("malformed chunk size line: " + quote(line));
        long size = 0;
        for (int i = 0; i < hex.length(); i++) {
            int d = Character.digit(hex.charAt(i), 16);
            if (d < 0) throw new ProtocolException("malformed chunk size line: " + quote(line));
            size = size * 16 + d;
        }
        if (semi >= 0) checkFieldValue(line.substring(semi), "chunk extension", line);
        return size;
    }

    /** Decides how the body is delimited (RFC 9112 section 6.3). */
    static Framing framing(Head head, String method) throws ProtocolException {
        int s = head.status();
        if ("HEAD".equalsIgnoreCase(method) || s < 200 || s == 204 || s == 304
                || ("CONNECT".equalsIgnoreCase(method) && s < 300)) {
            return new Framing(Kind.NONE, 0);
        }
        List<String> te = values(head.headers(), "Transfer-Encoding");
        List<String> cl = values(head.headers(), "Content-Length");
        if (!te.isEmpty()) {
            if (!cl.isEmpty()) {
                throw new ProtocolException("response has both Transfer-Encoding and Content-Length (RFC 9112 6.1: "
                        + "a server must not send both)");
            }
            List<String> codings = new ArrayList<>();
            for (String v : te) {
                for (String c : v.split(",", -1)) {
                    String t = c.trim().toLowerCase(Locale.ROOT);
                    if (!t.isEmpty()) codings.add(t);
                }
            }
            if (!codings.isEmpty() && codings.get(codings.size() - 1).equals("chunked")) {
                if (codings.indexOf("chunked") != codings.size() - 1) {
                    throw new ProtocolException("chunked applied more than once: Transfer-Encoding " + te);
                }
                return new Framing(Kind.CHUNKED, 0);
            }
            return new Framing(Kind.CLOSE, 0);
        }
        if (!cl.isEmpty()) {
            long length = -1;
            for (String v : cl) {
                for (String part : v.split(",", -1)) {
                    String p = part.trim();
                    if (p.isEmpty() || p.length() > 18 || !p.chars().allMatch(ResponseReader::isDigit)) {
                        throw new ProtocolException("invalid Content-Length: " + cl);
                    }
                    long n = Long.parseLong(p);
                    if (length >= 0 && n != length) throw new ProtocolException("conflicting Content-Length values: " + cl);
                    length = n;
                }
            }
            return new Framing(Kind.LENGTH, length);
        }
        return new Framing(Kind.CLOSE, 0);
    }

    static List<String> values(List<Map.Entry<String, String>> fields, String name) {
        List<String> out = new ArrayList<>();
        for (Map.Entry<String, String> e : fields) {
            if (e.getKey().equalsIgnoreCase(name)) out.add(e.getValue());
        }
        return out;
    }

    private static void checkFieldValue(String value, String what, String line) throws ProtocolException {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if ((c < 0x20 && c != '\t') || c == 0x7f) {
                throw new ProtocolException("control character 0x" + Integer.toHexString(c) + " in " + what + ": "
                        + quote(line));
            }
        }
    }

    private static String trimOws(String s) {
        int a = 0;
        int b = s.length();
        while (a < b && (s.charAt(a) == ' ' || s.charAt(a) == '\t')) a++;
        while (b > a && (s.charAt(b - 1) == ' ' || s.charAt(b - 1) == '\t')) b--;
        return s.substring(a, b);
    }

    static boolean isDigit(int c) {
        return c >= '0' && c <= '9';
    }

    static boolean isTchar(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                || "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
    }

    private static String quote(String s) {
        byte[] b = s.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
        return HttpInput.preview(b, 0, b.length);
    }
}
