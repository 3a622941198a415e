package dev.tidemill.internal.websocket;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.websocketx.ContinuationWebSocketFrame;
import io.netty.handler.codec.http.websocketx.CorruptedWebSocketFrameException;
import io.netty.handler.codec.http.websocketx.WebSocket08FrameDecoder;
import io.netty.handler.codec.http.websocketx.WebSocketCloseStatus;
import io.netty.handler.codec.http.websocketx.WebSocketDecoderConfig;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Netty's RFC 6455 frame decoder (framing, masking, lengths, opcodes, fragmentation order, frame
 * size), with the checks it leaves to us. With an extension agreed on, Netty lets every reserved
 * bit through; only RSV1 means anything (permessage-deflate), and only on the first frame of a
 * data message (RFC 7692 6): RSV2/RSV3 anywhere, or RSV1 on a control or continuation frame, is a
 * protocol error. Close frames are checked here too, with the close codes RFC 6455 7.4 allows on
 * the wire (Netty also lets through negative and unregistered codes).
 */
final class FrameDecoder extends WebSocket08FrameDecoder {
    private static final int RSV1 = 0x4;
    private final boolean deflate;

    FrameDecoder(WebSocketDecoderConfig config, boolean deflate) {
        super(config);
        this.deflate = deflate;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) throws Exception {
        int before = out.size();
        super.decode(ctx, in, out);
        if (!deflate) return;
        for (int i = before; i < out.size(); i++) {
            WebSocketFrame f = (WebSocketFrame) out.get(i);
            int rsv = f.rsv();
            boolean control = !(f instanceof io.netty.handler.codec.http.websocketx.TextWebSocketFrame
                    || f instanceof io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame || f instanceof ContinuationWebSocketFrame);
            if ((rsv & ~RSV1) != 0 || (rsv & RSV1) != 0 && (control || f instanceof ContinuationWebSocketFrame)) {
                for (int j = i; j < out.size(); j++) ((WebSocketFrame) out.get(j)).release();
                out.subList(i, out.size()).clear();
                in.skipBytes(in.readableBytes());
                throw new CorruptedWebSocketFrameException(WebSocketCloseStatus.PROTOCOL_ERROR,
                        "reserved bits set that no agreed extension defines (RFC 6455 5.2, RFC 7692 6)");
            }
        }
    }

    @Override
    protected void checkCloseFrameBody(ChannelHandlerContext ctx, ByteBuf buffer) {
        if (buffer == null || !buffer.isReadable()) return;
        if (buffer.readableBytes() == 1) {
            throw new CorruptedWebSocketFrameException(WebSocketCloseStatus.PROTOCOL_ERROR,
                    "a close frame body is empty or at least 2 bytes (RFC 6455 5.5.1)");
        }
        int code = buffer.getUnsignedShort(buffer.readerIndex());
        if (!validOnTheWire(code)) {
            throw new CorruptedWebSocketFrameException(WebSocketCloseStatus.PROTOCOL_ERROR,
                    "close code " + code + " may not be sent (RFC 6455 7.4)");
        }
        if (buffer.readableBytes() > 2) {
            try {
                StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                        .onUnmappableCharacter(CodingErrorAction.REPORT)
                        .decode(buffer.nioBuffer(buffer.readerIndex() + 2, buffer.readableBytes() - 2));
            } catch (CharacterCodingException e) {
                throw new CorruptedWebSocketFrameException(WebSocketCloseStatus.INVALID_PAYLOAD_DATA,
                        "the close reason is not UTF-8 (RFC 6455 5.5.1)");
            }
        }
    }

    /**
     * @return whether a peer may send {@code code}: 1000-1003 and 1007-1014 (defined or registered
     *     with IANA), 3000-4999 (libraries and applications); never 1004-1006, 1015, or unassigned ones
     */
    static boolean validOnTheWire(int code) {
        return code >= 1000 && code <= 1003 || code >= 1007 && code <= 1014 || code >= 3000 && code <= 4999;
    }
}
