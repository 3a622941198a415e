package dev.tidemill.internal.websocket;

import dev.tidemill.WebSocketHandler;
import dev.tidemill.WebSocketOptions;
import dev.tidemill.internal.exchange.ConnectionTakeover;
import dev.tidemill.internal.exchange.StreamPort;
import io.netty.channel.Channel;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.http.websocketx.Utf8FrameValidator;
import io.netty.handler.codec.http.websocketx.WebSocket08FrameEncoder;
import io.netty.handler.codec.http.websocketx.WebSocketDecoderConfig;
import io.netty.handler.codec.http.websocketx.extensions.WebSocketServerExtension;

/**
 * Installs a WebSocket connection's pipeline after its 101. Inbound: Netty's frame decoder (with
 * our checks, {@link FrameDecoder}), the inflater if permessage-deflate was agreed on, Netty's
 * incremental UTF-8 check, then {@link WebSocketConnection}. Outbound: the deflater, then Netty's
 * frame encoder (server frames are never masked).
 */
final class Takeover implements ConnectionTakeover {
    private final StreamPort port;
    private final WebSocketOptions options;
    private final WebSocketHandler handler;
    private final String subprotocol;
    private final WebSocketServerExtension deflate;

    Takeover(StreamPort port, WebSocketOptions options, WebSocketHandler handler, String subprotocol,
            WebSocketServerExtension deflate) {
        this.port = port;
        this.options = options;
        this.handler = handler;
        this.subprotocol = subprotocol;
        this.deflate = deflate;
    }

    @Override
    public void install(Channel channel) {
        WebSocketDecoderConfig config = WebSocketDecoderConfig.newBuilder()
                // A frame cannot be larger than a message either: refused at its header, before its payload is buffered.
                .maxFramePayloadLength((int) Math.min(Integer.MAX_VALUE, Math.min(options.maxFrameBytes(), options.maxMessageBytes())))
                .expectMaskedFrames(true)
                .allowMaskMismatch(false)
                .allowExtensions(deflate != null)
                .closeOnProtocolViolation(false) // WebSocketConnection sends the close frame, for every failure alike
                .withUTF8Validator(false) // added below, after the inflater, so it sees the inflated text
                .build();
        ChannelPipeline p = channel.pipeline();
        p.addLast("ws-decoder", new FrameDecoder(config, deflate != null));
        p.addLast("ws-encoder", new WebSocket08FrameEncoder(false));
        if (deflate != null) {
            p.addLast("ws-inflater", deflate.newExtensionDecoder());
            p.addLast("ws-deflater", deflate.newExtensionEncoder());
        }
        p.addLast("ws-utf8", new Utf8FrameValidator(false));
        Session session = new Session(port, options, subprotocol, channel);
        p.addLast("ws", new WebSocketConnection(port, options, handler, session));
    }

    @Override
    public void abandoned() {
        port.released();
    }
}
