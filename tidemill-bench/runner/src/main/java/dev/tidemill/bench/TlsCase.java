package dev.tidemill.bench;

import java.util.Arrays;
import java.util.List;

/**
 * One case of {@code ./tidemill bench tls}: a protocol, the client that drives it, and the key the
 * server's certificate has. {@link #H1} is the baseline every other case's cost is a ratio to.
 */
public enum TlsCase {
    /** HTTP/1.1 on the plain port, wrk, keep-alive. */
    H1("h1", "HTTP/1.1 plaintext", "wrk", false, TlsKey.P256),
    /** HTTP/1.1 over TLS, wrk, keep-alive: one handshake per connection, then requests. */
    H1_TLS("h1-tls", "HTTP/1.1 over TLS", "wrk", true, TlsKey.P256),
    /** HTTP/2 over TLS (ALPN h2 only), h2load with several streams per connection. */
    H2_TLS("h2-tls", "h2 over TLS", "h2load", true, TlsKey.P256),
    /** HTTP/2 cleartext by prior knowledge, h2load with several streams per connection. */
    H2C("h2c", "h2c (prior knowledge)", "h2load", false, TlsKey.P256),
    /** Full handshakes with a P-256 certificate: one request per connection, no resumption. */
    HANDSHAKE_P256("handshake-p256", "handshakes, P-256 certificate", "openssl s_time -new", true, TlsKey.P256),
    /** Full handshakes with an RSA-2048 certificate: one request per connection, no resumption. */
    HANDSHAKE_RSA("handshake-rsa", "handshakes, RSA-2048 certificate", "openssl s_time -new", true, TlsKey.RSA);

    private final String id;
    private final String label;
    private final String client;
    private final boolean tls;
    private final TlsKey key;

    TlsCase(String id, String label, String client, boolean tls, TlsKey key) {
        this.id = id;
        this.label = label;
        this.client = client;
        this.tls = tls;
        this.key = key;
    }

    /** @return its name in results and on the command line */
    public String id() { return id; }

    /** @return what it measures, for tables */
    public String label() { return label; }

    /** @return the load generator */
    public String client() { return client; }

    /** @return whether it goes over the TLS port */
    public boolean tls() { return tls; }

    /** @return the key of the certificate the server has during it */
    public TlsKey key() { return key; }

    /** @return whether it opens a connection per request */
    public boolean handshakes() { return this == HANDSHAKE_P256 || this == HANDSHAKE_RSA; }

    /** @return whether it is one of the cases the peers goal judges: h2 (TLS and h2c) and HTTP/1.1 over TLS */
    public boolean peerGoal() { return this == H1_TLS || this == H2_TLS || this == H2C; }

    /** @param id a case's id @return it */
    public static TlsCase of(String id) {
        return Arrays.stream(values()).filter(c -> c.id.equals(id)).findFirst().orElseThrow(() -> new IllegalArgumentException(
                "unknown case " + id + "; known: " + String.join(",", ids())));
    }

    /** @return every id, in run order */
    public static List<String> ids() {
        return Arrays.stream(values()).map(TlsCase::id).toList();
    }

    /** The certificate's key. */
    public enum TlsKey {
        /** ECDSA on P-256 (prime256v1), the key of every case but {@link #HANDSHAKE_RSA}. */
        P256("p256", "ECDSA P-256", 256),
        /** RSA, 2,048 bits. */
        RSA("rsa", "RSA-2048", 2048);

        private final String id;
        private final String label;
        private final int bits;

        TlsKey(String id, String label, int bits) {
            this.id = id;
            this.label = label;
            this.bits = bits;
        }

        /** @return its directory name under the run's certificates */
        public String id() { return id; }

        /** @return its name in tables */
        public String label() { return label; }

        /** @return its size as {@code openssl s_client} prints it ("Server public key is N bit") */
        public int bits() { return bits; }
    }
}
