package dev.tidemill.testing;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * A complete HTTP response as received: status line, header fields in order, the body after
 * framing was removed (de-chunked), trailers, and the interim {@code 1xx} responses that preceded
 * it. Immutable.
 */
public final class TestResponse {
    private final String httpVersion;
    private final int status;
    private final String reason;
    private final List<Map.Entry<String, String>> headers;
    private final byte[] body;
    private final boolean chunked;
    private final List<Map.Entry<String, String>> trailers;
    private final List<Integer> interim;

    TestResponse(String httpVersion, int status, String reason, List<Map.Entry<String, String>> headers,
            byte[] body, boolean chunked, List<Map.Entry<String, String>> trailers, List<Integer> interim) {
        this.httpVersion = httpVersion;
        this.status = status;
        this.reason = reason;
        this.headers = List.copyOf(headers);
        this.body = body;
        this.chunked = chunked;
        this.trailers = List.copyOf(trailers);
        this.interim = List.copyOf(interim);
    }

    /** @return the status code, e.g. 200 */
    public int status() {
        return status;
    }

    /** @return the reason phrase, e.g. {@code OK}; empty if the server sent none */
    public String reason() {
        return reason;
    }

    /** @return the version of the status line, e.g. {@code HTTP/1.1} */
    public String httpVersion() {
        return httpVersion;
    }

    /**
     * @param name a field name, any case
     * @return the first value of that header field, if present
     */
    public Optional<String> header(String name) {
        for (Map.Entry<String, String> e : headers) {
            if (e.getKey().equalsIgnoreCase(name)) return Optional.of(e.getValue());
        }
        return Optional.empty();
    }

    /**
     * @param name a field name, any case
     * @return every value of that header field, in the order received (one entry per field line;
     *     comma-separated values are not split); empty if absent
     */
    public List<String> headers(String name) {
        return ResponseReader.values(headers, name);
    }

    /** @return every header field as received: names in their original case, in order */
    public List<Map.Entry<String, String>> headerList() {
        return headers;
    }

    /** @return the trailer fields of a chunked body, in order; empty if none or not chunked */
    public List<Map.Entry<String, String>> trailers() {
        return trailers;
    }

    /**
     * @param name a field name, any case
     * @return the first value of that trailer field, if present
     */
    public Optional<String> trailer(String name) {
        for (Map.Entry<String, String> e : trailers) {
            if (e.getKey().equalsIgnoreCase(name)) return Optional.of(e.getValue());
        }
        return Optional.empty();
    }

    /**
     * @return the status codes of the interim responses that came before this one, in order, e.g.
     *     {@code [100]} after {@code 100 Continue}; empty if none
     */
    public List<Integer> interim() {
        return interim;
    }

    /** @return the body bytes (de-chunked); empty for HEAD, 1xx, 204 and 304 responses. Not copied. */
    public byte[] body() {
        return body;
    }

    /** @return the body decoded in the {@code charset} of {@code Content-Type}, UTF-8 by default */
    public String text() {
        return new String(body, charset());
    }

    /**
     * Parses the body as JSON with Jackson 3.
     *
     * @param type the target type, e.g. a record
     * @param <T> the target type
     * @return the value
     * @throws IllegalStateException if the body is not JSON of that shape; the message shows the
     *     status and the start of the body
     */
    public <T> T json(Class<T> type) {
        try {
            return Json.MAPPER.readValue(body, type);
        } catch (JacksonException e) {
            throw new IllegalStateException("response body is not JSON for " + type.getName() + " ("
                    + e.getOriginalMessage() + "); response: " + this, e);
        }
    }

    /**
     * Parses the body as a JSON tree with Jackson 3.
     *
     * @return the root node
     * @throws IllegalStateException if the body is not JSON; the message shows the status and the
     *     start of the body
     */
    public JsonNode jsonTree() {
        try {
            return Json.MAPPER.readTree(body);
        } catch (JacksonException e) {
            throw new IllegalStateException("response body is not JSON (" + e.getOriginalMessage()
                    + "); response: " + this, e);
        }
    }

    /** @return true if the body was sent with {@code Transfer-Encoding: chunked} */
    public boolean chunked() {
        return chunked;
    }

    /**
     * @return the status line, headers and the start of the body, for assertion messages, e.g.
     *     {@code HTTP/1.1 404 Not Found [Content-Type: application/problem+json, ...] {"status":404...}}
     */
    @Override
    public String toString() {
        List<String> h = new ArrayList<>(headers.size());
        for (Map.Entry<String, String> e : headers) h.add(e.getKey() + ": " + e.getValue());
        StringBuilder s = new StringBuilder();
        if (!interim.isEmpty()) s.append("(after interim ").append(interim).append(") ");
        s.append(httpVersion).append(' ').append(status);
        if (!reason.isEmpty()) s.append(' ').append(reason);
        s.append(' ').append(h);
        if (body.length > 0) {
            String text = new String(body, 0, Math.min(body.length, 2000), charset());
            s.append(' ').append(text);
            if (body.length > 2000) s.append("... (").append(body.length).append(" bytes)");
        }
        if (!trailers.isEmpty()) s.append(" trailers ").append(trailers);
        return s.toString();
    }

    private Charset charset() {
        return header("Content-Type").map(TestResponse::charsetOf).orElse(StandardCharsets.UTF_8);
    }

    static Charset charsetOf(String contentType) {
        for (String param : contentType.split(";")) {
            int eq = param.indexOf('=');
            if (eq < 0 || !param.substring(0, eq).trim().equalsIgnoreCase("charset")) continue;
            String name = param.substring(eq + 1).trim();
            if (name.length() >= 2 && name.startsWith("\"") && name.endsWith("\"")) {
                name = name.substring(1, name.length() - 1);
            }
            try {
                return Charset.forName(name);
            } catch (RuntimeException e) {
                return StandardCharsets.UTF_8;
            }
        }
        return StandardCharsets.UTF_8;
    }
}
