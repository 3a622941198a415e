package dev.tidemill.internal.http1;

import dev.tidemill.Limits;
import dev.tidemill.Problem;
import dev.tidemill.internal.exchange.Verdict;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;

/**
 * The HTTP/1.1 checks of a decoded head, before routing, in order: what the decoder found wrong
 * (400/414/431), the version (505), the header count (431), {@code Host} count and syntax (400),
 * {@code Content-Length} count (400) and {@code Transfer-Encoding} (only a single {@code chunked};
 * 400). Every refusal here closes the connection: the framing can no longer be trusted. After
 * routing, {@link #expect} answers an {@code Expect} other than {@code 100-continue} (417). What the
 * framing is, once trusted, is {@link HeadFraming}'s.
 */
final class HeadChecks {
    private final Limits limits;

    HeadChecks(Limits limits) {
        this.limits = limits;
    }

    /** @return null if the head may be routed, else why not */
    Verdict check(HttpRequest req, boolean http10) {
        DecoderResult result = req.decoderResult();
        if (result.isFailure()) return decoderFailure(result.cause());
        HttpVersion version = req.protocolVersion();
        if (version.majorVersion() != 1 || version.minorVersion() > 1) {
            return closing(505, "HTTP Version Not Supported", "only HTTP/1.0 and HTTP/1.1 are served");
        }
        HttpHeaders h = req.headers();
        if (h.size() > limits.maxHeaderCount()) {
            return closing(431, "Request Header Fields Too Large",
                    "more than " + limits.maxHeaderCount() + " header fields (maxHeaderCount)");
        }
        // The decoder built the headers with RequestHeaders, which counted the framing fields.
        RequestHeaders counted = h instanceof RequestHeaders r ? r : null;
        int hosts = counted != null ? counted.hostFields() : h.getAll(HttpHeaderNames.HOST).size();
        if (hosts > 1 || hosts == 0 && !http10) {
            return closing(400, "Bad Request", hosts == 0 ? "HTTP/1.1 requires a Host header" : "more than one Host header");
        }
        if (hosts == 1 && !HostHeader.valid(counted != null ? counted.host() : h.get(HttpHeaderNames.HOST))) {
            return closing(400, "Bad Request", "invalid Host header (RFC 9110 7.2: host [ \":\" port ])");
        }
        int lengths = counted != null ? counted.contentLengthFields() : h.getAll(HttpHeaderNames.CONTENT_LENGTH).size();
        if (lengths > 1 || lengths == 1 && (counted != null ? counted.contentLength() : h.get(HttpHeaderNames.CONTENT_LENGTH)).indexOf(',') >= 0) {
            // Netty checks this for HTTP/1.1 only; a second length is a smuggling vector on any version.
            return closing(400, "Bad Request", "more than one Content-Length");
        }
        int codings = counted != null ? counted.transferEncodingFields() : h.getAll(HttpHeaderNames.TRANSFER_ENCODING).size();
        if (codings > 0) {
            if (http10) return closing(400, "Bad Request", "Transfer-Encoding is not allowed in HTTP/1.0");
            String te = counted != null ? counted.transferEncoding() : h.get(HttpHeaderNames.TRANSFER_ENCODING);
            if (codings != 1 || !te.trim().equalsIgnoreCase("chunked")) {
                return closing(400, "Bad Request", "unsupported Transfer-Encoding: only a single 'chunked' is accepted");
            }
        }
        return null;
    }

    /** @return a 417 verdict for an {@code Expect} other than 100-continue, else null */
    static Verdict expect(HeadFraming framing) {
        return framing.unsupportedExpect() ? closing(417, "Expectation Failed", "only 'Expect: 100-continue' is supported") : null;
    }

    private Verdict decoderFailure(Throwable cause) {
        if (cause instanceof TooLongHttpLineException) {
            return closing(414, "URI Too Long", "the request line exceeds " + limits.maxRequestLineBytes()
                    + " bytes (maxRequestLineBytes)");
        }
        if (cause instanceof TooLongHttpHeaderException) {
            return closing(431, "Request Header Fields Too Large", "the header block exceeds "
                    + limits.maxHeaderBytes() + " bytes (maxHeaderBytes)");
        }
        if (cause instanceof RequestDecoder.AmbiguousFramingException) {
            return closing(400, "Bad Request", "Content-Length together with Transfer-Encoding");
        }
        if (cause instanceof HeadValidator.MalformedHeadException m) {
            return closing(m.status(), m.status() == 400 ? "Bad Request" : "Invalid Request", m.getMessage());
        }
        if (cause instanceof TooLongFrameException) {
            return closing(400, "Bad Request", "a protocol element is too long");
        }
        String why = cause == null || cause.getMessage() == null ? "" : ": " + truncate(printable(cause.getMessage()));
        return closing(400, "Bad Request", "malformed request" + why);
    }

    private static Verdict closing(int status, String title, String detail) {
        return new Verdict(Problem.of(status, title, detail), true);
    }

    /** @return {@code s} with every byte outside visible ASCII replaced by '?', at most 120 chars */
    static String printable(String s) {
        StringBuilder b = new StringBuilder(Math.min(s.length(), 120));
        for (int i = 0; i < s.length() && b.length() < 120; i++) {
            char c = s.charAt(i);
            b.append(c >= 0x20 && c < 0x7f ? c : '?');
        }
        return b.toString();
    }

    private static String truncate(String s) {
        return s.length() <= 200 ? s : s.substring(0, 200) + "...";
    }
}
