package dev.tidemill.internal.exchange;

import dev.tidemill.JsonCodec;
import dev.tidemill.Problem;
import dev.tidemill.Response;
import dev.tidemill.Compression;
import dev.tidemill.internal.codec.AcceptEncoding;
import dev.tidemill.internal.codec.AcceptEncoding.Choice;
import dev.tidemill.internal.codec.ContentEncoding;
import dev.tidemill.internal.codec.ProblemJson;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufOutputStream;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.util.AsciiString;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns what a handler returned into a {@link Reply}: the response table of
 * {@link dev.tidemill.Handler}, plus the rules every response obeys whatever the protocol (HEAD
 * keeps the GET's {@code Content-Length} and drops the body; 204 and 304 never carry one; framing
 * headers are the transport's, never the handler's; compression as {@link ReplyCompression}
 * decides). Runs on the handler's thread, so JSON encoding and compressing a full body stay off
 * the I/O loop.
 */
final class Replies {
    private static final AsciiString TEXT_PLAIN = AsciiString.cached("text/plain; charset=utf-8");
    private static final AsciiString TEXT_HTML = AsciiString.cached("text/html; charset=utf-8");
    private static final AsciiString OCTET_STREAM = AsciiString.cached("application/octet-stream");
    private static final AsciiString APPLICATION_JSON = AsciiString.cached("application/json");
    private static final AsciiString PROBLEM_JSON = AsciiString.cached(ProblemJson.CONTENT_TYPE);

    /** Texts up to this many chars are encoded to a heap array (at most 3 bytes per char: 3 KiB). */
    private static final int SHORT_TEXT = 1024;

    private final JsonCodec json;
    private final ByteBufAllocator alloc;
    private final ReplyCompression compression;
    private final ProtocolSwitch webSocket;

    Replies(JsonCodec json, ByteBufAllocator alloc, Compression compression, ProtocolSwitch webSocket) {
        this.webSocket = webSocket;
        this.json = json;
        this.alloc = alloc;
        this.compression = new ReplyCompression(compression);
    }

    /** @return the app's JSON codec */
    JsonCodec json() {
        return json;
    }

    /** Builds the reply for a handler's value (not a CompletionStage: that is awaited first). */
    Reply fromValue(Exchange ex, Object value) throws IOException {
        Reply reply = withSessionCookie(ex, answer(ex, value));
        if (ex.extendedConnect() != null && !reply.upgrades() && reply.status() >= 200 && reply.status() < 300) {
            // RFC 8441 5: over HTTP/2 a 2xx is the switch itself, so a route that answers without switching
            // must not send one: the client would take its body for WebSocket frames
            reply.release();
            return problem(ex, Problem.of(400, "Bad Request", "this resource is not a WebSocket endpoint: it answered"
                    + " the extended CONNECT without switching to websocket (RFC 8441 5)"), false);
        }
        return reply;
    }

    /** The session's {@code Set-Cookie}, when it was stored under a new id or ended. */
    private static Reply withSessionCookie(Exchange ex, Reply r) {
        String cookie = ex.session == null ? null : ex.session.setCookie();
        if (cookie == null) return r;
        List<String> headers = new ArrayList<>(r.headers().size() + 2);
        headers.addAll(r.headers());
        headers.add("Set-Cookie");
        headers.add(cookie);
        return new Reply(ex, r.status(), headers, r.contentType(), r.body(), r.contentLength(), r.stream(), r.close(), r.takeover(),
                r.file());
    }

    private Reply answer(Exchange ex, Object value) throws IOException {
        if (value == null) return full(ex, 204, null, Unpooled.EMPTY_BUFFER, List.of());
        if (value instanceof String s) return full(ex, 200, TEXT_PLAIN, utf8(s), List.of());
        if (value instanceof byte[] b) return full(ex, 200, OCTET_STREAM, Unpooled.wrappedBuffer(b), List.of());
        if (value instanceof Response r) return fromResponse(ex, r);
        if (value instanceof dev.tidemill.html.Html h) return full(ex, 200, TEXT_HTML, html(h), List.of());
        return full(ex, 200, APPLICATION_JSON, json(value), List.of());
    }

    private Reply fromResponse(Exchange ex, Response r) throws IOException {
        if (r.body() instanceof Response.Body.WebSocket ws) return upgrade(ex, r, ws);
        if (r.status() < 200) {
            // A 1xx is never a final answer; sending one alone would desynchronise the connection.
            throw new IllegalStateException("a handler returned status " + r.status() + ", which cannot be a final response");
        }
        return switch (r.body()) {
            case Response.Body.Empty e -> full(ex, r.status(), null, Unpooled.EMPTY_BUFFER, r.headerList());
            case Response.Body.Bytes b -> full(ex, r.status(), null, Unpooled.wrappedBuffer(b.bytes()), r.headerList());
            case Response.Body.Json j -> full(ex, r.status(), null, json(j.value()), r.headerList());
            case Response.Body.Stream s -> stream(ex, r.status(), r.headerList(), s.producer());
            case Response.Body.Events e -> stream(ex, r.status(), r.headerList(), stream -> SseSession.open(stream, e.handler()));
            case Response.Body.TopicEvents t -> {
                SseSession.checkPattern(t.pattern()); // a malformed pattern is the handler's error: 500, before any head
                yield stream(ex, r.status(), r.headerList(), stream -> SseSession.attach(stream, t));
            }
            case Response.Body.File f -> file(ex, r.status(), r.headerList(), f);
            case Response.Body.WebSocket ws -> throw new AssertionError("handled above");
        };
    }

