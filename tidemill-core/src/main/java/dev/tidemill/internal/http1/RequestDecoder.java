package dev.tidemill.internal.http1;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.DefaultLastHttpContent;
import io.netty.handler.codec.http.EmptyHttpHeaders;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequestDecoder;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Netty's request decoder, made strict, with a fast path. Before any head is parsed,
 * {@link HeadValidator} checks its bytes against the grammar, and a head of the common shape is
 * then built here from the offsets the validator recorded (see {@code ownHead}); the rest go to
 * Netty's parser. A head the validator refuses never reaches a parser: the
 * decoder emits a failed message instead (the connection handler answers and closes) and discards
 * the rest of the connection's input, as Netty does after its own failures. A head is handed to
 * Netty once complete, or once it is longer than the request-line and header limits together, so
 * that Netty's own limits answer 414 or 431. Netty also resolves a message carrying both {@code
 * Transfer-Encoding: chunked} and {@code Content-Length} by dropping the length (RFC 9112 6.3
 * allows that); a proxy in front of us may have used the length instead, so such a message is
 * refused outright.
 */
final class RequestDecoder extends HttpRequestDecoder {

    /** Marks a message that carried both framing headers. */
    static final class AmbiguousFramingException extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        AmbiguousFramingException() {
            super("Content-Length together with Transfer-Encoding", null);
        }
    }

    /**
     * Fired down the pipeline once per head when a read ends with part of a request head held
     * here, so the connection runs the header-read timer rather than the idle one for it.
     */
    static final Object PARTIAL_HEAD = new Object() {
        @Override
        public String toString() {
            return "PARTIAL_HEAD";
        }
    };

    private boolean headStarted;
    /** {@link #PARTIAL_HEAD} was fired for the current head. */
    private boolean partialReported;
    private final HeadValidator validator;
    /** Bytes of head beyond which the validator stops waiting and lets Netty's limits answer. */
    private final int headBound;
    /** Between a message's head and its last content: body bytes, not a head. */
    private boolean inMessage;
    /** The current head was checked (or handed over unchecked past the bound): let Netty parse it. */
    private boolean headChecked;
    /** A head was refused: everything after it is discarded. */
    private boolean refused;
    /** Body bytes still to come of a request whose head was built here (not by Netty); 0 when none. */
    private long ownRemaining;
    private final int maxRequestLine;
    private final int maxHeaderBytes;
    private final int maxChunk;
    /** The bytes of the head being built, reused (grows to the longest head seen, at most the bound). */
    private byte[] head = new byte[256];

    /**
     * @param config Netty's decoder settings
     * @param headBound request-line limit + header-block limit + line ends: a longer head is
     *     certainly refused by Netty's own limits, so the validator stops buffering it
     * @param maxLeadingEmptyLines empty lines tolerated before a request line
     */
    RequestDecoder(HttpDecoderConfig config, int headBound, int maxLeadingEmptyLines) {
        super(config);
        this.maxRequestLine = config.getMaxInitialLineLength();
        this.maxHeaderBytes = config.getMaxHeaderSize();
        this.maxChunk = config.getMaxChunkSize();
        this.headBound = headBound;
        this.validator = new HeadValidator(maxLeadingEmptyLines);
    }

    /**
     * A request asking to change protocols was emitted: the bytes after it are not decoded as
     * HTTP until its answer is known. A 101 hands them to the new protocol (removing this decoder
     * forwards them); any other answer resumes decoding ({@link #resumeDecoding}).
     */
    private boolean held;
    private ChannelHandlerContext ctx;

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) throws Exception {
        this.ctx = ctx;
        super.handlerAdded(ctx);
    }

    /** @return whether decoding stopped after an upgrade request, until {@link #resumeDecoding} */
    boolean holding() {
        return held;
    }

    /** The upgrade request was answered without a 101: decode what arrived after it. On the event loop. */
    void resumeDecoding() {
        if (!held) return;
        held = false;
        // A fresh task, not this stack: the answer may be written from inside a decode already.
        ctx.executor().execute(() -> {
            if (held || ctx.isRemoved()) return;
            try {
                channelRead(ctx, io.netty.buffer.Unpooled.EMPTY_BUFFER);
                channelReadComplete(ctx);
            } catch (Exception e) {
                ctx.fireExceptionCaught(e);
            }
        });
    }

    /** @return whether {@code m} asks to switch protocols (RFC 9110 7.8) and has no body: decoding then holds */
    private static boolean asksUpgrade(HttpMessage m) {
        if (!(m instanceof io.netty.handler.codec.http.HttpRequest) || !HttpVersion.HTTP_1_1.equals(m.protocolVersion())) return false;
        if (!(m.headers() instanceof RequestHeaders h) || h.connection() == null || !RequestHeaders.hasToken(h.connection(), "upgrade")) {
            return false;
        }
        return h.contains(io.netty.handler.codec.http.HttpHeaderNames.UPGRADE) && h.transferEncodingFields() == 0
                && (h.contentLength() == null || h.contentLength().trim().equals("0"));
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        super.channelRead(ctx, msg);
        if (!partialReported && !refused && !inMessage && (headStarted || internalBuffer().isReadable())) {
            partialReported = true;
            ctx.fireUserEventTriggered(PARTIAL_HEAD);
        }
    }

    @Override
    protected HttpMessage createMessage(String[] initialLine) throws Exception {
        headStarted = true;
        return super.createMessage(initialLine);
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf buffer, List<Object> out) throws Exception {
        if (held) return; // the bytes stay in the cumulation
        if (refused) {
            buffer.skipBytes(buffer.readableBytes());
            return;
        }
        if (ownRemaining > 0) {
            ownBody(buffer, out);
            return;
        }
        if (!inMessage && !headChecked && buffer.isReadable()) {
            try {
                int length = validator.feed(buffer);
                if (length == HeadValidator.INCOMPLETE) {
                    if (validator.pending() <= headBound) return; // wait for the rest of the head
                    validator.reset(); // past every limit: Netty's parser answers 414 or 431
                } else if (ownHead(buffer, length, out)) {
                    return;
                }
                headChecked = true;
            } catch (HeadValidator.MalformedHeadException e) {
                refused = true;
                buffer.skipBytes(buffer.readableBytes());
                DefaultHttpRequest invalid = new DefaultHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, "/");
                invalid.setDecoderResult(DecoderResult.failure(e));
                out.add(invalid);
                return;
            }
        }
        int before = out.size();
        super.decode(ctx, buffer, out);
        for (int i = before; i < out.size(); i++) {
            Object o = out.get(i);
            if (o instanceof HttpMessage m) {
                headStarted = false;
                partialReported = false;
                inMessage = true;
                headChecked = false;
                if (asksUpgrade(m)) held = true;
            }
            if (o instanceof LastHttpContent) inMessage = false;
        }
    }

    /**
     * Builds the request from the offsets the validator recorded while it checked the head, so its
     * bytes are scanned once, not twice (Netty's parser would split lines, find colons and trim
     * values again). Only the common shape is built here: a head within the request-line and
     * header limits, no {@code Transfer-Encoding}, at most one {@code Content-Length} of plain
     * digits. Anything else returns false and goes to Netty's parser, whose answers (414, 431,
     * chunked bodies, ambiguous or malformed framing) stay exactly what they were.
     *
     * @return whether the head was consumed and the request (and, with no body, its end) emitted
     */
    private boolean ownHead(ByteBuf buf, int length, List<Object> out) {
        HeadValidator v = validator;
        int ms = v.methodStart();
        if (v.versionEnd() - ms > maxRequestLine) return false;
        int n = v.fieldCount();
        int[] f = v.fields();
        if (n > 0 && f[4 * (n - 1) + 3] - f[0] > maxHeaderBytes) return false;
        if (head.length < length) head = new byte[Math.max(length, 2 * head.length)];
        byte[] h = head;
        buf.getBytes(buf.readerIndex(), h, 0, length);
        long contentLength = 0;
        boolean lengthSeen = false;
        for (int i = 0; i < n; i++) {
            int at = f[4 * i];
            int nameLength = f[4 * i + 1] - at;
            if (nameLength == 17 && named(h, at, TRANSFER_ENCODING)) return false;
            if (nameLength == 14 && named(h, at, CONTENT_LENGTH)) {
                if (lengthSeen) return false;
                lengthSeen = true;
                contentLength = digits(h, f[4 * i + 2], f[4 * i + 3]);
                if (contentLength < 0) return false;
            }
        }
        RequestHeaders headers = new RequestHeaders();
        for (int i = 0; i < n; i++) {
            int at = f[4 * i];
            int valueStart = f[4 * i + 2];
            int valueEnd = f[4 * i + 3];
            while (valueStart < valueEnd && (h[valueStart] == ' ' || h[valueStart] == '\t')) valueStart++;
            while (valueEnd > valueStart && (h[valueEnd - 1] == ' ' || h[valueEnd - 1] == '\t')) valueEnd--;
            headers.add(KnownNames.name(h, at, f[4 * i + 1]), latin1(h, valueStart, valueEnd));
        }
        int me = v.methodEnd();
        int te = v.targetEnd();
        HttpMethod method = KnownNames.method(h, ms, me);
        String uri = latin1(h, me + 1, te);
        HttpVersion version = version(h, te + 1, v.versionEnd());
        buf.skipBytes(length);
        partialReported = false;
        headStarted = false;
        if (contentLength > 0 && contentLength <= maxChunk && buf.readableBytes() >= contentLength) {
            // The whole body came with the head (a small body in one read): one message, so the connection knows at
            // the head that nothing more is to be read for this request. A streamed route then leaves the socket's
            // read interest alone instead of clearing and setting it: two epoll_ctl calls per request, 10 % of the
            // server's CPU on 1 KiB uploads (async-profiler cpu, IO mode, wrk -t1 -c4 15 s).
            out.add(new DefaultFullHttpRequest(version, method, uri, buf.readRetainedSlice((int) contentLength), headers,
                    EmptyHttpHeaders.INSTANCE));
            return true;
        }
        DefaultHttpRequest request = new DefaultHttpRequest(version, method, uri, headers);
        out.add(request);
        if (contentLength == 0 && asksUpgrade(request)) held = true;
        if (contentLength == 0) {
            out.add(LastHttpContent.EMPTY_LAST_CONTENT);
        } else {
            ownRemaining = contentLength;
            inMessage = true;
        }
        return true;
    }

    /** Emits the next piece of a body framed by Content-Length, as Netty would (at most maxChunk bytes, the last one as LastHttpContent). */
    private void ownBody(ByteBuf buf, List<Object> out) {
        int n = (int) Math.min(Math.min(buf.readableBytes(), ownRemaining), maxChunk);
        if (n == 0) return;
        ByteBuf piece = buf.readRetainedSlice(n);
        ownRemaining -= n;
        if (ownRemaining == 0) {
            inMessage = false;
            out.add(new DefaultLastHttpContent(piece, EmptyHttpHeaders.INSTANCE)); // no trailers: none of Netty's per-message empty headers
        } else {
            out.add(new DefaultHttpContent(piece));
        }
    }

    private static final byte[] TRANSFER_ENCODING = "transfer-encoding".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] CONTENT_LENGTH = "content-length".getBytes(StandardCharsets.US_ASCII);

    /** @return whether {@code h[at..]} is {@code lower} in any case (the validator made every name byte a token character) */
    private static boolean named(byte[] h, int at, byte[] lower) {
        for (int i = 0; i < lower.length; i++) {
            if ((h[at + i] | 0x20) != lower[i] && !(lower[i] == '-' && h[at + i] == '-')) return false;
        }
        return true;
    }

    /** @return the value as a length (surrounding whitespace allowed), or -1 unless it is 1 to 18 plain digits */
    private static long digits(byte[] h, int from, int to) {
        while (from < to && (h[from] == ' ' || h[from] == '\t')) from++;
        while (to > from && (h[to - 1] == ' ' || h[to - 1] == '\t')) to--;
        if (to == from || to - from > 18) return -1;
        long v = 0;
        for (int i = from; i < to; i++) {
            int d = h[i] - '0';
            if (d < 0 || d > 9) return -1;
            v = v * 10 + d;
        }
        return v;
    }

    private static String latin1(byte[] h, int from, int to) {
        return new String(h, from, to - from, StandardCharsets.ISO_8859_1);
    }

    private static HttpVersion version(byte[] h, int from, int to) {
        // The validator accepted exactly HTTP/d.d here.
        if (to - from == 8 && h[from + 5] == '1' && h[from + 7] == '1') return HttpVersion.HTTP_1_1;
        if (to - from == 8 && h[from + 5] == '1' && h[from + 7] == '0') return HttpVersion.HTTP_1_0;
        return HttpVersion.valueOf(latin1(h, from, to));
    }

    @Override
    protected void handleTransferEncodingChunkedWithContentLength(HttpMessage message) {
        message.setDecoderResult(DecoderResult.failure(new AmbiguousFramingException()));
        super.handleTransferEncodingChunkedWithContentLength(message);
    }
}
