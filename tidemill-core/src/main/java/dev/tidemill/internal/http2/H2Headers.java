package dev.tidemill.internal.http2;

import dev.tidemill.internal.codec.ProblemJson;
import dev.tidemill.internal.exchange.DateHeader;
import dev.tidemill.internal.exchange.Reply;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.util.AsciiString;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Header blocks between HTTP/2 and the exchange: a request's fields as the {@link HttpHeaders} an
 * exchange reads ({@code :authority} as {@code Host}, split {@code cookie} fields joined, RFC 9113
 * 8.2.3 and 8.3.1), and a {@link Reply}'s head as an HTTP/2 header block without the fields that
 * are HTTP/1.1 framing (RFC 9113 8.2.2).
 */
final class H2Headers {
    private static final AsciiString COOKIE = AsciiString.cached("cookie");

    private H2Headers() {}

    /**
     * @param in the decoded block (Netty's decoder has checked names, pseudo-header order and
     *     connection-specific fields)
     * @return the regular fields, {@code Host} from {@code :authority} when the block has none
     */
    static HttpHeaders request(Http2Headers in) {
        HttpHeaders out = new DefaultHttpHeaders(false);
        StringBuilder cookies = null;
        for (Map.Entry<CharSequence, CharSequence> e : in) {
            CharSequence name = e.getKey();
            if (name.length() > 0 && name.charAt(0) == ':') continue;
            if (COOKIE.contentEqualsIgnoreCase(name)) {
                if (cookies == null) cookies = new StringBuilder(e.getValue());
                else cookies.append("; ").append(e.getValue());
                continue;
            }
            out.add(name, e.getValue());
        }
        if (cookies != null) out.set(HttpHeaderNames.COOKIE, cookies.toString());
        CharSequence authority = in.authority();
        if (authority != null && !out.contains(HttpHeaderNames.HOST)) out.set(HttpHeaderNames.HOST, authority);
        return out;
    }

    /**
     * What Netty's validating decoder leaves to us (RFC 9113 8.2.1 and 8.3.1): a request without
     * {@code :scheme} (CONNECT aside), a field value that starts or ends with SP or HTAB, and
     * {@code :protocol} on anything but a CONNECT (RFC 8441 4: only the extended CONNECT carries it).
     *
     * @param in a decoded request block, or trailers ({@code trailers} true: no pseudo-fields checked)
     * @return why the block is malformed, or null when it is not
     */
    static String malformed(Http2Headers in, boolean trailers) {
        for (Map.Entry<CharSequence, CharSequence> e : in) {
            CharSequence v = e.getValue();
            int n = v.length();
            if (n > 0 && (edgeSpace(v.charAt(0)) || edgeSpace(v.charAt(n - 1)))) {
                return "a field value with leading or trailing whitespace (" + e.getKey() + ")";
            }
        }
        if (trailers) return null;
        CharSequence method = in.method();
        boolean connect = method != null && "CONNECT".contentEquals(method);
        if (in.contains(PROTOCOL) && !connect) return ":protocol on a request that is not a CONNECT (RFC 8441 4)";
        if (in.scheme() == null && (method == null || !"CONNECT".contentEquals(method))) return "a request without :scheme";
        return null;
    }

    private static final AsciiString PROTOCOL = AsciiString.cached(":protocol");

    /** @return the extended CONNECT's {@code :protocol} (RFC 8441 4), or null for any other request */
    static String connectProtocol(Http2Headers in) {
        CharSequence p = in.get(PROTOCOL);
        return p == null ? null : p.toString();
    }

    private static boolean edgeSpace(char c) {
        return c == ' ' || c == '\t';
    }

    /** The status of an extended CONNECT's switch (RFC 8441 5). */
    static final AsciiString OK = AsciiString.cached("200");

    /** @return the head of a problem the server answers on its own: 431, {@code application/problem+json}, its length */
    static Http2Headers problem(int length) {
        return new DefaultHttp2Headers(false).status(AsciiString.cached("431"))
                .set(HttpHeaderNames.CONTENT_TYPE, ProblemJson.CONTENT_TYPE).setInt(HttpHeaderNames.CONTENT_LENGTH, length);
    }

    /** @return a streamed answer's trailer section (names already checked and in lower case) */
    static Http2Headers trailers(java.util.Map<String, String> fields) {
        Http2Headers out = new DefaultHttp2Headers(false);
        fields.forEach(out::add);
        return out;
    }

    /**
     * @param reply the reply
     * @param serverHeader the {@code Server} value, empty for none
     * @return its head as an HTTP/2 block: {@code :status}, the handler's fields lower-cased (those
     *     HTTP/2 forbids dropped), {@code content-type}, {@code content-length} when known,
     *     {@code date}, {@code server}
     */
    static Http2Headers response(Reply reply, String serverHeader) {
        Http2Headers out = new DefaultHttp2Headers(false);
        out.status(AsciiString.of(Integer.toString(reply.status())));
        List<String> h = reply.headers();
        boolean typed = false;
        for (int i = 0; i + 1 < h.size(); i += 2) {
            String name = h.get(i).toLowerCase(Locale.ROOT);
            if (connectionSpecific(name)) continue;
            if (name.equals("content-type")) typed = true;
            out.add(name, h.get(i + 1));
        }
        if (!typed && reply.contentType() != null) out.set(HttpHeaderNames.CONTENT_TYPE, reply.contentType());
        if (reply.contentLength() >= 0) out.setLong(HttpHeaderNames.CONTENT_LENGTH, reply.contentLength());
        out.set(HttpHeaderNames.DATE, DateHeader.now());
        if (!serverHeader.isEmpty()) out.set(HttpHeaderNames.SERVER, serverHeader);
        return out;
    }

    /** @return whether HTTP/2 forbids the field (RFC 9113 8.2.2): HTTP/1.1 connection management */
    static boolean connectionSpecific(String lowerName) {
        return switch (lowerName) {
            case "connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade", "content-length" -> true;
            default -> false;
        };
    }
}
