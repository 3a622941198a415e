package dev.tidemill.bench;

import dev.tidemill.bench.common.TlsContract;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The TLS suite's certificates, made with the {@code openssl} CLI at the start of every run into
 * its temp directory: one self-signed certificate per {@link TlsCase.TlsKey} for {@code localhost}
 * and {@code 127.0.0.1}, valid 2 days, each directory holding the PEM pair and a PKCS#12 key store
 * ({@link TlsContract}). Tidemill's own development certificate is P-256 only, so it is not used.
 */
final class TlsCertificates {
    private TlsCertificates() {}

    /** @return the commands that make one key's directory, in order */
    static List<List<String>> commands(TlsCase.TlsKey key, Path dir) {
        List<String> req = new ArrayList<>(List.of("openssl", "req", "-x509", "-newkey"));
        req.addAll(key == TlsCase.TlsKey.RSA ? List.of("rsa:2048") : List.of("ec", "-pkeyopt", "ec_paramgen_curve:P-256"));
        req.addAll(List.of("-nodes", "-keyout", TlsContract.key(dir).toString(), "-out", TlsContract.cert(dir).toString(), "-days", "2",
                "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"));
        List<String> p12 = List.of("openssl", "pkcs12", "-export", "-in", TlsContract.cert(dir).toString(), "-inkey",
                TlsContract.key(dir).toString(), "-name", TlsContract.ALIAS, "-out", TlsContract.keystore(dir).toString(), "-passout",
                "pass:" + TlsContract.KEYSTORE_PASSWORD);
        return List.of(req, p12);
    }

    /**
     * Makes every key's directory under {@code root}.
     *
     * @param root the run's certificate directory
     * @return each key's directory
     * @throws IllegalStateException naming the command that failed
     */
    static Map<TlsCase.TlsKey, Path> make(Path root) {
        Map<TlsCase.TlsKey, Path> out = new LinkedHashMap<>();
        for (TlsCase.TlsKey key : TlsCase.TlsKey.values()) {
            Path dir = root.resolve(key.id());
            try {
                java.nio.file.Files.createDirectories(dir);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            for (List<String> cmd : commands(key, dir)) {
                TlsLoad.Output o = TlsLoad.run(cmd, 30);
                if (o.exit() != 0) throw new IllegalStateException(String.join(" ", cmd) + " exited " + o.exit() + ": " + o.text().strip());
            }
            out.put(key, dir);
        }
        return out;
    }
}
