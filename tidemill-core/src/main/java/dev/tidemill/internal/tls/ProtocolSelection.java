package dev.tidemill.internal.tls;

import dev.tidemill.internal.exchange.TransportSecurity;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.ssl.ApplicationProtocolNegotiationHandler;
import io.netty.handler.ssl.SslHandler;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * After a successful handshake: records what TLS established on the channel
 * ({@link TransportSecurity}, which every exchange on it receives, whatever the protocol), then
 * hands the connection to the installer of the protocol ALPN chose, {@code http/1.1} without ALPN.
 * Netty's base class holds bytes read before it runs and replays them to what was installed.
 */
final class ProtocolSelection extends ApplicationProtocolNegotiationHandler {
    private static final Logger LOG = LoggerFactory.getLogger(ProtocolSelection.class);

    private final Map<String, ProtocolInstaller> installers;
    private final io.netty.channel.group.ChannelGroup handshaking;

    /**
     * @param installers by ALPN name; {@code http/1.1} must be among them
     * @param handshaking the listener's connections still in their handshake; this one leaves it here
     */
    ProtocolSelection(Map<String, ProtocolInstaller> installers, io.netty.channel.group.ChannelGroup handshaking) {
        super(ProtocolInstaller.HTTP_1_1);
        this.installers = installers;
        this.handshaking = handshaking;
    }

    @Override
    protected void configurePipeline(ChannelHandlerContext ctx, String protocol) {
        handshaking.remove(ctx.channel()); // the installed protocol's own connection group takes over
        ProtocolInstaller installer = installers.get(protocol);
        if (installer == null) { // the gate refused offers without ours; a provider bug would land here
            LOG.warn("{}: ALPN chose {}, which is not served; closing", ctx.channel(), protocol);
            ctx.close();
            return;
        }
        SSLSession session = ctx.pipeline().get(SslHandler.class).engine().getSession();
        ctx.channel().attr(TransportSecurity.KEY).set(new TransportSecurity(session.getProtocol(),
                session.getCipherSuite(), protocol, peerCertificates(session)));
        installer.install(ctx);
    }

    private static List<X509Certificate> peerCertificates(SSLSession session) {
        try {
            List<X509Certificate> out = new ArrayList<>();
            for (Certificate c : session.getPeerCertificates()) if (c instanceof X509Certificate x) out.add(x);
            return out;
        } catch (SSLPeerUnverifiedException none) {
            return List.of(); // no client certificate (clientAuth NONE, or OPTIONAL and none sent)
        }
    }

    @Override
    protected void handshakeFailure(ChannelHandlerContext ctx, Throwable cause) {
        // A scanner's probe or an old client: expected on any public port, not worth a warning.
        LOG.debug("{}: TLS handshake failed: {}", ctx.channel(), cause.toString());
        ctx.close();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        LOG.debug("{}: before the protocol was chosen: {}", ctx.channel(), cause.toString());
        ctx.close();
    }
}
