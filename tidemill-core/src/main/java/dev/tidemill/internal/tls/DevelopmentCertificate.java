package dev.tidemill.internal.tls;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Base64;
import java.util.HexFormat;

/**
 * A self-signed certificate for development ({@code Tls.selfSigned}, {@code ./tidemill demo --tls}):
 * an EC P-256 key and an X.509 v3 certificate for {@code localhost}, {@code 127.0.0.1} and
 * {@code ::1}, valid from an hour ago for {@link #VALIDITY}, made fresh at each start and never by default.
 *
 * <p>Written here, about 100 lines of DER, because the JDK has no public certificate builder and
 * the alternatives cost more: BouncyCastle's {@code bcpkix} is 9 MiB of jars for this one use, and
 * Netty's {@code SelfSignedCertificate} needs BouncyCastle or {@code sun.security.x509} (closed
 * to the classpath since JDK 16). Only the fields a TLS client checks are written: the subject
 * alternative names (RFC 6125 matches on them, not on the CN) and the serverAuth key purpose.
 *
 * @param key the private key
 * @param certificate the certificate
 */
record DevelopmentCertificate(PrivateKey key, X509Certificate certificate) {
    /** How long the certificate is valid: long enough for a development session, short enough to not outlive one by much. */
    static final Duration VALIDITY = Duration.ofDays(30);

    private static final byte[] ECDSA_WITH_SHA256 = oid(1, 2, 840, 10045, 4, 3, 2);
    private static final byte[] COMMON_NAME = oid(2, 5, 4, 3);
    private static final byte[] SUBJECT_ALT_NAME = oid(2, 5, 29, 17);
    private static final byte[] EXT_KEY_USAGE = oid(2, 5, 29, 37);
    private static final byte[] SERVER_AUTH = oid(1, 3, 6, 1, 5, 5, 7, 3, 1);
    private static final DateTimeFormatter UTC_TIME = DateTimeFormatter.ofPattern("yyMMddHHmmss'Z'").withZone(ZoneOffset.UTC);

    /** @return a new key and certificate */
    static DevelopmentCertificate generate() {
        try {
            KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
            g.initialize(new ECGenParameterSpec("secp256r1"));
            KeyPair pair = g.generateKeyPair();
            byte[] serial = new byte[16];
            new SecureRandom().nextBytes(serial);
            serial[0] &= 0x7f; // a positive INTEGER (RFC 5280 4.1.2.2)
            byte[] name = seq(set(seq(COMMON_NAME, tlv(0x0c, "Tidemill development certificate".getBytes(StandardCharsets.UTF_8)))));
            Instant now = Instant.now();
            byte[] altNames = seq(
                    tlv(0x82, "localhost".getBytes(StandardCharsets.US_ASCII)),
                    tlv(0x87, InetAddress.getByName("127.0.0.1").getAddress()),
                    tlv(0x87, InetAddress.getByName("::1").getAddress()));
            byte[] extensions = seq(
                    seq(SUBJECT_ALT_NAME, tlv(0x04, altNames)),
                    seq(EXT_KEY_USAGE, tlv(0x04, seq(SERVER_AUTH))));
            byte[] algorithm = seq(ECDSA_WITH_SHA256);
            byte[] tbs = seq(
                    tlv(0xa0, tlv(0x02, new byte[] {2})), // v3
                    tlv(0x02, new BigInteger(1, serial).toByteArray()),
                    algorithm,
                    name,
                    seq(time(now.minus(Duration.ofHours(1))), time(now.plus(VALIDITY))),
                    name,
                    pair.getPublic().getEncoded(), // SubjectPublicKeyInfo, already DER
                    tlv(0xa3, extensions));
            Signature signer = Signature.getInstance("SHA256withECDSA");
            signer.initSign(pair.getPrivate());
            signer.update(tbs);
            byte[] signature = signer.sign(); // DER ECDSA-Sig-Value, as the certificate carries it
            byte[] bits = new byte[signature.length + 1]; // leading 0: no unused bits in the BIT STRING
            System.arraycopy(signature, 0, bits, 1, signature.length);
            byte[] der = seq(tbs, algorithm, tlv(0x03, bits));
            X509Certificate cert = (X509Certificate) CertificateFactory.getInstance("X.509")
                    .generateCertificate(new ByteArrayInputStream(der));
            cert.verify(pair.getPublic());
            return new DevelopmentCertificate(pair.getPrivate(), cert);
        } catch (GeneralSecurityException | java.io.IOException e) {
            throw new IllegalStateException("could not generate a development certificate", e);
        }
    }

    /** @return the certificate's SHA-256 fingerprint, colon-separated upper-case hex (what browsers show) */
    String fingerprint() {
        return fingerprint(certificate);
    }

    /**
     * @return the base64 SHA-256 of the public key (SubjectPublicKeyInfo): what Chromium's
     *     {@code --ignore-certificate-errors-spki-list} takes
     */
    String spkiHash() {
        return Base64.getEncoder().encodeToString(sha256(certificate.getPublicKey().getEncoded()));
    }

    /** @param cert a certificate @return its SHA-256 fingerprint, {@code AB:CD:...} */
    static String fingerprint(X509Certificate cert) {
        try {
            return HexFormat.ofDelimiter(":").withUpperCase().formatHex(sha256(cert.getEncoded()));
        } catch (java.security.cert.CertificateEncodingException e) {
            throw new IllegalStateException(e);
        }
    }

    static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] time(Instant t) {
        return tlv(0x17, UTC_TIME.format(t).getBytes(StandardCharsets.US_ASCII)); // UTCTime: fine until 2050
    }

    private static byte[] seq(byte[]... parts) {
        return tlv(0x30, concat(parts));
    }

    private static byte[] set(byte[]... parts) {
        return tlv(0x31, concat(parts));
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) out.writeBytes(p);
        return out.toByteArray();
    }

    /** One DER element: tag, definite length (short or long form), contents. */
    private static byte[] tlv(int tag, byte[] content) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(content.length + 6);
        out.write(tag);
        int n = content.length;
        if (n < 0x80) {
            out.write(n);
        } else if (n < 0x100) {
            out.write(0x81);
            out.write(n);
        } else {
            out.write(0x82);
            out.write(n >> 8);
            out.write(n);
        }
        out.writeBytes(content);
        return out.toByteArray();
    }

    /** An OBJECT IDENTIFIER: the first two arcs in one byte, the rest base 128. */
    private static byte[] oid(int... arcs) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(40 * arcs[0] + arcs[1]);
        for (int i = 2; i < arcs.length; i++) {
            int v = arcs[i];
            int shift = 28;
            while (shift > 0 && (v >>> shift) == 0) shift -= 7;
            for (; shift > 0; shift -= 7) out.write(0x80 | ((v >>> shift) & 0x7f));
            out.write(v & 0x7f);
        }
        return tlv(0x06, out.toByteArray());
    }
}
