package dev.tidemill.testing;

/** A TLS client context that trusts exactly the certificates of a PEM file: {@link TestClient#trusting}. */
final class TrustedCertificates {
    private TrustedCertificates() {}

    /**
     * @param pem a PEM file of certificates
     * @return a TLS client context trusting exactly those
     */
    static javax.net.ssl.SSLContext context(java.nio.file.Path pem) {
        try (java.io.InputStream in = java.nio.file.Files.newInputStream(pem)) {
            java.security.KeyStore store = java.security.KeyStore.getInstance("PKCS12");
            store.load(null, null);
            int i = 0;
            for (java.security.cert.Certificate c : java.security.cert.CertificateFactory.getInstance("X.509").generateCertificates(in)) {
                store.setCertificateEntry("trusted-" + i++, c);
            }
            javax.net.ssl.TrustManagerFactory tmf = javax.net.ssl.TrustManagerFactory.getInstance(
                    javax.net.ssl.TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(store);
            javax.net.ssl.SSLContext ctx = javax.net.ssl.SSLContext.getInstance("TLS");
            ctx.init(null, tmf.getTrustManagers(), null);
            return ctx;
        } catch (java.io.IOException | java.security.GeneralSecurityException e) {
            throw new IllegalArgumentException("cannot trust " + pem + ": " + e.getMessage(), e);
        }
    }
}
