package dev.tidemill.tests.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.MessageDigest;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * Certificates for the TLS tests, made by the {@code openssl} command (a tool that is not ours, so
 * the server reads what real deployments have), and the client-side helpers the tests share.
 */
public final class TestCertificates {
    private TestCertificates() {}

    /** A certificate and its key, as PEM files. */
    public record Pair(Path certificate, Path key) {}

    /**
     * @param dir where the files go ({@code name.crt}, {@code name.key})
     * @param name file name and CN
     * @param sans subjectAltName entries, e.g. {@code DNS:localhost,IP:127.0.0.1}
     * @return a self-signed EC P-256 certificate and its PKCS#8 key
     */
    public static Pair selfSigned(Path dir, String name, String sans) {
        Path crt = dir.resolve(name + ".crt");
        Path key = dir.resolve(name + ".key");
        exec(dir, "openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                "-keyout", key.toString(), "-out", crt.toString(), "-days", "2", "-subj", "/CN=" + name,
                "-addext", "subjectAltName=" + sans);
        return new Pair(crt, key);
    }

    /** @return a copy of {@code key} encrypted with {@code password} (PKCS#8, PBES2 with AES-256) */
    public static Path encrypted(Path key, String password) {
        Path out = key.resolveSibling(key.getFileName() + ".enc");
        exec(key.getParent(), "openssl", "pkcs8", "-topk8", "-v2", "aes-256-cbc", "-in", key.toString(),
                "-out", out.toString(), "-passout", "pass:" + password);
        return out;
    }

    /** @return a CA (self-signed, CA:TRUE) */
    public static Pair authority(Path dir, String name) {
        Path crt = dir.resolve(name + ".crt");
        Path key = dir.resolve(name + ".key");
        exec(dir, "openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                "-keyout", key.toString(), "-out", crt.toString(), "-days", "2", "-subj", "/CN=" + name,
                "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign");
        return new Pair(crt, key);
    }

    /** @return a client certificate for {@code /CN=name} signed by {@code ca} */
    public static Pair client(Path dir, String name, Pair ca) {
        Path crt = dir.resolve(name + ".crt");
        Path key = dir.resolve(name + ".key");
        Path csr = dir.resolve(name + ".csr");
        exec(dir, "openssl", "req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                "-keyout", key.toString(), "-out", csr.toString(), "-subj", "/CN=" + name);
        exec(dir, "openssl", "x509", "-req", "-in", csr.toString(), "-CA", ca.certificate().toString(),
                "-CAkey", ca.key().toString(), "-CAcreateserial", "-out", crt.toString(), "-days", "2");
        return new Pair(crt, key);
    }

    /** @return a client context trusting {@code trusted} and presenting {@code identity} */
    public static SSLContext clientWithCertificate(Path trusted, Pair identity) {
        exec(identity.key().getParent(), "openssl", "pkcs12", "-export", "-in", identity.certificate().toString(),
                "-inkey", identity.key().toString(), "-out", identity.key() + ".p12", "-passout", "pass:test");
        try (InputStream in = Files.newInputStream(Path.of(identity.key() + ".p12"))) {
            KeyStore ks = KeyStore.getInstance("PKCS12");
            ks.load(in, "test".toCharArray());
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(ks, "test".toCharArray());
            SSLContext ctx = SSLContext.getInstance("TLS");
            javax.net.ssl.TrustManagerFactory tmf = javax.net.ssl.TrustManagerFactory.getInstance(
                    javax.net.ssl.TrustManagerFactory.getDefaultAlgorithm());
            KeyStore ts = KeyStore.getInstance("PKCS12");
            ts.load(null, null);
            int i = 0;
            for (X509Certificate c : certificates(trusted)) ts.setCertificateEntry("t" + i++, c);
            tmf.init(ts);
            ctx.init(kmf.getKeyManagers(), tmf.getTrustManagers(), null);
            return ctx;
        } catch (IOException | java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** @return a client context that accepts any server certificate, for tests that inspect what is served */
    public static SSLContext trustingAnything() {
        try {
            SSLContext ctx = SSLContext.getInstance("TLS");
            ctx.init(null, new TrustManager[] {new X509ExtendedTrustManager() {
                @Override public void checkClientTrusted(X509Certificate[] c, String a) {}
                @Override public void checkServerTrusted(X509Certificate[] c, String a) {}
                @Override public void checkClientTrusted(X509Certificate[] c, String a, Socket s) {}
                @Override public void checkServerTrusted(X509Certificate[] c, String a, Socket s) {}
                @Override public void checkClientTrusted(X509Certificate[] c, String a, SSLEngine e) {}
                @Override public void checkServerTrusted(X509Certificate[] c, String a, SSLEngine e) {}
                @Override public X509Certificate[] getAcceptedIssuers() { return new X509Certificate[0]; }
            }}, null);
            return ctx;
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** @return the certificates in a PEM file */
    public static List<X509Certificate> certificates(Path pem) {
        try (InputStream in = Files.newInputStream(pem)) {
            List<X509Certificate> out = new ArrayList<>();
            for (var c : CertificateFactory.getInstance("X.509").generateCertificates(in)) out.add((X509Certificate) c);
            return out;
        } catch (IOException | java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** @return SHA-256 of the certificate, {@code AB:CD:...} as the startup report writes it */
    public static String fingerprint(java.security.cert.Certificate cert) {
        try {
            return HexFormat.ofDelimiter(":").withUpperCase().formatHex(MessageDigest.getInstance("SHA-256").digest(cert.getEncoded()));
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Runs a command, failing the test on a non-zero exit; returns its output. */
    public static String exec(Path dir, String... command) {
        return run(dir, true, command);
    }

    /**
     * @param command an {@link ExternalTool}'s program and its arguments
     * @return stdout and stderr; fails naming the package when the program is missing
     */
    public static String run(Path dir, boolean mustSucceed, String... command) {
        ExternalTool.of(command[0]).require();
        Process p;
        try {
            ProcessBuilder b = new ProcessBuilder(command).redirectErrorStream(true);
            if (dir != null) b.directory(dir.toFile());
            p = b.start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try {
            p.getOutputStream().close(); // s_client waits on stdin otherwise
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("%s finished", List.of(command)).isTrue();
            if (mustSucceed) assertThat(p.exitValue()).as("%s: %s", List.of(command), out).isZero();
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } finally {
            p.destroyForcibly();
        }
    }
}
