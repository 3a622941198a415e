package dev.tidemill.internal.http;

import dev.tidemill.JsonCodec;
import dev.tidemill.Problem;
import dev.tidemill.Response;
import dev.tidemill.internal.codec.ProblemJson;
import dev.tidemill.internal.server.DateHeader;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufOutputStream;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.AsciiString;
import java.io.IOException;
import java.util.List;

/**
 * Turns what a handler returned into Netty response objects: the response table of
 * {@link dev.tidemill.Handler}, plus the framing rules every response obeys (HEAD keeps the GET's
 * {@code Content-Length} and drops the body; 1xx, 204 and 304 never carry one; framing headers are
 * ours, never the handler's). Runs on the handler's thread, so JSON encoding stays off the I/O loop.
 */
final class Replies {
    private static final AsciiString TEXT_PLAIN = AsciiString.cached("text/plain; charset=utf-8");
    private static final AsciiString OCTET_STREAM = AsciiString.cached("application/octet-stream");
    private static final AsciiString APPLICATION_JSON = AsciiString.cached("application/json");
    private static final AsciiString PROBLEM_JSON = AsciiString.cached(ProblemJson.CONTENT_TYPE);

    // RFC 9110 renamed these two; Netty still sends the RFC 7231 phrases.
    private static final HttpResponseStatus CONTENT_TOO_LARGE = new HttpResponseStatus(413, "Content Too Large");
    private static final HttpResponseStatus UNPROCESSABLE_CONTENT = new HttpResponseStatus(422, "Unprocessable Content");

    private final JsonCodec json;
    private final AsciiString serverHeader;
    private final ByteBufAllocator alloc;

    Replies(JsonCodec json, String serverHeader, ByteBufAllocator alloc) {
        this.json = json;
        this.serverHeader = serverHeader.isEmpty() ? null : AsciiString.cached(serverHeader);
        this.alloc = alloc;
    }

    /** Builds the reply for a handler's value (not a CompletionStage: that is awaited first). */
    Reply fromValue(Exchange ex, Object value) throws IOException {
        if (value == null) return full(ex, HttpResponseStatus.NO_CONTENT, null, Unpooled.EMPTY_BUFFER, List.of());
        if (value instanceof String s) return full(ex, HttpResponseStatus.OK, TEXT_PLAIN, utf8(s), List.of());
        if (value instanceof byte[] b) return full(ex, HttpResponseStatus.OK, OCTET_STREAM, Unpooled.wrappedBuffer(b), List.of());
        if (value instanceof Response r) return fromResponse(ex, r);
        return full(ex, HttpResponseStatus.OK, APPLICATION_JSON, json(value), List.of());
    }

    private Reply fromResponse(Exchange ex, Response r) throws IOException {
        if (r.status() < 200) {
            // A 1xx is never a final answer; sending one alone would desynchronise the connection.
            throw new IllegalStateException("a handler returned status " + r.status() + ", which cannot be a final response");
        }
        HttpResponseStatus status = status(r.status());
        return switch (r.body()) {
            case Response.Body.Empty e -> full(ex, status, null, Unpooled.EMPTY_BUFFER, r.headerList());
            case Response.Body.Bytes b -> full(ex, status, null, Unpooled.wrappedBuffer(b.bytes()), r.headerList());
            case Response.Body.Json j -> full(ex, status, null, json(j.value()), r.headerList());
            case Response.Body.Stream s -> stream(ex, status, r.headerList(), s.producer());
        };
    }

    /** A problem reply; callable from any thread. */
    Reply problem(Exchange ex, Problem p, boolean close, String... extraHeaders) {
        Reply reply = full(ex, status(p.status()), PROBLEM_JSON,
                Unpooled.wrappedBuffer(ProblemJson.render(p)), List.of(extraHeaders));
        return close ? new Reply.Full(((Reply.Full) reply).response(), true) : reply;
    }

    private Reply full(Exchange ex, HttpResponseStatus status, AsciiString contentType, ByteBuf body, List<String> headers) {
        boolean bodiless = status.code() < 200 || status.code() == 204 || status.code() == 304;
        long length = body.readableBytes();
        ByteBuf content = body;
        if (bodiless || ex.head) {
            body.release();
            content = Unpooled.EMPTY_BUFFER;
        }
        FullHttpResponse res = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, content, false);
        HttpHeaders h = res.headers();
        boolean close = copyHeaders(headers, h);
        if (contentType != null && !h.contains(HttpHeaderNames.CONTENT_TYPE)) h.set(HttpHeaderNames.CONTENT_TYPE, contentType);
        if (!bodiless) h.set(HttpHeaderNames.CONTENT_LENGTH, length);
        else h.remove(HttpHeaderNames.CONTENT_TYPE);
        common(h);
        return new Reply.Full(res, close);
    }

    private Reply stream(Exchange ex, HttpResponseStatus status, List<String> headers, Response.StreamProducer producer) {
        if (ex.head) {
            // HEAD: the head a GET would get, without running the producer (a stream has no length).
            FullHttpResponse res = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, Unpooled.EMPTY_BUFFER, false);
            boolean close = copyHeaders(headers, res.headers());
            common(res.headers());
            return new Reply.Full(res, close);
        }
        HttpResponse res = new DefaultHttpResponse(HttpVersion.HTTP_1_1, status, false);
        boolean close = copyHeaders(headers, res.headers());
        if (ex.http10) {
            close = true; // HTTP/1.0 has no chunked coding: the body ends when the connection does
        } else {
            res.headers().set(HttpHeaderNames.TRANSFER_ENCODING, HttpHeaderValues.CHUNKED);
        }
        common(res.headers());
        return new Reply.Stream(res, new StreamingBody(ex, producer, alloc), close);
    }

    static HttpResponseStatus status(int code) {
        return switch (code) {
            case 413 -> CONTENT_TOO_LARGE;
            case 422 -> UNPROCESSABLE_CONTENT;
            default -> HttpResponseStatus.valueOf(code);
        };
    }

    /** Copies a handler's headers, dropping the framing ones; @return whether it asked to close */
    private static boolean copyHeaders(List<String> headers, HttpHeaders h) {
        boolean close = false;
        for (int i = 0; i < headers.size(); i += 2) {
            String name = headers.get(i);
            if (name.equalsIgnoreCase("Content-Length") || name.equalsIgnoreCase("Transfer-Encoding")) continue;
            if (name.equalsIgnoreCase("Connection")) {
                close |= headers.get(i + 1).equalsIgnoreCase("close");
                continue;
            }
            h.add(name, headers.get(i + 1));
        }
        return close;
    }

    private void common(HttpHeaders h) {
        if (serverHeader != null) h.set(HttpHeaderNames.SERVER, serverHeader);
        h.set(HttpHeaderNames.DATE, DateHeader.now());
    }

    private ByteBuf utf8(String s) {
        if (s.isEmpty()) return Unpooled.EMPTY_BUFFER;
        ByteBuf buf = alloc.buffer(ByteBufUtil.utf8MaxBytes(s));
        ByteBufUtil.writeUtf8(buf, s);
        return buf;
    }

    private ByteBuf json(Object value) throws IOException {
        ByteBuf buf = alloc.buffer(256);
        try (ByteBufOutputStream out = new ByteBufOutputStream(buf)) {
            json.write(value, out);
        } catch (IOException | RuntimeException | Error e) {
            buf.release();
            throw e;
        }
        return buf;
    }
}
