package dev.tidemill.internal.http2;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.util.ReferenceCountUtil;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * HTTP/1.1's upgrade to cleartext HTTP/2 (RFC 7540 3.2), when {@code Config.h2cUpgrade} is on:
 * between the HTTP/1.1 decoder and connection handler of a plain connection, it looks at the
 * first request only. A request that asks for it properly ({@code Upgrade: h2c}, {@code Connection:
 * Upgrade, HTTP2-Settings}, exactly one {@code HTTP2-Settings} header that decodes to SETTINGS
 * pairs) and has no body gets {@code 101 Switching Protocols}; then HTTP/1.1's handlers are
 * replaced by {@link H2Pipeline}'s, the client's settings applied, and the request answered as
 * stream 1, through the same routes and checks as any stream. Anything else, a request with a
 * body included (RFC 7540 lets a server ignore the upgrade), goes on as HTTP/1.1, and this
 * handler leaves the pipeline after the first request either way.
 */
public final class H2cUpgrade extends ChannelInboundHandlerAdapter {
    private static final byte[] SWITCHING = ("HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: h2c\r\n\r\n")
            .getBytes(StandardCharsets.US_ASCII);
    /** Fields that describe the HTTP/1.1 connection, not the request: not carried into stream 1 (RFC 9113 8.2.2). */
    private static final Set<String> HOP_BY_HOP = Set.of("connection", "keep-alive", "proxy-connection", "transfer-encoding",
            "upgrade", "http2-settings", "host", "te", "content-length");

    private final H2Pipeline h2;
    private final List<String> http1Handlers;
    private HttpRequest pending;
    private Http2Settings settings;

    /**
     * @param h2 what installs HTTP/2
     * @param http1Handlers the HTTP/1.1 handlers to remove on an upgrade, the decoder first
     */
    public H2cUpgrade(H2Pipeline h2, List<String> http1Handlers) {
        this.h2 = h2;
        this.http1Handlers = http1Handlers;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (pending != null) {
            if (msg instanceof LastHttpContent last && !last.content().isReadable() && last.trailingHeaders().isEmpty()) {
                ReferenceCountUtil.release(msg);
                upgrade(ctx);
                return;
            }
            ctx.pipeline().remove(this); // not the empty body it declared: HTTP/1.1 answers
            ctx.fireChannelRead(pending);
            ctx.fireChannelRead(msg);
            return;
        }
        if (msg instanceof HttpRequest req && (settings = wanted(req)) != null) {
            pending = req;
            if (msg instanceof LastHttpContent) upgrade(ctx); // a whole request in one message
            return;
        }
        ctx.pipeline().remove(this);
        ctx.fireChannelRead(msg);
    }

    /** @return the client's settings when {@code req} asks for h2c as RFC 7540 3.2 says and has no body; else null */
    static Http2Settings wanted(HttpRequest req) {
        if (!req.decoderResult().isSuccess() || req.method() == HttpMethod.CONNECT) return null;
        var h = req.headers();
        if (!tokens(h.getAll(HttpHeaderNames.UPGRADE)).contains("h2c")) return null;
        Set<String> connection = tokens(h.getAll(HttpHeaderNames.CONNECTION));
        if (!connection.contains("upgrade") || !connection.contains("http2-settings")) return null;
        List<String> encoded = h.getAll("HTTP2-Settings");
        if (encoded.size() != 1 || h.contains(HttpHeaderNames.TRANSFER_ENCODING)) return null;
        String length = h.get(HttpHeaderNames.CONTENT_LENGTH);
        if (length != null && !length.equals("0")) return null;
        return settings(encoded.get(0).strip());
    }

    /** @return the SETTINGS pairs of a base64url {@code HTTP2-Settings} value, or null when it is not one */
    static Http2Settings settings(String value) {
        byte[] payload;
        try {
            payload = Base64.getUrlDecoder().decode(value);
        } catch (IllegalArgumentException e) {
            return null;
        }
        if (payload.length % 6 != 0) return null;
        Http2Settings s = new Http2Settings();
        try {
            for (int i = 0; i < payload.length; i += 6) {
                char id = (char) (((payload[i] & 0xff) << 8) | (payload[i + 1] & 0xff));
                long v = ((payload[i + 2] & 0xffL) << 24) | ((payload[i + 3] & 0xffL) << 16) | ((payload[i + 4] & 0xffL) << 8)
                        | (payload[i + 5] & 0xffL);
                if (id >= 1 && id <= 6) s.put(id, Long.valueOf(v)); // unknown identifiers are ignored (RFC 9113 6.5.2)
            }
        } catch (IllegalArgumentException e) {
            return null; // a value out of its range (an initial window past 2^31-1, say)
        }
        return s;
    }

    private static Set<String> tokens(List<String> values) {
        Set<String> out = new java.util.HashSet<>();
        for (String v : values) {
            for (String t : v.split(",")) out.add(t.strip().toLowerCase(Locale.ROOT));
        }
        return out;
    }

    private void upgrade(ChannelHandlerContext ctx) throws Http2Exception {
        HttpRequest req = pending;
        pending = null;
        ctx.write(Unpooled.wrappedBuffer(SWITCHING)); // before the HTTP/2 handler's SETTINGS, which it writes when added
        H2Connection conn = h2.installed(ctx.channel());
        conn.onHttpServerUpgrade(settings);
        conn.decoder().frameListener().onHeadersRead(conn.context(), 1, stream1(req), 0, true);
        conn.flush(conn.context());
        // the decoder last: what it holds past the request (the client's preface, perhaps) goes to HTTP/2
        for (int i = http1Handlers.size() - 1; i >= 1; i--) ctx.pipeline().remove(http1Handlers.get(i));
        ctx.pipeline().remove(this);
        ctx.pipeline().remove(http1Handlers.get(0));
    }

    /** @return the request as stream 1's header block: pseudo-fields first, then its own fields in lower case */
    private static Http2Headers stream1(HttpRequest req) {
        Http2Headers out = new DefaultHttp2Headers(false);
        out.method(req.method().name()).scheme("http").path(req.uri());
        String host = req.headers().get(HttpHeaderNames.HOST);
        if (host != null) out.authority(host);
        for (Map.Entry<String, String> e : req.headers()) {
            String name = e.getKey().toLowerCase(Locale.ROOT);
            if (!HOP_BY_HOP.contains(name)) out.add(name, e.getValue());
        }
        return out;
    }
}
