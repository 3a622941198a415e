package dev.tidemill.internal.tls;

import dev.tidemill.Tls;
import io.netty.handler.ssl.ApplicationProtocolConfig;
import io.netty.handler.ssl.ClientAuth;
import dev.tidemill.internal.integration.OptionalDependency;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import io.netty.handler.ssl.SupportedCipherSuiteFilter;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.X509Certificate;
import java.util.List;
import javax.net.ssl.SSLException;

/**
 * Builds the server's {@link SslContext}s, all alike but for their certificate: the provider
 * chosen once, TLS 1.2 and 1.3 only, the cipher list below, ALPN offering the protocols that have
 * an installer, client certificates as configured, the current session ticket keys, and an OCSP
 * response to staple when one is configured and the provider can ({@link OcspStaple}).
 */
final class ContextFactory {
    /** RFC 8996 retired TLS 1.0 and 1.1; SSLv3 was gone long before (RFC 7568). */
    static final List<String> PROTOCOLS = List.of("TLSv1.3", "TLSv1.2");

    /**
     * Forward secrecy and AEAD only (RFC 9325 4.2, Mozilla's "intermediate" list): TLS 1.3's three
     * suites, then TLS 1.2 with ECDHE and AES-GCM or ChaCha20-Poly1305. No CBC, no RSA key
     * exchange, no finite-field DHE (its 1.2 groups are negotiable down to weak sizes). Every suite
     * is also acceptable to HTTP/2 (RFC 9113 9.2.2), so h2 never meets a blocklisted one. A
     * provider that lacks one skips it ({@link SupportedCipherSuiteFilter}).
     */
    static final List<String> CIPHERS = List.of(
            "TLS_AES_128_GCM_SHA256",
            "TLS_AES_256_GCM_SHA384",
            "TLS_CHACHA20_POLY1305_SHA256",
            "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256",
            "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256",
            "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384",
            "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384",
            "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256",
            "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256");

    /** The provider in use and why, for the startup report. */
    record Choice(SslProvider provider, String reason) {}

    private final Choice choice;
    private final List<String> alpn;
    private final Tls.ClientAuth clientAuth;
    private final TicketKeys tickets;

    /**
     * @param choice the provider
     * @param alpn the protocols ALPN offers, most preferred first
     * @param clientAuth whether client certificates are asked for
     * @param tickets session ticket keys (OpenSSL only; the JDK manages its own)
     */
    ContextFactory(Choice choice, List<String> alpn, Tls.ClientAuth clientAuth, TicketKeys tickets) {
        this.choice = choice;
        this.alpn = List.copyOf(alpn);
        this.clientAuth = clientAuth;
        this.tickets = tickets;
    }

    /**
     * @param wanted the setting
     * @return OpenSSL when asked or when {@code AUTO} and its native library loads, else the JDK's
     * @throws IllegalStateException when OpenSSL is demanded and cannot load, naming Netty's reason
     */
    static Choice choose(Tls.Provider wanted) {
        boolean openSsl = OpenSsl.isAvailable();
        return switch (wanted) {
            case JDK -> new Choice(SslProvider.JDK, "JDK (configured)");
            case OPENSSL -> {
                if (!openSsl) throw new IllegalStateException("tls.provider is OPENSSL but " + cause());
                yield new Choice(SslProvider.OPENSSL, OpenSsl.versionString() + " (configured)");
            }
            case AUTO -> openSsl
                    ? new Choice(SslProvider.OPENSSL, OpenSsl.versionString() + " (auto: netty-tcnative loaded)")
                    : new Choice(SslProvider.JDK, "JDK (auto: " + cause() + ")");
        };
    }

    private static String cause() {
        if (!OptionalDependency.OPENSSL.present()) {
            return "OpenSSL is unavailable: it needs " + OptionalDependency.OPENSSL.artifact() + " (with its classifier for "
                    + "this platform, e.g. linux-x86_64), which is not on the class path";
        }
        Throwable t = OpenSsl.unavailabilityCause();
        return "OpenSSL is unavailable: " + (t == null ? "unknown reason" : t);
    }

    Choice choice() {
        return choice;
    }

    List<String> alpn() {
        return alpn;
    }

    /**
     * @param key the private key
     * @param chain the certificate first, then intermediates
     * @param trust the CAs client certificates must chain to, or empty
     * @return a server context
     * @throws IllegalArgumentException when the key does not belong to the certificate
     */
    SslContext build(PrivateKey key, List<X509Certificate> chain, List<X509Certificate> trust) throws SSLException {
        return build(key, chain, trust, null);
    }

    /** @return whether this provider staples a given OCSP response (OpenSSL with OCSP support) */
    boolean staplesOcsp() {
        return choice.provider() == SslProvider.OPENSSL && OpenSsl.isOcspSupported();
    }

    /**
     * @param ocsp a DER OCSP response to staple, or null
     * @see #build(PrivateKey, List, List)
     */
    SslContext build(PrivateKey key, List<X509Certificate> chain, List<X509Certificate> trust, byte[] ocsp) throws SSLException {
        checkPair(key, chain.get(0));
        SslContextBuilder b = SslContextBuilder.forServer(key, chain)
                .sslProvider(choice.provider())
                .protocols(PROTOCOLS)
                .ciphers(CIPHERS, SupportedCipherSuiteFilter.INSTANCE)
                // The ClientHelloGate already refused an ALPN offer without one of ours (with the
                // no_application_protocol alert, RFC 7301 3.2), which neither provider can be told
                // to send; what reaches here always matches or has no ALPN at all.
                .applicationProtocolConfig(new ApplicationProtocolConfig(ApplicationProtocolConfig.Protocol.ALPN,
                        ApplicationProtocolConfig.SelectorFailureBehavior.NO_ADVERTISE,
                        ApplicationProtocolConfig.SelectedListenerFailureBehavior.ACCEPT, alpn));
        switch (clientAuth) {
            case NONE -> b.clientAuth(ClientAuth.NONE);
            case OPTIONAL -> b.clientAuth(ClientAuth.OPTIONAL).trustManager(trust);
            case REQUIRE -> b.clientAuth(ClientAuth.REQUIRE).trustManager(trust);
        }
        boolean staple = ocsp != null && staplesOcsp();
        if (staple) b.enableOcsp(true);
        SslContext context = b.build();
        tickets.apply(context);
        return staple ? new OcspStaple(context, ocsp) : context;
    }

    /** Signs a random challenge with the key and checks it with the certificate's public key. */
    private static void checkPair(PrivateKey key, X509Certificate cert) {
        String algorithm = switch (key.getAlgorithm()) {
            case "EC" -> "SHA256withECDSA";
            case "RSA" -> "SHA256withRSA";
            case "Ed25519", "Ed448", "EdDSA" -> key.getAlgorithm();
            default -> null; // RSASSA-PSS needs parameters: left to the handshake
        };
        if (algorithm == null) return;
        try {
            byte[] challenge = new byte[32];
            new SecureRandom().nextBytes(challenge);
            Signature s = Signature.getInstance(algorithm);
            s.initSign(key);
            s.update(challenge);
            byte[] signature = s.sign();
            s.initVerify(cert.getPublicKey());
            s.update(challenge);
            if (s.verify(signature)) return;
        } catch (GeneralSecurityException e) {
            // a key of another type than the certificate's: the same verdict
        }
        throw new IllegalArgumentException("the private key does not belong to the certificate " + cert.getSubjectX500Principal());
    }
}
