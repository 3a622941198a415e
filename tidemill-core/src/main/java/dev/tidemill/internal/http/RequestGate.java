package dev.tidemill.internal.http;

import dev.tidemill.Limits;
import dev.tidemill.Problem;
import dev.tidemill.ProblemException;
import dev.tidemill.internal.codec.ContentDecoding;
import dev.tidemill.internal.routing.MalformedEncodingException;
import dev.tidemill.internal.routing.ParamCoercer;
import dev.tidemill.internal.routing.PathDecoder;
import dev.tidemill.internal.routing.QueryString;
import dev.tidemill.internal.routing.Router;
import dev.tidemill.internal.routing.TooManyParametersException;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The checks a request head passes before anything is dispatched, in order: what the decoder found
 * wrong, protocol version, header count, {@code Host}, framing ({@code Transfer-Encoding}), the
 * request target, routing (404, 405), the declared body size (413), {@code Expect}, then query
 * parsing and typed-parameter coercion (400, 422). All of it runs on the I/O thread, so a bad
 * request never costs a worker anything.
 */
final class RequestGate {

    /**
     * Why a request is refused.
     *
     * @param problem what to answer
     * @param close whether the connection must close (framing can no longer be trusted)
     * @param headers extra response headers, name/value pairs
     */
    record Verdict(Problem problem, boolean close, String... headers) {}

    private static final Map<String, List<String>> NO_QUERY = Map.of();
    /** The methods of RFC 9110 section 9 and PATCH (RFC 5789): never 501, at worst 404 or 405. */
    private static final java.util.Set<String> STANDARD_METHODS =
            java.util.Set.of("GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH");

    private final ServerContext server;
    private final Limits limits;

    RequestGate(ServerContext server) {
        this.server = server;
        this.limits = server.config.limits();
    }

    /** Creates the exchange for a head, before any check (even a refused request gets a reply slot). */
    Exchange open(ConnectionHandler connection, int seq, HttpRequest req) {
        String uri = req.uri();
        boolean http10 = HttpVersion.HTTP_1_0.equals(req.protocolVersion());
        boolean keepAlive = HttpUtil.isKeepAlive(req) && !server.draining;
        String method = req.method().name();
        return new Exchange(connection, seq, method, uri, rawPath(uri), req.headers(),
                HttpMethod.HEAD.equals(req.method()), http10, keepAlive);
    }