    /**
     * A WebSocket handshake: the 101 that hands the connection to the WebSocket side, or the
     * problem that refuses the handshake (the request is then answered like any other).
     */
    private Reply upgrade(Exchange ex, Response r, Response.Body.WebSocket ws) {
        ProtocolSwitch.Outcome outcome = webSocket.handshake(ex, ws.options(), ws.handler());
        if (outcome.refusal() != null) {
            Problem p = outcome.refusal();
            return problem(ex, p, false, outcome.headers().toArray(String[]::new));
        }
        List<String> headers = new ArrayList<>(r.headerList().size() + outcome.headers().size());
        copyHeaders(r.headerList(), headers);
        headers.addAll(outcome.headers());
        return new Reply(ex, 101, headers, null, Unpooled.EMPTY_BUFFER, -1, null, false, outcome.takeover(), null);
    }

    /** A problem reply; callable from any thread. */
    Reply problem(Exchange ex, Problem p, boolean close, String... extraHeaders) {
        // Never compressed: a problem is small, and this may run on the transport's thread.
        Reply reply = full(ex, p.status(), PROBLEM_JSON, Unpooled.wrappedBuffer(ProblemJson.render(p)), List.of(extraHeaders), false);
        return close ? reply.closing() : reply;
    }

    private Reply full(Exchange ex, int status, CharSequence contentType, ByteBuf body, List<String> handlerHeaders) {
        return full(ex, status, contentType, body, handlerHeaders, true);
    }

    private Reply full(Exchange ex, int status, CharSequence contentType, ByteBuf body, List<String> handlerHeaders,
            boolean compressible) {
        boolean bodiless = status == 204 || status == 304;
        List<String> headers = handlerHeaders.isEmpty() ? List.of() : new ArrayList<>(handlerHeaders.size() + 4);
        boolean close = !handlerHeaders.isEmpty() && copyHeaders(handlerHeaders, headers);
        if (bodiless) {
            body.release();
            if (!headers.isEmpty()) removeContentType(headers);
            return new Reply(ex, status, headers, null, Unpooled.EMPTY_BUFFER, -1, null, close);
        }
        if (compressible && compression.candidate(ex, contentType, headers)) {
            AcceptEncoding.Result n = compression.negotiate(ex);
            if (body.readableBytes() >= compression.settings().minBytes() || !n.identityAcceptable()) {
                if (n.choice() == Choice.NONE_ACCEPTABLE && status < 300) {
                    body.release();
                    return notAcceptable(ex, close);
                }
                if (headers.isEmpty()) headers = new ArrayList<>(4);
                ReplyCompression.addVary(headers);
                boolean affordable = body.readableBytes() <= ReplyCompression.MAX_ON_TRANSPORT_THREAD
                        || !ex.sink().onTransportThread() || !n.identityAcceptable();
                if (n.choice() != Choice.IDENTITY && n.choice() != Choice.NONE_ACCEPTABLE && !ex.isHead() && affordable) {
                    ByteBuf encoded = ContentEncoding.encode(n.choice(), body, compression.level(n.choice()), alloc);
                    // Incompressible bytes under a compressible type (random data, an embedded
                    // image): the coding would only add its framing, so the body goes as it is,
                    // unless the client refused it as it is.
                    if (encoded.readableBytes() < body.readableBytes() || !n.identityAcceptable()) {
                        body.release();
                        body = encoded;
                        headers.add("Content-Encoding");
                        headers.add(ContentEncoding.token(n.choice()));
                        ReplyCompression.weakenEtag(headers);
                    } else {
                        encoded.release();
                    }
                }
            }
        }
        long length = body.readableBytes();
        if (ex.isHead()) {
            body.release();
            body = Unpooled.EMPTY_BUFFER;
        }
        return new Reply(ex, status, headers, contentType, body, length, null, close);
    }

