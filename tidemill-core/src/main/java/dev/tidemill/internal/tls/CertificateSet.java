package dev.tidemill.internal.tls;

import dev.tidemill.Tls;
import io.netty.handler.ssl.SslContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * One immutable generation of the server's TLS contexts: the default one and one per SNI name,
 * built from the files' bytes as read at one moment. {@link CertificateReloader} swaps in a new
 * generation when the files change; a connection uses the generation current at its ClientHello.
 */
final class CertificateSet {
    private final SslContext fallback;
    private final Map<String, SslContext> exact;
    /** {@code *.example.com} stored as {@code example.com}: one label is matched (RFC 6125 6.4.3). */
    private final Map<String, SslContext> wildcard;
    private final List<String> description;

    private CertificateSet(SslContext fallback, Map<String, SslContext> exact, Map<String, SslContext> wildcard,
            List<String> description) {
        this.fallback = fallback;
        this.exact = Map.copyOf(exact);
        this.wildcard = Map.copyOf(wildcard);
        this.description = List.copyOf(description);
    }

    /** @return every file the contexts are built from, for the reloader to watch */
    static Set<Path> files(Tls tls) {
        Set<Path> out = new LinkedHashSet<>();
        List<Tls.Identity> ids = new ArrayList<>(tls.sniIdentities().values());
        tls.identity().ifPresent(ids::add);
        for (Tls.Identity id : ids) {
            out.add(id.certificate());
            out.add(id.key());
            id.chain().ifPresent(out::add);
            id.ocspResponse().ifPresent(out::add);
        }
        tls.clientTrust().ifPresent(out::add);
        return out;
    }

    /** @return each file's bytes, read now; a file that cannot be read is an exception naming it */
    static Map<Path, byte[]> read(Set<Path> files) {
        Map<Path, byte[]> out = new LinkedHashMap<>();
        for (Path p : files) {
            try {
                out.put(p, Files.readAllBytes(p));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + p + ": " + e, e);
            }
        }
        return out;
    }

    /**
     * @param tls the settings
     * @param factory builds each context
     * @param dev the development certificate, used when no default identity is set; may be null
     * @param bytes the files' contents ({@link #read})
     * @return the contexts
     * @throws IllegalArgumentException naming the file and what is wrong with it
     */
    static CertificateSet build(Tls tls, ContextFactory factory, DevelopmentCertificate dev, Map<Path, byte[]> bytes) {
        List<X509Certificate> trust = tls.clientTrust()
                .map(p -> PemFiles.certificates(bytes.get(p), "tls.clientTrust " + p)).orElse(List.of());
        List<String> description = new ArrayList<>();
        SslContext fallback;
        if (tls.identity().isPresent()) {
            fallback = context(tls.identity().get(), "default", factory, trust, bytes, description);
        } else {
            fallback = build(factory, dev.key(), List.of(dev.certificate()), trust, "self-signed development certificate",
                    description);
            description.add("  Chromium: --ignore-certificate-errors-spki-list=" + dev.spkiHash());
        }
        Map<String, SslContext> exact = new LinkedHashMap<>();
        Map<String, SslContext> wildcard = new LinkedHashMap<>();
        for (Map.Entry<String, Tls.Identity> e : tls.sniIdentities().entrySet()) {
            SslContext c = context(e.getValue(), "for " + e.getKey(), factory, trust, bytes, description);
            if (e.getKey().startsWith("*.")) wildcard.put(e.getKey().substring(2), c);
            else exact.put(e.getKey(), c);
        }
        if (!trust.isEmpty()) description.add("client certificates " + tls.clientAuth() + ", " + trust.size() + " trusted CA(s)");
        return new CertificateSet(fallback, exact, wildcard, description);
    }

    private static SslContext context(Tls.Identity id, String label, ContextFactory factory, List<X509Certificate> trust,
            Map<Path, byte[]> bytes, List<String> description) {
        List<X509Certificate> chain = new ArrayList<>(PemFiles.certificates(bytes.get(id.certificate()), "certificate " + id.certificate()));
        id.chain().ifPresent(p -> chain.addAll(PemFiles.certificates(bytes.get(p), "chain " + p)));
        PrivateKey key = PemFiles.privateKey(bytes.get(id.key()), id.keyPassword().orElse(null), "key " + id.key());
        byte[] ocsp = id.ocspResponse().map(p -> OcspStaple.check(bytes.get(p), "ocspResponse " + p)).orElse(null);
        return build(factory, key, chain, trust, ocsp, label + " " + id.certificate(), description);
    }

    private static SslContext build(ContextFactory factory, PrivateKey key, List<X509Certificate> chain,
            List<X509Certificate> trust, String label, List<String> description) {
        return build(factory, key, chain, trust, null, label, description);
    }

    private static SslContext build(ContextFactory factory, PrivateKey key, List<X509Certificate> chain,
            List<X509Certificate> trust, byte[] ocsp, String label, List<String> description) {
        try {
            SslContext c = factory.build(key, chain, trust, ocsp);
            X509Certificate leaf = chain.get(0);
            description.add("certificate " + label + ": " + leaf.getSubjectX500Principal().getName() + ", expires "
                    + leaf.getNotAfter().toInstant() + ", SHA-256 " + DevelopmentCertificate.fingerprint(leaf));
            if (ocsp != null) description.add("  OCSP response (" + ocsp.length + " bytes): "
                    + (factory.staplesOcsp() ? "stapled" : "not stapled: " + factory.choice().provider() + " cannot staple a given response"));
            return c;
        } catch (javax.net.ssl.SSLException | RuntimeException e) {
            throw new IllegalArgumentException("certificate " + label + ": " + e.getMessage(), e);
        }
    }

    /**
     * @param host the SNI host name the client sent, or null
     * @return its context: an exact name, else a one-label wildcard, else the default
     */
    SslContext select(String host) {
        if (host == null) return fallback;
        String h = host.toLowerCase(Locale.ROOT);
        SslContext c = exact.get(h);
        if (c != null) return c;
        int dot = h.indexOf('.');
        if (dot > 0) c = wildcard.get(h.substring(dot + 1));
        return c != null ? c : fallback;
    }

    /** @return every context, for ticket key rotation */
    Collection<SslContext> all() {
        List<SslContext> out = new ArrayList<>(exact.values());
        out.addAll(wildcard.values());
        out.add(fallback);
        return out;
    }

    /** @return one line per certificate (subject, expiry, fingerprint), for the startup report and the reload log */
    List<String> description() {
        return description;
    }
}
