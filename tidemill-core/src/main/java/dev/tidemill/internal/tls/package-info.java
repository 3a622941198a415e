/**
 * HTTPS: the TLS listener and everything before the first HTTP byte. In the order a connection
 * meets it: {@link dev.tidemill.internal.tls.TlsListener} binds the TLS port;
 * {@link dev.tidemill.internal.tls.ClientHelloGate} reads the ClientHello, refuses an ALPN offer
 * it cannot serve and picks the certificate by SNI from the current
 * {@link dev.tidemill.internal.tls.CertificateSet}; {@link dev.tidemill.internal.tls.HandshakeLimiter}
 * bounds handshakes in progress and their duration; {@link dev.tidemill.internal.tls.ProtocolSelection}
 * hands the connection to the protocol ALPN chose ({@link dev.tidemill.internal.tls.ProtocolInstaller}).
 * {@link dev.tidemill.internal.tls.CertificateReloader} rebuilds the contexts when the files
 * change; {@link dev.tidemill.internal.tls.HttpsRedirect} is the plain port's optional 308.
 */
package dev.tidemill.internal.tls;
