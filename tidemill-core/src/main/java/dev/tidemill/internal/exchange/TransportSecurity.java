package dev.tidemill.internal.exchange;

import io.netty.util.AttributeKey;
import java.security.cert.X509Certificate;
import java.util.List;

/**
 * What the TLS handshake established for a connection, whatever protocol runs over it: the TLS
 * layer ({@code internal.tls}) sets it as a channel attribute once the handshake is done, and
 * each protocol (HTTP/1.1 now, HTTP/2 from its parent channel) hands it to every exchange it opens
 * ({@link ExchangeRequest#secured}). A plain connection has none.
 *
 * @param protocol the TLS version, e.g. {@code TLSv1.3}
 * @param cipherSuite the negotiated suite, e.g. {@code TLS_AES_128_GCM_SHA256}
 * @param applicationProtocol what ALPN chose ({@code h2}, {@code http/1.1}), or {@code http/1.1} without ALPN
 * @param peerCertificates the client's verified chain, its own certificate first; empty without mTLS
 */
public record TransportSecurity(String protocol, String cipherSuite, String applicationProtocol,
        List<X509Certificate> peerCertificates) {

    /** The channel attribute the TLS layer sets after a successful handshake. */
    public static final AttributeKey<TransportSecurity> KEY = AttributeKey.valueOf(TransportSecurity.class, "tls");

    /** Copies the chain. */
    public TransportSecurity {
        peerCertificates = List.copyOf(peerCertificates);
    }
}
