package dev.tidemill.testing;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * An HTTP/1.1 request for {@link TestClient}, {@link Connection#send} and
 * {@link Connection#pipeline}. Immutable: every {@code with}-style method returns a new request.
 *
 * <p>When it is sent, the client adds {@code Host: <host>:<port>} unless a {@code Host} header is
 * set here, and {@code Content-Length} for a body unless {@code Content-Length} or
 * {@code Transfer-Encoding} is set here. Headers are sent in the order given, duplicates included,
 * exactly as given (no validation, so a test can send odd values); the request line and header
 * section are encoded as UTF-8. For bytes that are not a well-formed request at all, use
 * {@link RawConnection}.
 *
 * <pre>{@code
 * TestRequest.of("PUT", "/items/7").header("If-Match", "\"v3\"").json(new Item("pen"))
 * }</pre>
 *
 * @param method the method, sent as given, e.g. {@code GET}
 * @param path the request target, sent as given, e.g. {@code /items?id=7}
 * @param headers header fields in order; {@code Host} and {@code Content-Length} are added when sent
 *     if absent
 * @param body the body, or null for a request without one; for {@link #chunked(List)} the already
 *     chunk-encoded bytes
 */
public record TestRequest(String method, String path, List<Map.Entry<String, String>> headers, byte[] body) {

    /**
     * Checks for nulls and copies the header list.
     *
     * @param method the method
     * @param path the request target
     * @param headers header fields
     * @param body the body or null
     */
    public TestRequest {
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(headers, "headers");
        List<Map.Entry<String, String>> copy = new ArrayList<>(headers.size());
        for (Map.Entry<String, String> e : headers) {
            copy.add(Map.entry(e.getKey(), e.getValue())); // throws on null name or value
        }
        headers = List.copyOf(copy);
    }

    /**
     * @param path the request target, e.g. {@code /hello}
     * @return a GET request without headers
     */
    public static TestRequest get(String path) {
        return of("GET", path);
    }

    /**
     * @param method any method, e.g. {@code PURGE}
     * @param path the request target
     * @return a request without headers or body
     */
    public static TestRequest of(String method, String path) {
        return new TestRequest(method, path, List.of(), null);
    }

    /**
     * Adds a header field after the existing ones (a second field of the same name is kept, so
     * duplicates can be tested).
     *
     * @param name the field name
     * @param value the field value
     * @return a copy with the field added
     */
    public TestRequest header(String name, String value) {
        List<Map.Entry<String, String>> h = new ArrayList<>(headers);
        h.add(Map.entry(name, value));
        return new TestRequest(method, path, h, body);
    }

    /**
     * Sets the body and its {@code Content-Type} (replacing any {@code Content-Type} set before).
     *
     * @param contentType the media type, e.g. {@code application/octet-stream}
     * @param body the bytes (not copied)
     * @return a copy with that body
     */
    public TestRequest body(String contentType, byte[] body) {
        Objects.requireNonNull(contentType, "contentType");
        Objects.requireNonNull(body, "body");
        List<Map.Entry<String, String>> h = without(headers, "Content-Type");
        h.add(Map.entry("Content-Type", contentType));
        return new TestRequest(method, path, h, body);
    }

    /**
     * Sets a text body, encoded as UTF-8.
     *
     * @param contentType the media type, e.g. {@code text/plain; charset=utf-8}
     * @param text the body text
     * @return a copy with that body
     */
    public TestRequest body(String contentType, String text) {
        return body(contentType, text.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Sets a JSON body serialised with Jackson 3, with {@code Content-Type: application/json}.
     *
     * @param value a record, collection, map or scalar
     * @return a copy with that body
     */
    public TestRequest json(Object value) {
        return body("application/json", Json.MAPPER.writeValueAsBytes(value));
    }

    /**
     * Sets a {@code multipart/form-data} body and its {@code Content-Type} with the boundary.
     *
     * @param form the form
     * @return a copy with that body
     */
    public TestRequest multipart(MultipartBody form) {
        return body(form.contentType(), form.toBytes());
    }

    /**
     * Sends the body with {@code Transfer-Encoding: chunked}, one HTTP chunk per element (empty
     * elements are skipped, since a zero-size chunk ends the body), then the last chunk. Replaces
     * any {@code Transfer-Encoding} and {@code Content-Length} set before; keeps
     * {@code Content-Type}.
     *
     * @param chunks the body in pieces
     * @return a copy with that body
     */
    public TestRequest chunked(List<byte[]> chunks) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] c : chunks) {
            if (c.length == 0) continue;
            out.writeBytes((Integer.toHexString(c.length) + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
            out.writeBytes(c);
            out.writeBytes(CRLF);
        }
        out.writeBytes("0\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
        List<Map.Entry<String, String>> h = without(without(headers, "Transfer-Encoding"), "Content-Length");
        h.add(Map.entry("Transfer-Encoding", "chunked"));
        return new TestRequest(method, path, h, out.toByteArray());
    }

    /** @return whether a header of that name (any case) is set */
    boolean has(String name) {
        for (Map.Entry<String, String> e : headers) {
            if (e.getKey().equalsIgnoreCase(name)) return true;
        }
        return false;
    }

    /** @return whether the request asks for {@code 100 Continue} and has a body to hold back */
    boolean expectsContinue() {
        if (body == null || body.length == 0) return false;
        for (Map.Entry<String, String> e : headers) {
            if (e.getKey().equalsIgnoreCase("Expect") && e.getValue().trim().equalsIgnoreCase("100-continue")) {
                return true;
            }
        }
        return false;
    }

    /**
     * The request line and header section, with Host, Connection and Content-Length added as
     * needed.
     *
     * @param host the value for an added {@code Host} header
     * @param close add {@code Connection: close} unless a {@code Connection} header is set
     */
    byte[] encodeHead(String host, boolean close) {
        StringBuilder s = new StringBuilder(128);
        s.append(method).append(' ').append(path).append(" HTTP/1.1\r\n");
        if (!has("Host")) s.append("Host: ").append(host).append("\r\n");
        for (Map.Entry<String, String> e : headers) {
            s.append(e.getKey()).append(": ").append(e.getValue()).append("\r\n");
        }
        if (close && !has("Connection")) s.append("Connection: close\r\n");
        if (body != null && !has("Content-Length") && !has("Transfer-Encoding")) {
            s.append("Content-Length: ").append(body.length).append("\r\n");
        }
        s.append("\r\n");
        return s.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** @return head and body as one array */
    byte[] encode(String host, boolean close) {
        byte[] head = encodeHead(host, close);
        if (body == null || body.length == 0) return head;
        byte[] all = Arrays.copyOf(head, head.length + body.length);
        System.arraycopy(body, 0, all, head.length, body.length);
        return all;
    }

    /**
     * @param o another object
     * @return true for a request with the same method, path, headers and body bytes
     */
    @Override
    public boolean equals(Object o) {
        return o instanceof TestRequest r && method.equals(r.method) && path.equals(r.path)
                && headers.equals(r.headers) && Arrays.equals(body, r.body);
    }

    /** @return a hash of method, path, headers and body bytes */
    @Override
    public int hashCode() {
        return Objects.hash(method, path, headers, Arrays.hashCode(body));
    }

    /** @return e.g. {@code POST /items [Content-Type: application/json] body(12 bytes)} */
    @Override
    public String toString() {
        return method + " " + path + " " + headers.stream().map(e -> e.getKey() + ": " + e.getValue()).toList()
                + (body == null ? "" : " body(" + body.length + " bytes)");
    }

    private static final byte[] CRLF = {'\r', '\n'};

    private static List<Map.Entry<String, String>> without(List<Map.Entry<String, String>> headers, String name) {
        List<Map.Entry<String, String>> h = new ArrayList<>(headers.size() + 1);
        for (Map.Entry<String, String> e : headers) {
            if (!e.getKey().equalsIgnoreCase(name)) h.add(e);
        }
        return h;
    }
}
