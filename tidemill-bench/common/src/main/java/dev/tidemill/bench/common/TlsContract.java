package dev.tidemill.bench.common;

import java.nio.file.Path;

/**
 * What every target of the TLS suite ({@code ./tidemill bench tls}) serves, and how a peer's
 * {@code TlsMain} is started. Each target answers {@code GET} {@value Scenario#PLAINTEXT_PATH} with
 * {@code 200}, {@code text/plain} and the bytes of {@link Scenario#PLAINTEXT_BODY}:
 *
 * <ul>
 *   <li>on its plain port over HTTP/1.1, and over HTTP/2 with prior knowledge (h2c) where the peer
 *       can;
 *   <li>on its TLS port (TLS 1.2 and 1.3) over HTTP/1.1 and over h2, chosen by ALPN.
 * </ul>
 *
 * A peer's {@code TlsMain} takes {@code <port> <tlsPort> <ioThreads> <certDir>} (and, for some, a
 * variant after them), binding 127.0.0.1. The runner writes one certificate and key per run into
 * {@code certDir} with the {@code openssl} CLI, in the forms a peer may want: {@link #CERT} and
 * {@link #KEY} (PEM, PKCS#8) and {@link #KEYSTORE} (PKCS#12, password {@link #KEYSTORE_PASSWORD},
 * alias {@link #ALIAS}).
 */
public final class TlsContract {
    /** The certificate, PEM. */
    public static final String CERT = "cert.pem";
    /** Its private key, PEM PKCS#8, unencrypted. */
    public static final String KEY = "key.pem";
    /** Both as a PKCS#12 key store. */
    public static final String KEYSTORE = "keystore.p12";
    /** The key store's password (a benchmark's throw-away certificate, not a secret). */
    public static final String KEYSTORE_PASSWORD = "bench-only";
    /** The key's alias in the key store. */
    public static final String ALIAS = "bench";

    private TlsContract() {}

    /** @param certDir the directory the runner wrote @return its certificate */
    public static Path cert(Path certDir) {
        return certDir.resolve(CERT);
    }

    /** @param certDir the directory the runner wrote @return its key */
    public static Path key(Path certDir) {
        return certDir.resolve(KEY);
    }

    /** @param certDir the directory the runner wrote @return its PKCS#12 key store */
    public static Path keystore(Path certDir) {
        return certDir.resolve(KEYSTORE);
    }
}
