package dev.tidemill;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A response with full control of status, headers and body. Immutable: every method returns a new
 * response.
 *
 * <pre>{@code
 * return Response.status(201).header("Location", "/items/7").json(item);
 * }</pre>
 *
 * Header names and values are checked when set: a CR, LF or other control byte throws
 * {@link IllegalArgumentException}, so a handler can never split a response.
 */
public final class Response {

    /** What a response's body is. */
    public sealed interface Body permits Body.Empty, Body.Bytes, Body.Json, Body.Stream, Body.Events, Body.TopicEvents,
            Body.File, Body.WebSocket {
        /** No body. */
        record Empty() implements Body {}

        /** Fixed bytes, sent with {@code Content-Length}. */
        record Bytes(byte[] bytes) implements Body {}

        /** A value serialised with the app's {@link JsonCodec}. */
        record Json(Object value) implements Body {}

        /** A streamed body (chunked): the producer gets the stream once the head is sent. */
        record Stream(StreamProducer producer) implements Body {}

        /** A Server-Sent Events stream: the handler gets the open stream once the head is sent. */
        record Events(SseHandler handler) implements Body {}

        /**
         * A Server-Sent Events stream of a topic's messages that match a pattern (see
         * {@link Response#sse(Topic, String, java.util.function.Function)}).
         *
         * @param topic the topic
         * @param pattern a subject, a prefix wildcard ({@code room.*}) or {@code *}; checked when the reply is built
         * @param toEvent makes the event of a message
         */
        record TopicEvents(Topic<?> topic, String pattern, java.util.function.Function<?, SseEvent> toEvent) implements Body {}

        /**
         * A region of a file, sent with {@code Content-Length} straight from disk: never read
         * into memory whole, zero-copy ({@code sendfile}) where the connection allows it, else
         * read piece by piece as the client takes them. Never compressed by response compression
         * (a compressed form is another file). A HEAD does not open it.
         *
         * @param path the file; opened when the reply is built (a file that is gone: 404)
         * @param offset first byte sent, 0 or more
         * @param length bytes sent, 0 or more; the file must hold them while they are sent, or
         *     the response is cut short and the connection closed
         */
        record File(java.nio.file.Path path, long offset, long length) implements Body {
            /** Checks the region's bounds (not the file: it is opened when sent). */
            public File {
                Objects.requireNonNull(path, "path");
                if (offset < 0 || length < 0) throw new IllegalArgumentException("offset and length must be >= 0");
            }
        }

        /**
         * A WebSocket handshake: answered {@code 101 Switching Protocols} when the request is a
         * valid one, after which {@code handler} runs the connection; otherwise a problem (426,
         * 400 or 403, see {@link Response#webSocket(WebSocketOptions, WebSocketHandler)}).
         */
        record WebSocket(WebSocketOptions options, WebSocketHandler handler) implements Body {}
    }

    /** Produces a streamed body. */
    @FunctionalInterface
    public interface StreamProducer {
        /**
         * Called once, on the handler's thread, after the response head is sent. Write, then
         * {@link ResponseStream#close()}, now or later from any thread.
         *
         * @param stream the body
         * @throws Exception closes the stream (the client sees a truncated chunked body)
         */
        void produce(ResponseStream stream) throws Exception;
    }

    private static final Body EMPTY = new Body.Empty();

    private final int status;
    private final List<String> headers; // name, value, name, value...
    private final Body body;

    private Response(int status, List<String> headers, Body body) {
        this.status = status;
        this.headers = headers;
        this.body = body;
    }

    /** @param status 100-599 @return a response with that status and no body */
    public static Response status(int status) {
        if (status < 100 || status > 599) throw new IllegalArgumentException("status must be 100-599");
        return new Response(status, List.of(), EMPTY);
    }

    /** @return 200 with no body */
    public static Response ok() {
        return status(200);
    }

    /** @return 204 No Content */
    public static Response noContent() {
        return status(204);
    }

    /**
     * A streamed (chunked) body. The producer runs on the handler's thread after the head is sent;
     * in {@link ExecutionMode#IO} that is the event loop, where it must never block (do not wait on a
     * write's stage there: chain on it, or use LOOP/VIRTUAL for a blocking producer).
     *
     * @param contentType the {@code Content-Type} of the stream, e.g. {@code text/event-stream}
     * @param producer writes the body
     * @return a 200 streamed response
     */
    public static Response stream(String contentType, StreamProducer producer) {
        return ok().header("Content-Type", contentType).withBody(new Body.Stream(Objects.requireNonNull(producer)));
    }

