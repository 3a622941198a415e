package dev.tidemill.internal.tls;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.InvalidKeySpecException;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.crypto.EncryptedPrivateKeyInfo;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;

/**
 * Reads PEM certificates and PKCS#8 keys (plain or password-encrypted) with the JDK alone, so the
 * key is in hand to check against the certificate before a context is built from it (a certificate
 * rewritten before its key must not be served with the old key). Messages name what is wrong,
 * never a byte of the key.
 */
final class PemFiles {
    private static final Pattern KEY_BLOCK = Pattern.compile(
            "-----BEGIN (ENCRYPTED )?PRIVATE KEY-----([A-Za-z0-9+/=\\s]+)-----END (ENCRYPTED )?PRIVATE KEY-----");
    /** KeyFactory algorithms a PKCS#8 key may hold, tried in turn (the PEM does not say). */
    private static final List<String> KEY_ALGORITHMS = List.of("EC", "RSA", "RSASSA-PSS", "Ed25519", "Ed448");

    private PemFiles() {}

    /** @param pem one or more {@code BEGIN CERTIFICATE} blocks @return the certificates, in order */
    static List<X509Certificate> certificates(byte[] pem, String what) {
        try {
            List<X509Certificate> out = new ArrayList<>();
            for (var c : CertificateFactory.getInstance("X.509").generateCertificates(new ByteArrayInputStream(pem))) {
                out.add((X509Certificate) c);
            }
            if (out.isEmpty()) throw new IllegalArgumentException(what + " holds no PEM certificate");
            return out;
        } catch (java.security.cert.CertificateException e) {
            throw new IllegalArgumentException(what + " is not a PEM certificate file: " + e.getMessage(), e);
        }
    }

    /**
     * @param pem a {@code BEGIN PRIVATE KEY} or {@code BEGIN ENCRYPTED PRIVATE KEY} block
     * @param password the encrypted key's password, or null
     * @return the key
     */
    static PrivateKey privateKey(byte[] pem, String password, String what) {
        String text = new String(pem, StandardCharsets.US_ASCII);
        Matcher m = KEY_BLOCK.matcher(text);
        if (!m.find()) {
            throw new IllegalArgumentException(what + " holds no PKCS#8 PEM key (BEGIN PRIVATE KEY or BEGIN ENCRYPTED PRIVATE KEY);"
                    + " convert a traditional one with: openssl pkcs8 -topk8 -in old.pem -out new.pem");
        }
        byte[] der = Base64.getMimeDecoder().decode(m.group(2));
        PKCS8EncodedKeySpec spec;
        try {
            if (m.group(1) != null) {
                if (password == null) throw new IllegalArgumentException(what + " is encrypted and no key password is set");
                EncryptedPrivateKeyInfo info = new EncryptedPrivateKeyInfo(der);
                SecretKeyFactory f = SecretKeyFactory.getInstance(info.getAlgName());
                spec = info.getKeySpec(f.generateSecret(new PBEKeySpec(password.toCharArray())));
            } else {
                spec = new PKCS8EncodedKeySpec(der);
            }
        } catch (GeneralSecurityException | java.io.IOException e) {
            throw new IllegalArgumentException(what + " could not be decrypted (wrong password or unsupported cipher)", e);
        }
        for (String algorithm : KEY_ALGORITHMS) {
            try {
                return KeyFactory.getInstance(algorithm).generatePrivate(spec);
            } catch (InvalidKeySpecException | java.security.NoSuchAlgorithmException e) {
                // not this algorithm: try the next
            }
        }
        throw new IllegalArgumentException(what + " holds a key of an unsupported algorithm (EC, RSA and EdDSA are)");
    }
}
