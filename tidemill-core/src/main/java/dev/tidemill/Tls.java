package dev.tidemill;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * HTTPS: a second listener that speaks TLS 1.2 and 1.3 (docs/security.md "TLS"). Off by default;
 * on once a certificate is given ({@link Builder#certificate}, {@code TIDEMILL_TLS_CERT}) or a
 * self-signed development certificate is asked for ({@link #selfSigned()}). The plain port
 * ({@link Config#port()}) keeps serving HTTP unless {@link #redirectHttp()} makes it answer every
 * request with a 308 to the same path over HTTPS. Every default is defined here and only here (in
 * {@link Builder}'s starting values), every range once (in this record's range constants).
 *
 * @param identity the certificate chain and key served when no {@link #sniIdentities() name}
 *     matches; empty unless set (then TLS is off, or {@link #selfSigned()} supplies one)
 * @param sniIdentities more certificates, chosen by the name the client asks for (SNI, RFC 6066):
 *     an exact host name ({@code api.example.com}) or one wildcard label ({@code *.example.com}),
 *     lower case; default none
 * @param selfSigned generate a self-signed development certificate at start (EC P-256, 30 days,
 *     for {@code localhost}, {@code 127.0.0.1} and {@code ::1}) when no {@link #identity()} is
 *     given; its SHA-256 fingerprint is in {@link Server#startupReport()}. Never for production.
 *     Default false.
 * @param port the TLS port; 0 picks a free one ({@link Server#tlsPort()}). 0-65535; default 8443.
 * @param provider which TLS implementation serves. Default {@link Provider#AUTO}.
 * @param reloadInterval how often the certificate, key, chain and trust files are checked for
 *     changes (size, modification time and SHA-256 of their bytes); a change builds new contexts
 *     that new connections use, a broken file keeps the old ones and logs why. 1 s-24 h; default 10 s.
 * @param handshakeTimeout from the TCP accept to the end of the TLS handshake; past it the
 *     connection is closed. 1 ms-24 h; default 10 s.
 * @param maxHandshakes TLS handshakes in progress at once; a connection accepted past it is closed
 *     before its handshake starts, so a flood of stalled handshakes cannot take the CPU and memory
 *     established connections need. 1-65536; default 256.
 * @param ticketKeyRotation how often a new session ticket key is made (OpenSSL provider: the new
 *     one encrypts, the previous one still decrypts; the JDK provider rotates its own). 1 min-24 h;
 *     default 1 h.
 * @param clientAuth whether clients present certificates (mTLS). Default {@link ClientAuth#NONE}.
 * @param clientTrust the CA certificates (PEM) a client certificate must chain to; required
 *     unless {@link #clientAuth()} is {@link ClientAuth#NONE}; default none
 * @param redirectHttp the plain port answers every request with {@code 308 Permanent Redirect} to
 *     the same path and query on the TLS port, and serves nothing else. Default false.
 * @param hstsMaxAge the {@code max-age} of a {@code Strict-Transport-Security} header on every TLS
 *     response (RFC 6797); zero sends none. Browsers remember it: start small. 0 s-2 years; default 0
 *     (off).
 */
public record Tls(
        Optional<Identity> identity,
        Map<String, Identity> sniIdentities,
        boolean selfSigned,
        int port,
        Provider provider,
        Duration reloadInterval,
        Duration handshakeTimeout,
        int maxHandshakes,
        Duration ticketKeyRotation,
        ClientAuth clientAuth,
        Optional<Path> clientTrust,
        boolean redirectHttp,
        Duration hstsMaxAge) {

    // The ranges, one per numeric component. Declared before DEFAULTS: the constructor reads them.
    // Field names carry "tls." so they cannot be mistaken for Config's port in messages and tables.
    static final Range PORT = Range.count("tls.port", 0, 65_535);
    static final Range RELOAD_INTERVAL = Range.duration("tls.reloadInterval", Duration.ofSeconds(1), Duration.ofHours(24));
    static final Range HANDSHAKE_TIMEOUT = Range.duration("tls.handshakeTimeout", Duration.ofMillis(1), Duration.ofHours(24));
    static final Range MAX_HANDSHAKES = Range.count("tls.maxHandshakes", 1, 65_536);
    static final Range TICKET_KEY_ROTATION = Range.duration("tls.ticketKeyRotation", Duration.ofMinutes(1), Duration.ofHours(24));
    static final Range HSTS_MAX_AGE = Range.duration("tls.hstsMaxAge", Duration.ZERO, Duration.ofDays(730));

    /** The defaults, as documented on each component: TLS off. */
    public static final Tls DEFAULTS = new Builder().build();

    /** Which TLS implementation serves. */
    public enum Provider {
        /** OpenSSL (BoringSSL through netty-tcnative) when its native library loads, else the JDK's. */
        AUTO,
        /** OpenSSL only; start fails, naming the reason, when the native library cannot load. */
        OPENSSL,
        /** The JDK's own (SunJSSE). */
        JDK
    }

    /** Whether clients present certificates (mTLS). */
    public enum ClientAuth {
        /** Not asked for. */
        NONE,
        /** Asked for; a client without one is served, one with a certificate that does not verify is refused. */
        OPTIONAL,
        /** Required: the handshake fails without a certificate that chains to {@link #clientTrust()}. */
        REQUIRE
    }

    /**
     * A certificate chain and its private key, PEM files read at start and again when they change.
     *
     * @param certificate the server's certificate first, then any intermediates (PEM)
     * @param key its private key: PKCS#8 PEM ({@code BEGIN PRIVATE KEY}, or
     *     {@code BEGIN ENCRYPTED PRIVATE KEY} with {@link #keyPassword()})
     * @param chain intermediates in a separate file, appended after {@link #certificate()}; optional
     * @param keyPassword the password of an encrypted key; never printed
     * @param ocspResponse a DER OCSP response for {@link #certificate()} (what {@code openssl ocsp
     *     -respout} or a CA's responder gives), stapled to every handshake that asks for one
     *     (RFC 6066 8) with the OpenSSL provider, and reloaded when the file changes, so a job that
     *     fetches a fresh response keeps it current; the JDK provider cannot staple a given
     *     response, and the startup report says so. Optional; default none.
     */
    public record Identity(Path certificate, Path key, Optional<Path> chain, Optional<String> keyPassword,
            Optional<Path> ocspResponse) {
        /** Checks that nothing is null. */
        public Identity {
            Objects.requireNonNull(certificate, "certificate");
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(chain, "chain");
            Objects.requireNonNull(keyPassword, "keyPassword");
            Objects.requireNonNull(ocspResponse, "ocspResponse");
        }

        /** An identity without an OCSP response. */
        public Identity(Path certificate, Path key, Optional<Path> chain, Optional<String> keyPassword) {
            this(certificate, key, chain, keyPassword, Optional.empty());
        }

        /** @param certificate certificate chain (PEM) @param key private key (PEM) @return an identity without chain or password */
        public static Identity of(Path certificate, Path key) {
            return new Identity(certificate, key, Optional.empty(), Optional.empty());
        }

        /** @param response see {@link #ocspResponse()} @return this identity with it */
        public Identity withOcspResponse(Path response) {
            return new Identity(certificate, key, chain, keyPassword, Optional.of(response));
        }

        /** The password stays out of logs. */
        @Override
        public String toString() {
            return "Identity[certificate=" + certificate + ", key=" + key + ", chain=" + chain
                    + ", keyPassword=" + (keyPassword.isPresent() ? "(set)" : "(none)") + ", ocspResponse=" + ocspResponse + "]";
        }
    }

    /** Checks every field; throws {@link IllegalArgumentException} naming the first bad one, never its value. */
    public Tls {
        Objects.requireNonNull(identity, "identity");
        sniIdentities = Map.copyOf(sniIdentities);
        for (String name : sniIdentities.keySet()) checkName(name);
        PORT.check(port);
        Objects.requireNonNull(provider, "provider");
        RELOAD_INTERVAL.check(reloadInterval);
        HANDSHAKE_TIMEOUT.check(handshakeTimeout);
        MAX_HANDSHAKES.check(maxHandshakes);
        TICKET_KEY_ROTATION.check(ticketKeyRotation);
        Objects.requireNonNull(clientAuth, "clientAuth");
        Objects.requireNonNull(clientTrust, "clientTrust");
        HSTS_MAX_AGE.check(hstsMaxAge);
        if (clientAuth != ClientAuth.NONE && clientTrust.isEmpty()) {
            throw new IllegalArgumentException("tls.clientTrust is required when tls.clientAuth is " + clientAuth);
        }
        if (!sniIdentities.isEmpty() && identity.isEmpty() && !selfSigned) {
            throw new IllegalArgumentException("tls.sniIdentities need a default tls.identity (or tls.selfSigned)");
        }
    }

    private static void checkName(String name) {
        String host = name.startsWith("*.") ? name.substring(2) : name;
        if (host.isEmpty() || !host.equals(host.toLowerCase(Locale.ROOT))
                || !host.chars().allMatch(c -> c == '.' || c == '-' || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))) {
            throw new IllegalArgumentException("tls.sniIdentities names must be lower-case host names, optionally *.name");
        }
    }

    /** @return whether the TLS listener runs: a certificate is given or a self-signed one asked for */
    public boolean enabled() {
        return identity.isPresent() || selfSigned;
    }

    /** @return a builder holding the defaults */
    public static Builder builder() {
        return new Builder();
    }

    /** @return a builder starting from these settings */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /**
     * Builder for {@link Tls}; starts from the defaults, which are defined here and nowhere else.
     * The default identity is assembled from {@link #certificate}, {@link #key}, {@link #chain} and
     * {@link #keyPassword} (the environment sets them one by one).
     */
    public static final class Builder {
        private Path certificate;
        private Path key;
        private Path chain;
        private String keyPassword;
        private Path ocspResponse;
        private final Map<String, Identity> sni = new LinkedHashMap<>();
        private boolean selfSigned;
        private int port = 8443;
        private Provider provider = Provider.AUTO;
        private Duration reloadInterval = Duration.ofSeconds(10);
        private Duration handshakeTimeout = Duration.ofSeconds(10);
        private int maxHandshakes = 256;
        private Duration ticketKeyRotation = Duration.ofHours(1);
        private ClientAuth clientAuth = ClientAuth.NONE;
        private Path clientTrust;
        private boolean redirectHttp;
        private Duration hstsMaxAge = Duration.ZERO;

        private Builder() {}

        private Builder(Tls t) {
            t.identity.ifPresent(this::identity);
            sni.putAll(t.sniIdentities);
            selfSigned = t.selfSigned;
            port = t.port;
            provider = t.provider;
            reloadInterval = t.reloadInterval;
            handshakeTimeout = t.handshakeTimeout;
            maxHandshakes = t.maxHandshakes;
            ticketKeyRotation = t.ticketKeyRotation;
            clientAuth = t.clientAuth;
            clientTrust = t.clientTrust.orElse(null);
            redirectHttp = t.redirectHttp;
            hstsMaxAge = t.hstsMaxAge;
        }

        /** @param v the default identity, replacing certificate, key, chain and password @return this */
        public Builder identity(Identity v) {
            certificate = v.certificate();
            key = v.key();
            chain = v.chain().orElse(null);
            keyPassword = v.keyPassword().orElse(null);
            ocspResponse = v.ocspResponse().orElse(null);
            return this;
        }
        /** @param v see {@link Identity#certificate()} (turns TLS on) @return this */
        public Builder certificate(Path v) { certificate = Objects.requireNonNull(v); return this; }
        /** @param v see {@link Identity#key()} @return this */
        public Builder key(Path v) { key = Objects.requireNonNull(v); return this; }
        /** @param v see {@link Identity#chain()} @return this */
        public Builder chain(Path v) { chain = Objects.requireNonNull(v); return this; }
        /** @param v see {@link Identity#keyPassword()} @return this */
        public Builder keyPassword(String v) { keyPassword = Objects.requireNonNull(v); return this; }
        /** @param v see {@link Identity#ocspResponse()} @return this */
        public Builder ocspResponse(Path v) { ocspResponse = Objects.requireNonNull(v); return this; }
        /** @param name host name or {@code *.domain}, lower case @param v its identity @return this */
        public Builder sni(String name, Identity v) { sni.put(name, Objects.requireNonNull(v)); return this; }
        /** @param v see {@link Tls#selfSigned()} @return this */
        public Builder selfSigned(boolean v) { selfSigned = v; return this; }
        /** @param v see {@link Tls#port()} @return this */
        public Builder port(int v) { port = v; return this; }
        /** @param v see {@link Tls#provider()} @return this */
        public Builder provider(Provider v) { provider = v; return this; }
        /** @param v see {@link Tls#reloadInterval()} @return this */
        public Builder reloadInterval(Duration v) { reloadInterval = v; return this; }
        /** @param v see {@link Tls#handshakeTimeout()} @return this */
        public Builder handshakeTimeout(Duration v) { handshakeTimeout = v; return this; }
        /** @param v see {@link Tls#maxHandshakes()} @return this */
        public Builder maxHandshakes(int v) { maxHandshakes = v; return this; }
        /** @param v see {@link Tls#ticketKeyRotation()} @return this */
        public Builder ticketKeyRotation(Duration v) { ticketKeyRotation = v; return this; }
        /** @param v see {@link Tls#clientAuth()} @return this */
        public Builder clientAuth(ClientAuth v) { clientAuth = v; return this; }
        /** @param v see {@link Tls#clientTrust()} @return this */
        public Builder clientTrust(Path v) { clientTrust = Objects.requireNonNull(v); return this; }
        /** @param v see {@link Tls#redirectHttp()} @return this */
        public Builder redirectHttp(boolean v) { redirectHttp = v; return this; }
        /** @param v see {@link Tls#hstsMaxAge()} @return this */
        public Builder hstsMaxAge(Duration v) { hstsMaxAge = v; return this; }

        /** @return the settings; throws {@link IllegalArgumentException} naming a bad field */
        public Tls build() {
            if ((certificate == null) != (key == null)) {
                throw new IllegalArgumentException("tls.certificate and tls.key go together: set both or neither");
            }
            if (certificate == null && (chain != null || keyPassword != null || ocspResponse != null)) {
                throw new IllegalArgumentException("tls.chain, tls.keyPassword and tls.ocspResponse need tls.certificate and tls.key");
            }
            Optional<Identity> identity = certificate == null ? Optional.empty()
                    : Optional.of(new Identity(certificate, key, Optional.ofNullable(chain), Optional.ofNullable(keyPassword),
                            Optional.ofNullable(ocspResponse)));
            return new Tls(identity, sni, selfSigned, port, provider, reloadInterval, handshakeTimeout, maxHandshakes,
                    ticketKeyRotation, clientAuth, Optional.ofNullable(clientTrust), redirectHttp, hstsMaxAge);
        }
    }
}
