package dev.tidemill.internal.http1;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;

/**
 * The framing facts of one request head, read once, in one pass over the fields the decoder
 * counted ({@link RequestHeaders}), for every later stage to read: whether the connection stays
 * open (RFC 9112 9.3), the declared length, chunked transfer coding, and what {@code Expect} asks.
 * The head checks decide whether the framing can be trusted at all; this says what it is.
 *
 * @param http10 an HTTP/1.0 request
 * @param keepAlive whether the connection stays open after this request, as far as the request goes
 * @param declaredLength the declared body length; 0 if none, -1 if it cannot be read
 * @param chunked whether the body is framed as chunked
 * @param expectsContinue whether the client waits for {@code 100 Continue} before its body
 * @param unsupportedExpect whether {@code Expect} asks for anything but {@code 100-continue} (417)
 */
record HeadFraming(boolean http10, boolean keepAlive, long declaredLength, boolean chunked, boolean expectsContinue,
        boolean unsupportedExpect) {

    /** @param req a decoded head @return its framing */
    static HeadFraming of(HttpRequest req) {
        boolean http10 = HttpVersion.HTTP_1_0.equals(req.protocolVersion());
        HttpHeaders h = req.headers();
        String length;
        String connection;
        String expect;
        boolean chunked;
        if (h instanceof RequestHeaders r) { // what the decoder kept aside as it parsed: no lookup
            length = r.contentLength();
            connection = r.connection();
            expect = r.expect();
            chunked = RequestHeaders.hasToken(r.transferEncoding(), "chunked");
        } else {
            length = h.get(HttpHeaderNames.CONTENT_LENGTH);
            connection = joined(h, HttpHeaderNames.CONNECTION);
            expect = joined(h, HttpHeaderNames.EXPECT);
            chunked = HttpUtil.isTransferEncodingChunked(req);
        }
        boolean keepAlive = !RequestHeaders.hasToken(connection, "close")
                && (!http10 || RequestHeaders.hasToken(connection, "keep-alive"));
        if (http10) expect = null; // RFC 9110 10.1.1: ignored for HTTP/1.0
        boolean continues = RequestHeaders.hasToken(expect, "100-continue");
        return new HeadFraming(http10, keepAlive, declared(length), chunked, continues, expect != null && !onlyContinue(expect));
    }

    /** @return whether a body follows the head; an unreadable length counts as one, so the caller closes */
    boolean hasBody() {
        return chunked || declaredLength != 0;
    }

    /** @return the body's length as a streamed body knows it: -1 when chunked (unknown), else the declared length */
    long streamedLength() {
        return chunked ? -1 : declaredLength;
    }

    /** @return every field of {@code name} as one comma-separated list (RFC 9110 5.3), or null if there is none */
    private static String joined(HttpHeaders h, CharSequence name) {
        java.util.List<String> all = h.getAll(name);
        return all.isEmpty() ? null : String.join(",", all);
    }

    private static long declared(String v) {
        if (v == null) return 0;
        try {
            return Long.parseLong(v.trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static boolean onlyContinue(String expect) {
        for (String e : expect.split(",")) {
            if (!e.trim().equalsIgnoreCase("100-continue")) return false;
        }
        return true;
    }
}
