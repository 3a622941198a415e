package dev.tidemill.internal.http2;

import dev.tidemill.Limits;
import dev.tidemill.Problem;
import dev.tidemill.internal.exchange.Exchange;
import dev.tidemill.internal.exchange.ExchangeContext;
import dev.tidemill.internal.exchange.RequestTarget;
import dev.tidemill.internal.exchange.RouteGate;
import dev.tidemill.internal.exchange.Verdict;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2FrameAdapter;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2Stream;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The frames of an HTTP/2 connection that carry requests, turned into exchanges: a HEADERS frame
 * opens one and runs the same neutral checks HTTP/1.1 runs ({@link RouteGate#route}, then
 * {@link RouteGate#bind}); its DATA is gathered within the route's body limit, or streamed through
 * an {@link H2RequestBody}; trailers (a second HEADERS with END_STREAM) end it. Framing, HPACK,
 * pseudo-header and field validation, content-length against DATA, and the flood limits are
 * Netty's decoder's, configured by {@link H2Pipeline}: nothing malformed reaches here, and so
 * nothing malformed reaches a handler.
 */
final class H2Requests extends Http2FrameAdapter {
    private final ExchangeContext server;
    private final RouteGate gate;
    private final Limits limits;
    private H2Connection conn;

    H2Requests(ExchangeContext server) {
        this.server = server;
        this.gate = server.gate();
        this.limits = server.config().limits();
    }

    void connection(H2Connection c) {
        this.conn = c;
    }

    @Override
    public void onHeadersRead(ChannelHandlerContext ctx, int streamId, Http2Headers headers, int streamDependency,
            short weight, boolean exclusive, int padding, boolean endStream) throws Http2Exception {
        onHeadersRead(ctx, streamId, headers, padding, endStream);
    }

    @Override
    public void onHeadersRead(ChannelHandlerContext ctx, int streamId, Http2Headers headers, int padding, boolean endStream)
            throws Http2Exception {
        Http2Stream stream = conn.connection().stream(streamId);
        H2Request r = stream.getProperty(conn.key());
        if (r != null) {
            // RFC 9113 8.1: a second block is the trailer section; it ends the stream and has no pseudo-fields.
            if (!endStream) throw Http2Exception.streamError(streamId, Http2Error.PROTOCOL_ERROR, "trailers without END_STREAM");
            for (Map.Entry<CharSequence, CharSequence> e : headers) {
                if (e.getKey().length() > 0 && e.getKey().charAt(0) == ':') {
                    throw Http2Exception.streamError(streamId, Http2Error.PROTOCOL_ERROR, "a pseudo-header field in trailers");
                }
            }
            String bad = H2Headers.malformed(headers, true);
            if (bad != null) throw Http2Exception.streamError(streamId, Http2Error.PROTOCOL_ERROR, bad);
            if (r.admitting) {
                r.hold(io.netty.buffer.Unpooled.EMPTY_BUFFER, true);
                return;
            }
            if (r.tunnel != null) {
                r.requestEnded = true;
                r.tunnel.inputEnded();
                return;
            }
            bodyEnded(r);
            return;
        }
        open(ctx, stream, headers, endStream);
    }

    private void open(ChannelHandlerContext ctx, Http2Stream stream, Http2Headers headers, boolean endStream)
            throws Http2Exception {
        int id = stream.id();
        CharSequence method = headers.method();
        CharSequence path = headers.path();
        if (method == null || (path == null && !"CONNECT".contentEquals(method))) {
            throw Http2Exception.streamError(id, Http2Error.PROTOCOL_ERROR, "a request without :method or :path");
        }
        String bad = H2Headers.malformed(headers, false);
        if (bad != null) throw Http2Exception.streamError(id, Http2Error.PROTOCOL_ERROR, bad);
        String uri = path != null ? path.toString() : String.valueOf(headers.authority());
        HttpHeaders h = H2Headers.request(headers);
        String m = method.toString();
        // RFC 8441: an extended CONNECT for websocket reaches the route its HTTP/1.1 handshake (a GET) would; a
        // :protocol nothing here speaks stays a CONNECT, which no route takes
        boolean tunnel = "websocket".equals(H2Headers.connectProtocol(headers));
        if (tunnel) m = "GET";
        Exchange ex = new Exchange(server, conn, id, m, uri, path != null ? RequestTarget.rawPath(uri) : null, h,
                "HEAD".equals(m), ctx.channel().remoteAddress());
        ex.protocol("HTTP/2.0");
        if (tunnel) ex.extendedConnect("websocket");
        ex.arrived(System.nanoTime());
        dev.tidemill.internal.exchange.TransportSecurity security =
                ctx.channel().attr(dev.tidemill.internal.exchange.TransportSecurity.KEY).get();
        if (security != null) ex.secured(security);
        H2Request r = new H2Request(ex, stream);
        r.requestEnded = endStream;
        stream.setProperty(conn.key(), r);
        long declared = declaredLength(id, h);
        Verdict verdict = h.size() > limits.maxHeaderCount()
                ? new Verdict(Problem.of(431, "Request Header Fields Too Large",
                        "more than " + limits.maxHeaderCount() + " header fields (maxHeaderCount)"), false)
                : null;
        // The same target is refused over both protocols: measured as the HTTP/1.1 request line it would be.
        if (verdict == null && m.length() + uri.length() + " HTTP/1.1".length() + 1 > limits.maxRequestLineBytes()) {
            verdict = new Verdict(Problem.of(414, "URI Too Long", "the request line (:method and :path) exceeds "
                    + limits.maxRequestLineBytes() + " bytes (maxRequestLineBytes)"), false);
        }
        if (verdict == null) verdict = gate.route(ex, Math.max(0, declared));
        if (verdict == null) verdict = gate.bind(ex, h);
        if (verdict == Verdict.PENDING) { // authenticated off the loop: DATA waits on the stream, unconsumed
            r.admitting = true;
            gate.admission(ex).whenComplete((v, failure) -> ctx.executor().execute(() -> admitted(ctx, r, v, failure, declared)));
            return;
        }
        proceed(ctx, r, verdict, declared);
    }

    private void admitted(ChannelHandlerContext ctx, H2Request r, Verdict verdict, Throwable failure, long declared) {
        r.admitting = false;
        if (r.stream.state() == Http2Stream.State.CLOSED) return;
        proceed(ctx, r, failure == null ? verdict
                : new Verdict(Problem.of(500, "Internal Server Error", "authenticating the caller failed"), false), declared);
        try {
            r.replayHeld((data, end) -> onDataRead(ctx, r.stream.id(), data, 0, end), conn.decoder().flowController());
        } catch (Http2Exception e) {
            conn.onError(ctx, false, e);
        }
        conn.flushUnlessReading();
    }

    /** The rest of a request's head once its verdict is known: refused, or its body read, streamed or tunnelled. */
    private void proceed(ChannelHandlerContext ctx, H2Request r, Verdict verdict, long declared) {
        Exchange ex = r.exchange;
        boolean endStream = r.requestEnded;
        boolean tunnel = ex.extendedConnect() != null;
        if (verdict != null) {
            r.refused = true;
            ex.refuse(verdict, false);
            return;
        }
        if (tunnel) { // dispatched now: what follows is the tunnel's bytes, held until the handler switches (or not)
            r.tunnel = new H2Tunnel(conn, r.stream, server.config().timeouts().linger().toNanos());
            if (endStream) r.tunnel.inputEnded();
            ex.body(new byte[0]);
            dispatch(ctx, r);
            return;
        }
        if (!endStream && ex.endpoint().route().streamsBody()) {
            r.source = new H2RequestBody(ctx, conn.decoder().flowController(), r.stream, limits.bodyHighWaterBytes(),
                    ex.endpoint().maxBodyBytes(), server.bodyBytesHeld(), () -> {
                        if (r.replied) conn.stopRequestBody(r);
                    });
            ex.bodyStream(r.source.stream(), declared);
            dispatch(ctx, r);
        } else if (endStream) {
            if (ex.endpoint().route().streamsBody()) ex.bodyStream(emptyStream(ctx, r), 0);
            dispatch(ctx, r);
        }
        // else: DATA follows and is gathered (onDataRead)
    }

    /** A streamed route's body when the request has none: a stream that has already ended. */
    private dev.tidemill.internal.exchange.RequestBodyQueue emptyStream(ChannelHandlerContext ctx, H2Request r) {
        H2RequestBody s = new H2RequestBody(ctx, conn.decoder().flowController(), r.stream, limits.bodyHighWaterBytes(),
                0, server.bodyBytesHeld(), () -> { });
        s.stream().end();
        return s.stream();
    }

    /** @return the declared {@code content-length}, -1 for none; a malformed or repeated one is a stream error */
    private static long declaredLength(int id, HttpHeaders h) throws Http2Exception {
        List<String> all = h.getAll(HttpHeaderNames.CONTENT_LENGTH);
        if (all.isEmpty()) return -1;
        if (all.size() > 1) throw Http2Exception.streamError(id, Http2Error.PROTOCOL_ERROR, "more than one content-length");
        String v = all.get(0);
        if (v.isEmpty() || v.length() > 18 || !v.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw Http2Exception.streamError(id, Http2Error.PROTOCOL_ERROR, "a malformed content-length");
        }
        return Long.parseLong(v);
    }

    @Override
    public void onWindowUpdateRead(ChannelHandlerContext ctx, int streamId, int windowSizeIncrement) {
        conn.windowGranted(streamId);
    }

    @Override
    public void onPingAckRead(ChannelHandlerContext ctx, long data) {
        conn.pingAcked(ctx, data);
    }

    @Override
    public int onDataRead(ChannelHandlerContext ctx, int streamId, ByteBuf data, int padding, boolean endOfStream)
            throws Http2Exception {
        int n = data.readableBytes();
        Http2Stream stream = conn.connection().stream(streamId);
        H2Request r = stream == null ? null : stream.getProperty(conn.key());
        if (r == null || r.refused) return n + padding; // not wanted: dropped, its window given back at once
        if (r.admitting) {
            r.hold(data, endOfStream); // its window comes back when it is replayed
            return padding;
        }
        Exchange ex = r.exchange;
        if (r.tunnel != null) {
            r.tunnel.data(data, endOfStream); // its window comes back as the tunnel's pipeline reads it
            if (endOfStream) r.requestEnded = true;
            return padding;
        }
        if (r.source != null) {
            if (!r.source.data(data)) {
                r.refused = true;
                r.source.stream().fail(tooLarge(ex));
                ex.failBody(tooLarge(ex), false);
                return n + padding;
            }
            r.lastPiece = System.nanoTime();
            if (endOfStream) bodyEnded(r);
            return padding; // the data's window comes back as the reader takes it (H2RequestBody)
        }
        if (r.gather(data, ctx.alloc()) > ex.endpoint().maxBodyBytes()) {
            r.release();
            r.refused = true;
            ex.refuse(tooLarge(ex), false);
            return n + padding;
        }
        if (endOfStream) bodyEnded(r);
        return n + padding;
    }

    private static Problem tooLarge(Exchange ex) {
        return Problem.of(413, "Content Too Large", "the body exceeds the " + ex.endpoint().maxBodyBytes()
                + "-byte limit (maxBodyBytes)");
    }

    /** END_STREAM: a gathered body goes to its exchange, which is dispatched; a streamed one ends. */
    private void bodyEnded(H2Request r) {
        r.requestEnded = true;
        if (r.refused) return;
        if (r.source != null) {
            r.source.stream().end();
            return;
        }
        r.exchange.body(r.takeBody());
        dispatch(conn.context(), r);
    }

    /**
     * Runs the exchange, its request timer on the connection's loop. A streamed body's timer counts
     * from its last piece: on expiry it rearms for what is left when the body moved meanwhile.
     */
    private void dispatch(ChannelHandlerContext ctx, H2Request r) {
        long timeout = r.exchange.endpoint().requestTimeoutNanos();
        r.lastPiece = System.nanoTime();
        r.timeout = ctx.executor().schedule(() -> expire(ctx, r, timeout), timeout, TimeUnit.NANOSECONDS);
        server.dispatch(r.exchange);
    }

    private void expire(ChannelHandlerContext ctx, H2Request r, long timeout) {
        if (r.replied) return;
        long idle = System.nanoTime() - r.lastPiece;
        if (r.source != null && !r.requestEnded && idle < timeout) {
            r.timeout = ctx.executor().schedule(() -> expire(ctx, r, timeout), timeout - idle, TimeUnit.NANOSECONDS);
            return;
        }
        r.exchange.expire();
    }
}
