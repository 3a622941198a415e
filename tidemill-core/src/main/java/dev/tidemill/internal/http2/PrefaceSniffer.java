package dev.tidemill.internal.http2;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Cleartext HTTP/2 with prior knowledge (RFC 9113 3.3): the first handler of a plain connection
 * looks at its first bytes. The moment they differ from the client connection preface
 * ({@code PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n}) it removes itself and HTTP/1.1 reads them (a request
 * line never starts like the preface past its first letter, so this costs one comparison); when
 * all 24 bytes match, HTTP/1.1's handlers are replaced by {@link H2Pipeline}'s and the bytes go
 * there. The h2c upgrade ({@code Upgrade: h2c}) is {@link H2cUpgrade}'s, off by default: see docs/http2.md.
 */
public final class PrefaceSniffer extends ByteToMessageDecoder {
    static final byte[] PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    private final H2Pipeline h2;
    private final List<String> http1Handlers;

    /**
     * @param h2 what installs HTTP/2
     * @param http1Handlers the names of the HTTP/1.1 handlers to remove when the preface matches
     */
    public PrefaceSniffer(H2Pipeline h2, List<String> http1Handlers) {
        this.h2 = h2;
        this.http1Handlers = http1Handlers;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        int n = Math.min(in.readableBytes(), PREFACE.length);
        for (int i = 0; i < n; i++) {
            if (in.getByte(in.readerIndex() + i) != PREFACE[i]) {
                ctx.pipeline().remove(this); // HTTP/1.1: what was read goes on to its decoder
                return;
            }
        }
        if (n < PREFACE.length) return; // a prefix of the preface so far: wait for more
        for (String name : http1Handlers) ctx.pipeline().remove(name);
        h2.install(ctx.channel());
        ctx.pipeline().remove(this); // the preface and what followed go to the HTTP/2 handler
    }
}