    /**
     * A body that stays on disk: the file is opened here, on the handler's thread, and the
     * transport sends the region after the head. Never compressed: compressing would read it into
     * memory, and its precompressed form, if any, is another file or an in-memory variant
     * (static assets).
     */
    private Reply file(Exchange ex, int status, List<String> handlerHeaders, Response.Body.File f) throws IOException {
        if (status == 204 || status == 304) return full(ex, status, null, Unpooled.EMPTY_BUFFER, handlerHeaders, false);
        List<String> headers = new ArrayList<>(handlerHeaders.size() + 2);
        boolean close = copyHeaders(handlerHeaders, headers);
        if (ex.isHead() || f.length() == 0) {
            return new Reply(ex, status, headers, null, Unpooled.EMPTY_BUFFER, f.length(), null, close);
        }
        FileBody body;
        try {
            body = FileBody.open(f.path(), f.offset(), f.length());
        } catch (java.nio.file.NoSuchFileException e) {
            Reply gone = problem(ex, Problem.of(404, "Not Found", "the file is gone"), false);
            return close ? gone.closing() : gone;
        }
        return new Reply(ex, status, headers, null, Unpooled.EMPTY_BUFFER, f.length(), null, close, null, body);
    }

    /** RFC 9110 15.5.7: the client refused identity and every coding we have. */
    private Reply notAcceptable(Exchange ex, boolean close) {
        Problem p = Problem.of(406, "Not Acceptable",
                "Accept-Encoding refuses identity and every coding this server sends (br, zstd, gzip)");
        Reply reply = problem(ex, p, false, "Vary", "Accept-Encoding");
        return close ? reply.closing() : reply;
    }

    private Reply stream(Exchange ex, int status, List<String> handlerHeaders, Response.StreamProducer producer) {
        List<String> headers = handlerHeaders.isEmpty() ? List.of() : new ArrayList<>(handlerHeaders.size() + 4);
        boolean close = !handlerHeaders.isEmpty() && copyHeaders(handlerHeaders, headers);
        Choice coding = Choice.IDENTITY;
        if (compression.candidate(ex, null, headers)) {
            // A stream has no length: the minimum size does not apply.
            AcceptEncoding.Result n = compression.negotiate(ex);
            if (n.choice() == Choice.NONE_ACCEPTABLE && status < 300) return notAcceptable(ex, close);
            if (headers.isEmpty()) headers = new ArrayList<>(4);
            ReplyCompression.addVary(headers);
            if (n.choice() != Choice.NONE_ACCEPTABLE && n.choice() != Choice.IDENTITY && !ex.isHead()) {
                coding = n.choice();
                headers.add("Content-Encoding");
                headers.add(ContentEncoding.token(coding));
                ReplyCompression.weakenEtag(headers);
            }
        }
        if (ex.isHead()) {
            // HEAD: the head a GET would get, without running the producer (a stream has no length).
            return new Reply(ex, status, headers, null, Unpooled.EMPTY_BUFFER, -1, null, close);
        }
        StreamedResponseBody body = coding == Choice.IDENTITY ? new StreamedResponseBody(ex, producer, alloc)
                : new StreamedResponseBody(ex, producer, alloc, compression.chunkEncoder(coding, alloc));
        return new Reply(ex, status, headers, null, Unpooled.EMPTY_BUFFER, -1, body, close);
    }

    /** Copies a handler's headers, dropping the framing ones; @return whether it asked to close */
    private static boolean copyHeaders(List<String> from, List<String> to) {
        boolean close = false;
        for (int i = 0; i < from.size(); i += 2) {
            String name = from.get(i);
            if (name.equalsIgnoreCase("Content-Length") || name.equalsIgnoreCase("Transfer-Encoding")) continue;
            if (name.equalsIgnoreCase("Connection")) {
                close |= from.get(i + 1).equalsIgnoreCase("close");
                continue;
            }
            to.add(name);
            to.add(from.get(i + 1));
        }
        return close;
    }

    private static void removeContentType(List<String> headers) {
        for (int i = headers.size() - 2; i >= 0; i -= 2) {
            if (headers.get(i).equalsIgnoreCase("Content-Type")) {
                headers.remove(i + 1);
                headers.remove(i);
            }
        }
    }

    private ByteBuf utf8(String s) {
        if (s.isEmpty()) return Unpooled.EMPTY_BUFFER;
        // A short text is copied into the response head's buffer by the transport right away
        // (HTTP/1.1 inlines bodies up to 4 KiB), so a heap array is enough; a pooled buffer would
        // cost a pool allocation and a release for bytes that live a few microseconds.
        if (s.length() <= SHORT_TEXT) return Unpooled.wrappedBuffer(s.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        ByteBuf buf = alloc.buffer(ByteBufUtil.utf8MaxBytes(s));
        ByteBufUtil.writeUtf8(buf, s);
        return buf;
    }

    /** Renders a page on the handler's thread, straight into a pooled buffer. */
    private ByteBuf html(dev.tidemill.html.Html page) {
        ByteBuf buf = alloc.buffer(1024);
        try {
            Markup.render(page, buf);
        } catch (RuntimeException | Error e) {
            buf.release();
            throw e;
        }
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
