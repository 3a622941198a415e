package dev.tidemill.internal.tls;

import io.netty.handler.ssl.DelegatingSslContext;
import io.netty.handler.ssl.ReferenceCountedOpenSslEngine;
import io.netty.handler.ssl.SslContext;
import javax.net.ssl.SSLEngine;

/**
 * An OpenSSL context that staples one OCSP response (RFC 6066 8, the {@code status_request}
 * extension) to every handshake whose client asks for it: the response is set on each engine as it
 * is made, which is how netty-tcnative takes it. The bytes come from the identity's
 * {@code ocspResponse} file and are replaced with the rest of the generation when that file changes
 * ({@link CertificateReloader}). The response is checked for shape only (a DER SEQUENCE): its
 * signature, its certificate id and its validity are the CA's to get right, and a client that
 * asked for it checks them.
 */
final class OcspStaple extends DelegatingSslContext {
    private final byte[] response;

    OcspStaple(SslContext context, byte[] response) {
        super(context);
        this.response = response.clone();
    }

    @Override
    protected void initEngine(SSLEngine engine) {
        if (engine instanceof ReferenceCountedOpenSslEngine openSsl) openSsl.setOcspResponse(response);
    }

    /**
     * @param der the file's bytes
     * @param what the setting and file, for the message
     * @return the bytes, when they can be a DER OCSP response
     * @throws IllegalArgumentException naming the file otherwise (a PEM file, an empty one)
     */
    static byte[] check(byte[] der, String what) {
        if (der == null || der.length < 8 || der[0] != 0x30) {
            throw new IllegalArgumentException(what + ": not a DER OCSP response (expected binary ASN.1, as openssl ocsp -respout writes)");
        }
        return der;
    }
}
