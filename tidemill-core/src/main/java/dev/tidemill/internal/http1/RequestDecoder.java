package dev.tidemill.internal.http1;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequestDecoder;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import java.util.List;

/**
 * Netty's request decoder, made strict. Before Netty parses a request head, {@link HeadValidator}
 * checks its bytes against the grammar and a head it refuses never reaches the parser: the
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

    /**
     * @param config Netty's decoder settings
     * @param headBound request-line limit + header-block limit + line ends: a longer head is
     *     certainly refused by Netty's own limits, so the validator stops buffering it
     * @param maxLeadingEmptyLines empty lines tolerated before a request line
     */
    RequestDecoder(HttpDecoderConfig config, int headBound, int maxLeadingEmptyLines) {
        super(config);
        this.headBound = headBound;
        this.validator = new HeadValidator(maxLeadingEmptyLines);
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
        if (refused) {
            buffer.skipBytes(buffer.readableBytes());
            return;
        }
        if (!inMessage && !headChecked && buffer.isReadable()) {
            try {
                if (validator.feed(buffer) == HeadValidator.INCOMPLETE) {
                    if (validator.pending() <= headBound) return; // wait for the rest of the head
                    validator.reset(); // past every limit: Netty's parser answers 414 or 431
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
            if (o instanceof HttpMessage) {
                headStarted = false;
                partialReported = false;
                inMessage = true;
                headChecked = false;
            }
            if (o instanceof LastHttpContent) inMessage = false;
        }
    }

    @Override
    protected void handleTransferEncodingChunkedWithContentLength(HttpMessage message) {
        message.setDecoderResult(DecoderResult.failure(new AmbiguousFramingException()));
        super.handleTransferEncodingChunkedWithContentLength(message);
    }
}