    /**
     * A Server-Sent Events stream: {@code text/event-stream; charset=utf-8},
     * {@code Cache-Control: no-cache} and {@code X-Accel-Buffering: no} (so nginx does not buffer
     * it). {@code handler} runs on the handler's thread once the head is sent; it may send and
     * return, keeping the stream open, and close it later from any thread.
     *
     * @param handler receives the open stream
     * @return a 200 streamed response
     */
    public static Response sse(SseHandler handler) {
        Objects.requireNonNull(handler, "handler");
        return eventStream().withBody(new Body.Events(handler));
    }

    /**
     * A Server-Sent Events stream of a topic's messages that match {@code pattern}: each message
     * becomes the event {@code toEvent} makes of it, with the message id as the event {@code id}.
     * A client that reconnects with {@code Last-Event-ID} first gets what the topic's replay
     * buffer still holds after that id, preceded by a {@code lost} event if some of it is gone;
     * a message dropped because this client fell behind is announced by a {@code lost} event too.
     * The subscription ends with the stream, and the stream with the subscription.
     *
     * @param topic the topic
     * @param pattern a subject, a prefix wildcard ({@code room.*}) or {@code *}
     * @param toEvent makes the event of a message (its {@code id} is set afterwards)
     * @param <T> the message type
     * @return a 200 streamed response
     * @throws IllegalArgumentException for a malformed pattern, when the reply is built from
     *     this response (the handler's answer is then a 500 problem)
     */
    public static <T> Response sse(Topic<T> topic, String pattern, java.util.function.Function<Topic.Message<T>, SseEvent> toEvent) {
        Objects.requireNonNull(topic, "topic");
        Objects.requireNonNull(pattern, "pattern");
        Objects.requireNonNull(toEvent, "toEvent");
        return eventStream().withBody(new Body.TopicEvents(topic, pattern, toEvent));
    }

    /**
     * Accepts a WebSocket handshake with the default {@link WebSocketOptions}: see
     * {@link #webSocket(WebSocketOptions, WebSocketHandler)}.
     *
     * @param handler runs the connection
     * @return the handshake's answer
     */
    public static Response webSocket(WebSocketHandler handler) {
        return webSocket(WebSocketOptions.DEFAULTS, handler);
    }

    /**
     * Accepts a WebSocket handshake (RFC 6455 4.2): {@code 101 Switching Protocols} with
     * {@code Sec-WebSocket-Accept}, the agreed subprotocol and extension, and any header set on
     * the returned response; then {@code handler} runs the connection in the route's execution
     * mode. A request that is not a handshake gets 426 with {@code Upgrade: websocket}; a broken
     * one 400 (426 with {@code Sec-WebSocket-Version: 13} for another version); an
     * {@code Origin} the options do not allow 403. Returning this from a handler (rather than
     * registering {@link Routes#ws}) lets a handler or filter refuse the handshake first, for
     * example with 401.
     *
     * @param options how the connection is accepted and run
     * @param handler runs the connection
     * @return the handshake's answer
     */
    public static Response webSocket(WebSocketOptions options, WebSocketHandler handler) {
        return status(101).withBody(new Body.WebSocket(Objects.requireNonNull(options, "options"),
                Objects.requireNonNull(handler, "handler")));
    }

    /** The head of an event stream; nginx's X-Accel-Buffering: no keeps it from buffering events. */
    private static Response eventStream() {
        return ok().header("Content-Type", "text/event-stream; charset=utf-8").header("Cache-Control", "no-cache")
                .header("X-Accel-Buffering", "no");
    }

    /** Receives an open Server-Sent Events stream. */
    @FunctionalInterface
    public interface SseHandler {
        /**
         * @param stream the open stream
         * @throws Exception ends the stream
         */
        void open(SseStream stream) throws Exception;
    }

    /** @param text body @return a copy with a {@code text/plain; charset=utf-8} body (unless Content-Type is set) */
    public Response text(String text) {
        return withDefaultType("text/plain; charset=utf-8").withBody(new Body.Bytes(text.getBytes(StandardCharsets.UTF_8)));
    }

