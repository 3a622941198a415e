package dev.tidemill.internal.protocol;

import dev.tidemill.internal.exchange.ExchangeContext;
import dev.tidemill.internal.exchange.ProtocolSwitch;
import dev.tidemill.internal.http1.PipelineInitializer;
import dev.tidemill.internal.http2.H2Pipeline;
import dev.tidemill.internal.http2.H2cUpgrade;
import dev.tidemill.internal.http2.PrefaceSniffer;
import dev.tidemill.internal.tls.ProtocolInstaller;
import dev.tidemill.internal.websocket.WebSocketUpgrade;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.group.ChannelGroup;
import java.util.Map;

/**
 * Every protocol a server speaks, and how each gets a connection. Built once at start, after the
 * {@link ExchangeContext}, which is made with {@link #WEB_SOCKET} as its protocol switch.
 */
public final class Protocols {
    /** The WebSocket opening handshake (RFC 6455 4.2), the one protocol a handler's answer switches to. */
    public static final ProtocolSwitch WEB_SOCKET = WebSocketUpgrade::handshake;

    private final ExchangeContext context;
    private final ChannelGroup connections;
    private final PipelineInitializer http1;
    private final H2Pipeline h2;

    /**
     * @param context what every exchange shares
     * @param connections every open connection is added here (graceful stop, counting)
     */
    public Protocols(ExchangeContext context, ChannelGroup connections) {
        this.context = context;
        this.connections = connections;
        this.http1 = new PipelineInitializer(context, connections);
        this.h2 = new H2Pipeline(context);
    }

    /**
     * @return the cleartext port's initializer: HTTP/1.1, which HTTP/2 takes over when the first
     *     bytes are its preface (RFC 9113 3.3) or the first request asks for h2c (when
     *     {@code Config.h2cUpgrade} is on; docs/http2.md)
     */
    public ChannelHandler cleartext() {
        return new Cleartext(http1, h2, context.config().h2cUpgrade());
    }

    /**
     * @param constantLines header lines every HTTP/1.1 response over TLS carries (HSTS), each
     *     ending in CRLF; empty for none
     * @return one installer per protocol ALPN may choose: HTTP/1.1 and HTTP/2
     */
    public Map<String, ProtocolInstaller> overTls(String constantLines) {
        PipelineInitializer http1OverTls = new PipelineInitializer(context, connections, constantLines);
        return Map.of(ProtocolInstaller.HTTP_1_1, ctx -> {
                    http1OverTls.configure(ctx.channel(), null);
                    // The channel went active before these handlers existed; they start on this event
                    // (remote address, idle deadline), from here so the TLS handlers before do not see it twice.
                    ctx.fireChannelActive();
                },
                ProtocolInstaller.H2, ctx -> {
                    connections.add(ctx.channel()); // counted and drained like every connection
                    h2.install(ctx.channel());
                });
    }

    /** @return file bodies handed to the kernel whole ({@code sendfile}/{@code splice}) so far, cleartext HTTP/1.1 */
    public long filesZeroCopy() {
        return http1.filesZeroCopy();
    }

    /** @return file bodies read and written piece by piece so far, cleartext HTTP/1.1 */
    public long filesRead() {
        return http1.filesRead();
    }

    /** The cleartext port: HTTP/1.1's handlers, with HTTP/2's two ways in placed around them. */
    @ChannelHandler.Sharable
    private static final class Cleartext extends ChannelInitializer<Channel> {
        private final PipelineInitializer http1;
        private final H2Pipeline h2;
        private final boolean h2cUpgrade;

        Cleartext(PipelineInitializer http1, H2Pipeline h2, boolean h2cUpgrade) {
            this.http1 = http1;
            this.h2 = h2;
            this.h2cUpgrade = h2cUpgrade;
        }

        @Override
        protected void initChannel(Channel ch) {
            http1.configure(ch, null);
            // Prior knowledge: decided on the first bytes, then out of the way.
            ch.pipeline().addBefore(PipelineInitializer.DECODER, "preface", new PrefaceSniffer(h2, PipelineInitializer.HANDLERS));
            if (h2cUpgrade) {
                // The first request may ask for h2c; gone after it either way.
                ch.pipeline().addAfter(PipelineInitializer.DECODER, "h2c-upgrade", new H2cUpgrade(h2, PipelineInitializer.HANDLERS));
            }
        }
    }
}
