package dev.tidemill.internal.http;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpRequestDecoder;
import java.util.List;

/**
 * Netty's request decoder, made strict about framing. Netty resolves a message carrying both
 * {@code Transfer-Encoding: chunked} and {@code Content-Length} by dropping the length (RFC 9112
 * 6.3 allows that); a proxy in front of us may have used the length instead, which is how requests
 * get smuggled, so we refuse such a message outright (the connection handler answers 400 and closes).
 */
final class RequestDecoder extends HttpRequestDecoder {

    /** Marks a message that carried both framing headers. */
    static final class AmbiguousFramingException extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        AmbiguousFramingException() {
            super("Content-Length together with Transfer-Encoding", null);
        }
    }

    private boolean headStarted;

    RequestDecoder(HttpDecoderConfig config) {
        super(config);
    }

    /**
     * @return whether bytes of a request head not yet emitted are held here: the connection uses it
     *     to run the header-read timer, not the idle one, for a head that arrived in pieces
     */
    boolean midHead() {
        return headStarted || internalBuffer().isReadable();
    }

    @Override
    protected HttpMessage createMessage(String[] initialLine) throws Exception {
        headStarted = true;
        return super.createMessage(initialLine);
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf buffer, List<Object> out) throws Exception {
        int before = out.size();
        super.decode(ctx, buffer, out);
        for (int i = before; i < out.size(); i++) {
            if (out.get(i) instanceof HttpMessage) headStarted = false;
        }
    }

    @Override
    protected void handleTransferEncodingChunkedWithContentLength(HttpMessage message) {
        message.setDecoderResult(DecoderResult.failure(new AmbiguousFramingException()));
        super.handleTransferEncodingChunkedWithContentLength(message);
    }
}