    /** @return null when the request may be dispatched once its body is read; else why not */
    Verdict check(Exchange ex, HttpRequest req) {
        DecoderResult result = req.decoderResult();
        if (result.isFailure()) return decoderFailure(result.cause());
        HttpVersion version = req.protocolVersion();
        if (version.majorVersion() != 1 || version.minorVersion() > 1) {
            return new Verdict(Problem.of(505, "HTTP Version Not Supported", "only HTTP/1.0 and HTTP/1.1 are served"), true);
        }
        HttpHeaders h = req.headers();
        if (h.size() > limits.maxHeaderCount()) {
            return new Verdict(Problem.of(431, "Request Header Fields Too Large",
                    "more than " + limits.maxHeaderCount() + " header fields (maxHeaderCount)"), true);
        }
        // The decoder built the headers with RequestHeaders, which counted the framing fields.
        RequestHeaders counted = h instanceof RequestHeaders r ? r : null;
        int hosts = counted != null ? counted.hostFields() : h.getAll(HttpHeaderNames.HOST).size();
        if (hosts > 1 || hosts == 0 && !ex.http10) {
            return new Verdict(Problem.of(400, "Bad Request", hosts == 0
                    ? "HTTP/1.1 requires a Host header" : "more than one Host header"), true);
        }
        if (hosts == 1 && !validHost(h.get(HttpHeaderNames.HOST))) {
            return new Verdict(Problem.of(400, "Bad Request", "invalid Host header (RFC 9110 7.2: host [ \":\" port ])"), true);
        }
        int lengths = counted != null ? counted.contentLengthFields() : h.getAll(HttpHeaderNames.CONTENT_LENGTH).size();
        if (lengths > 1 || lengths == 1 && h.get(HttpHeaderNames.CONTENT_LENGTH).indexOf(',') >= 0) {
            // Netty checks this for HTTP/1.1 only; a second length is a smuggling vector on any version.
            return new Verdict(Problem.of(400, "Bad Request", "more than one Content-Length"), true);
        }
        int codings = counted != null ? counted.transferEncodingFields() : h.getAll(HttpHeaderNames.TRANSFER_ENCODING).size();
        if (codings > 0) {
            if (ex.http10) {
                return new Verdict(Problem.of(400, "Bad Request", "Transfer-Encoding is not allowed in HTTP/1.0"), true);
            }
            if (codings != 1 || !h.get(HttpHeaderNames.TRANSFER_ENCODING).trim().equalsIgnoreCase("chunked")) {
                return new Verdict(Problem.of(400, "Bad Request", "unsupported Transfer-Encoding: only a single 'chunked' is accepted"), true);
            }
        }
        if (!STANDARD_METHODS.contains(ex.method) && !server.router.knowsMethod(ex.method)) {
            // RFC 9110 9.1: an unrecognised method is 501; a standard one a path does not take is 405
            return new Verdict(Problem.of(501, "Not Implemented", "no route of this server uses the method "
                    + truncate(ex.method)), false);
        }
        if (ex.uri.equals("*") && ex.method.equals("OPTIONS")) {
            return new Verdict(Problem.of(501, "Not Implemented", "OPTIONS * (options of the whole server) is not implemented"), false);
        }
        if (ex.path == null) {
            return new Verdict(Problem.of(400, "Bad Request", "invalid request target: only origin-form (/path) and "
                    + "absolute-form (http://host/path) are served"), false);
        }
        if (ex.path.indexOf('%') >= 0) {
            try {
                // validity only: routing works on the raw path
                if (PathDecoder.decode(ex.path).indexOf('\0') >= 0) {
                    return new Verdict(Problem.of(400, "Bad Request", "a NUL byte (%00) in the path"), false);
                }
            } catch (MalformedEncodingException e) {
                return new Verdict(Problem.of(400, "Bad Request", "invalid percent-encoding in the path"), false);
            }
        }
        if (hasDotSegment(ex.path)) {
            // Not normalised: a proxy in front may normalise differently, and a path that means
            // different things to two parsers must not reach a handler.
            return new Verdict(Problem.of(400, "Bad Request", "dot segments ('.' or '..', encoded or not) are not "
                    + "accepted in the path"), false);
        }
        Router.Match<Endpoint> match = server.router.match(ex.method, ex.path);
        if (match instanceof Router.NotFound<Endpoint>) {
            return new Verdict(Problem.of(404, "Not Found", "no route for " + ex.method + " " + truncate(ex.path)), false);
        }
        if (match instanceof Router.MethodNotAllowed<Endpoint> m) {
            return new Verdict(Problem.of(405, "Method Not Allowed", ex.method + " is not allowed here; allowed: " + m.allow()),
                    false, "Allow", m.allow());
        }
        Router.Found<Endpoint> found = (Router.Found<Endpoint>) match;
        Endpoint endpoint = found.value();
        ex.endpoint = endpoint;

        long declared = HttpUtil.getContentLength(req, 0L);
        if (declared > endpoint.maxBodyBytes()) {
            return new Verdict(Problem.of(413, "Content Too Large", "Content-Length " + declared + " exceeds the "
                    + endpoint.maxBodyBytes() + "-byte limit (maxBodyBytes)"), true);
        }
        String expect = ex.http10 ? null : h.get(HttpHeaderNames.EXPECT); // RFC 9110 10.1.1: ignored for HTTP/1.0
        if (expect != null && !expect.trim().equalsIgnoreCase("100-continue")) {
            return new Verdict(Problem.of(417, "Expectation Failed", "only 'Expect: 100-continue' is supported"), true);
        }

        try {
            ex.codings = ContentDecoding.check(h.get(HttpHeaderNames.CONTENT_ENCODING));
        } catch (ProblemException e) {
            // RFC 9110 15.5.16: say which codings would be accepted
            return new Verdict(e.problem(), false, "Accept-Encoding", ContentDecoding.SUPPORTED);
        }

        int q = ex.uri.indexOf('?');
        try {
            ex.query = q < 0 ? NO_QUERY : QueryString.parse(ex.uri.substring(q + 1));
        } catch (MalformedEncodingException e) {
            return new Verdict(Problem.of(400, "Bad Request", "invalid percent-encoding in the query string"), false);
        } catch (TooManyParametersException e) {
            return new Verdict(Problem.of(400, "Bad Request", "more than " + QueryString.MAX_PAIRS + " query parameters"), false);
        }
        ParamCoercer.Result coerced;
        try {
            coerced = endpoint.coercer().coerce(found.rawValues(), ex.query);
        } catch (MalformedEncodingException e) {
            return new Verdict(Problem.of(400, "Bad Request", "invalid percent-encoding in the path"), false);
        }
        if (!coerced.ok()) {
            return new Verdict(new Problem("about:blank", "Validation failed", 422,
                    Optional.of("invalid request parameters"), coerced.errors()), false);
        }
        ex.values = coerced.values();
        ex.pathValues = coerced.pathValues();
        return null;
    }

