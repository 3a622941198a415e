package dev.tidemill.internal.tls;

import io.netty.channel.ChannelHandlerContext;

/**
 * Installs the handlers of one application protocol on a connection whose TLS handshake is done:
 * the seam between the TLS layer and the protocols behind it (docs/architecture.md "The seam").
 * HTTP/1.1 is one, HTTP/2 another, each registered under its ALPN name with {@link TlsListener}, and ALPN offers exactly the protocols
 * that have an installer, so nothing half-done is advertised.
 */
@FunctionalInterface
public interface ProtocolInstaller {
    /** ALPN's name for HTTP/1.1 (RFC 7301 6), and what a client without ALPN gets. */
    String HTTP_1_1 = "http/1.1";
    /** ALPN's name for HTTP/2 over TLS (RFC 9113 3.2). */
    String H2 = "h2";

    /**
     * Adds the protocol's handlers after {@code ctx} (the selection handler, removed right after;
     * bytes that arrived with the end of the handshake are replayed to what this adds). The
     * channel is already active and the TLS parameters are in the channel's
     * {@code TransportSecurity} attribute.
     *
     * @param ctx the selection handler's context on the connection
     */
    void install(ChannelHandlerContext ctx);
}