    /** @param html body @return a copy with a {@code text/html; charset=utf-8} body */
    public Response html(String html) {
        return header("Content-Type", "text/html; charset=utf-8")
                .withBody(new Body.Bytes(html.getBytes(StandardCharsets.UTF_8)));
    }

    /**
     * @param bytes body (not copied: do not change it afterwards)
     * @param contentType its type
     * @return a copy with that body
     */
    public Response bytes(byte[] bytes, String contentType) {
        return header("Content-Type", contentType).withBody(new Body.Bytes(Objects.requireNonNull(bytes)));
    }

    /**
     * @param path a file, sent whole from disk (see {@link Body.File})
     * @param contentType its type, e.g. {@code video/mp4}
     * @return a copy with that body
     * @throws java.io.UncheckedIOException if the file's size cannot be read
     */
    public Response file(java.nio.file.Path path, String contentType) {
        try {
            return file(path, 0, java.nio.file.Files.size(path), contentType);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /**
     * @param path a file
     * @param offset first byte sent
     * @param length bytes sent
     * @param contentType the type of the whole file
     * @return a copy whose body is that region of the file (see {@link Body.File})
     */
    public Response file(java.nio.file.Path path, long offset, long length, String contentType) {
        return header("Content-Type", contentType).withBody(new Body.File(path, offset, length));
    }

    /** @param value serialised with the app's JSON codec @return a copy with an {@code application/json} body */
    public Response json(Object value) {
        return withDefaultType("application/json").withBody(new Body.Json(value));
    }

    /**
     * Sets a header, replacing any value of the same name (case-insensitive).
     *
     * @param name a token, e.g. {@code Cache-Control}
     * @param value visible ASCII and spaces/tabs; no CR, LF or other control bytes
     * @return a copy with that header
     */
    public Response header(String name, String value) {
        checkName(name);
        checkValue(name, value);
        List<String> copy = new ArrayList<>(headers.size() + 2);
        for (int i = 0; i < headers.size(); i += 2) {
            if (!headers.get(i).equalsIgnoreCase(name)) {
                copy.add(headers.get(i));
                copy.add(headers.get(i + 1));
            }
        }
        copy.add(name);
        copy.add(value);
        return new Response(status, Collections.unmodifiableList(copy), body);
    }

    /**
     * Adds a header value, keeping existing ones (for {@code Set-Cookie}, {@code Vary}...).
     *
     * @param name a token
     * @param value no control bytes
     * @return a copy with the value added
     */
    public Response addHeader(String name, String value) {
        checkName(name);
        checkValue(name, value);
        List<String> copy = new ArrayList<>(headers);
        copy.add(name);
        copy.add(value);
        return new Response(status, Collections.unmodifiableList(copy), body);
    }

    /** @return the status */
    public int status() {
        return status;
    }

    /** @return headers as {@code name, value, name, value...} in the order set */
    public List<String> headerList() {
        return headers;
    }

    /** @param name header name, any case @return its first value */
    public Optional<String> header(String name) {
        for (int i = 0; i < headers.size(); i += 2) {
            if (headers.get(i).equalsIgnoreCase(name)) return Optional.of(headers.get(i + 1));
        }
        return Optional.empty();
    }

    /** @return the body */
    public Body body() {
        return body;
    }

    private Response withBody(Body b) {
        return new Response(status, headers, b);
    }

    private Response withDefaultType(String type) {
        return header("Content-Type").isPresent() ? this : header("Content-Type", type);
    }

    private static void checkName(String name) {
        if (name == null || name.isEmpty()) throw new IllegalArgumentException("header name must not be empty");
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c <= 0x20 || c >= 0x7f || "\"(),/:;<=>?@[\\]{}".indexOf(c) >= 0) {
                throw new IllegalArgumentException("header name is not a token (RFC 9110 5.1)");
            }
        }
    }

    private static void checkValue(String name, String value) {
        if (value == null) throw new IllegalArgumentException("header " + name + " has no value");
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if ((c < 0x20 && c != '\t') || c == 0x7f || c > 0xff) {
                throw new IllegalArgumentException("header " + name + " value contains a control or non-Latin-1 character");
            }
        }
    }

    @Override
    public String toString() {
        return "Response[" + status + ", " + body.getClass().getSimpleName() + "]";
    }
}