    private Verdict decoderFailure(Throwable cause) {
        if (cause instanceof TooLongHttpLineException) {
            return new Verdict(Problem.of(414, "URI Too Long", "the request line exceeds "
                    + limits.maxRequestLineBytes() + " bytes (maxRequestLineBytes)"), true);
        }
        if (cause instanceof TooLongHttpHeaderException) {
            return new Verdict(Problem.of(431, "Request Header Fields Too Large", "the header block exceeds "
                    + limits.maxHeaderBytes() + " bytes (maxHeaderBytes)"), true);
        }
        if (cause instanceof RequestDecoder.AmbiguousFramingException) {
            return new Verdict(Problem.of(400, "Bad Request", "Content-Length together with Transfer-Encoding"), true);
        }
        if (cause instanceof HeadValidator.MalformedHeadException m) {
            return new Verdict(Problem.of(m.status(), m.status() == 400 ? "Bad Request" : "Invalid Request", m.getMessage()), true);
        }
        if (cause instanceof TooLongFrameException) {
            return new Verdict(Problem.of(400, "Bad Request", "a protocol element is too long"), true);
        }
        String why = cause == null || cause.getMessage() == null ? "" : ": " + truncate(printable(cause.getMessage()));
        return new Verdict(Problem.of(400, "Bad Request", "malformed request" + why), true);
    }

    /** @return the path of an origin-form or absolute-form target, or null if it is neither */
    static String rawPath(String uri) {
        String target = uri;
        if (!target.startsWith("/")) {
            int scheme = target.indexOf("://");
            if (scheme <= 0 || !(target.regionMatches(true, 0, "http", 0, scheme)
                    || target.regionMatches(true, 0, "https", 0, scheme))) {
                return null;
            }
            int slash = target.indexOf('/', scheme + 3);
            if (slash < 0) return "/";
            target = target.substring(slash);
        }
        int end = target.length();
        for (int i = 0; i < target.length(); i++) {
            char c = target.charAt(i);
            if (c == '?' || c == '#') {
                end = i;
                break;
            }
        }
        return end == target.length() ? target : target.substring(0, end);
    }

    static boolean hasBody(HttpRequest req) {
        try {
            return HttpUtil.isTransferEncodingChunked(req) || HttpUtil.getContentLength(req, 0L) > 0;
        } catch (NumberFormatException e) {
            return true; // an unreadable length: assume a body, so the caller closes
        }
    }

    static boolean expectsContinue(HttpRequest req) {
        return !HttpVersion.HTTP_1_0.equals(req.protocolVersion()) && req.headers().containsValue(HttpHeaderNames.EXPECT, HttpHeaderValues.CONTINUE, true);
    }

    /** @return whether a segment of the raw path is '.' or '..', literally or percent-encoded */
    static boolean hasDotSegment(String rawPath) {
        int start = 1;
        while (start <= rawPath.length()) {
            int end = rawPath.indexOf('/', start);
            if (end < 0) end = rawPath.length();
            String seg = rawPath.substring(start, end);
            if (seg.indexOf('%') >= 0) seg = seg.replace("%2e", ".").replace("%2E", ".");
            if (seg.equals(".") || seg.equals("..")) return true;
            start = end + 1;
        }
        return false;
    }

    /**
     * @param host a Host field value
     * @return whether it is {@code uri-host [":" port]} (RFC 9110 7.2, RFC 3986 3.2.2): empty, an IP
     *     literal in brackets, or a reg-name / IPv4 of unreserved, percent-encoded and sub-delim
     *     characters, then an optional port of up to five digits
     */
    static boolean validHost(String host) {
        String h = host.trim();
        int i = 0;
        if (h.startsWith("[")) {
            int close = h.indexOf(']');
            if (close < 0) return false;
            for (int k = 1; k < close; k++) {
                char c = h.charAt(k);
                if (!(Character.digit(c, 16) >= 0 || c == ':' || c == '.')) return false;
            }
            i = close + 1;
        } else {
            while (i < h.length() && h.charAt(i) != ':') {
                char c = h.charAt(i);
                boolean ok = c < 128 && (Character.isLetterOrDigit(c) || "-._~!$&'()*+,;=%".indexOf(c) >= 0);
                if (!ok) return false;
                i++;
            }
        }
        if (i == h.length()) return true;
        if (h.charAt(i) != ':') return false;
        String port = h.substring(i + 1);
        if (port.length() > 5) return false;
        for (int k = 0; k < port.length(); k++) if (port.charAt(k) < '0' || port.charAt(k) > '9') return false;
        return true;
    }

    private static String printable(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            b.append(c >= 0x20 && c < 0x7f ? c : '?');
        }
        return b.toString();
    }

    private static String truncate(String s) {
        return s.length() <= 200 ? s : s.substring(0, 200) + "...";
    }
}
