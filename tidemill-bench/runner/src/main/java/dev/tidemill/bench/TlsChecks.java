package dev.tidemill.bench;

import dev.tidemill.bench.common.Scenario;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the TLS suite checks before it times a start: each protocol's answer to
 * {@code GET /plaintext} through curl (status 200, {@code text/plain}, the exact body, and the HTTP
 * version asked for: {@code 2} over TLS means ALPN chose h2), and one {@code openssl s_client}
 * handshake offering {@code h2,http/1.1}: its TLS version, cipher, ALPN answer and the size of the
 * server's key, which must be the certificate the start was given.
 */
final class TlsChecks {
    private TlsChecks() {}

    /**
     * One answer as curl reports it.
     *
     * @param body the body
     * @param status the status code
     * @param version {@code 1.1} or {@code 2}
     * @param contentType the Content-Type
     */
    record Answer(String body, int status, String version, String contentType) {}

    /** The marker before curl's {@code -w} line, so a body cannot be mistaken for it. */
    static final String MARK = "\n--tidemill-check-- ";

    /**
     * @param cpus the generator CPUs
     * @param c the case whose protocol is checked (a handshake case: HTTP/1.1 over TLS)
     * @param url the URL
     * @return the curl command
     */
    static List<String> curl(String cpus, TlsCase c, String url) {
        List<String> cmd = new ArrayList<>(List.of("taskset", "-c", cpus, "curl", "-sS", "--max-time", "10", "-k"));
        cmd.add(switch (c) {
            case H2C -> "--http2-prior-knowledge";
            case H2_TLS -> "--http2";
            default -> "--http1.1";
        });
        cmd.addAll(List.of("-w", MARK + "%{http_code} %{http_version} %{content_type}", url));
        return cmd;
    }

    /** @param out curl's output @return the answer, if curl wrote its line */
    static Optional<Answer> parseCurl(String out) {
        int at = out.lastIndexOf(MARK);
        if (at < 0) return Optional.empty();
        String[] f = out.substring(at + MARK.length()).strip().split(" ", 3);
        if (f.length < 2) return Optional.empty();
        try {
            return Optional.of(new Answer(out.substring(0, at), Integer.parseInt(f[0]), f[1], f.length > 2 ? f[2] : ""));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /**
     * @param c the case
     * @param a its answer
     * @return what is wrong with it, if anything
     */
    static Optional<String> problem(TlsCase c, Answer a) {
        String version = c == TlsCase.H2C || c == TlsCase.H2_TLS ? "2" : "1.1";
        if (a.status() != 200) return Optional.of(c.id() + ": status " + a.status());
        if (!a.version().equals(version)) return Optional.of(c.id() + ": HTTP version " + a.version() + ", expected " + version);
        if (!a.contentType().startsWith("text/plain")) return Optional.of(c.id() + ": Content-Type '" + a.contentType() + "'");
        if (!a.body().equals(Scenario.PLAINTEXT_BODY)) return Optional.of(c.id() + ": body '" + abbreviate(a.body()) + "'");
        return Optional.empty();
    }

    /**
     * What one handshake negotiated, as {@code openssl s_client} prints it.
     *
     * @param protocol {@code TLSv1.3} or {@code TLSv1.2}
     * @param cipher the cipher suite
     * @param alpn the protocol the server chose, or {@code none}
     * @param keyBits the size of the server's public key
     * @param signature the peer's signature type ({@code ECDSA}, {@code RSA-PSS}), or empty
     */
    record Handshake(String protocol, String cipher, String alpn, int keyBits, String signature) {
        /** @return one line for results */
        String describe() {
            return protocol + " " + cipher + ", ALPN " + alpn + ", server key " + keyBits + " bit" + (signature.isEmpty() ? "" : ", " + signature);
        }
    }

    /** @return the {@code s_client} command offering {@code h2,http/1.1} */
    static List<String> sClient(String cpus, int port) {
        return List.of("taskset", "-c", cpus, "openssl", "s_client", "-connect", "127.0.0.1:" + port, "-alpn", "h2,http/1.1");
    }

    /** @param out what {@code s_client} printed @return the handshake, if it completed */
    static Optional<Handshake> parseSClient(String out) {
        Matcher m = Pattern.compile("^New, (TLSv[\\d.]+), Cipher is (\\S+)", Pattern.MULTILINE).matcher(out);
        if (!m.find()) return Optional.empty();
        Matcher alpn = Pattern.compile("^ALPN protocol: (\\S+)", Pattern.MULTILINE).matcher(out);
        Matcher bits = Pattern.compile("^Server public key is (\\d+) bit", Pattern.MULTILINE).matcher(out);
        Matcher sig = Pattern.compile("^Peer signature type: (\\S+)", Pattern.MULTILINE).matcher(out);
        return Optional.of(new Handshake(m.group(1), m.group(2), alpn.find() ? alpn.group(1) : "none",
                bits.find() ? Integer.parseInt(bits.group(1)) : -1, sig.find() ? sig.group(1) : ""));
    }

    /**
     * @param h the handshake
     * @param key the key the start's certificate has
     * @return what is wrong with it, if anything: TLS 1.2 or 1.3, ALPN h2, the certificate's key size
     */
    static Optional<String> problem(Handshake h, TlsCase.TlsKey key) {
        if (!h.protocol().equals("TLSv1.3") && !h.protocol().equals("TLSv1.2")) return Optional.of("TLS version " + h.protocol());
        if (!h.alpn().equals("h2")) return Optional.of("ALPN offering h2,http/1.1 chose " + h.alpn() + ", expected h2");
        if (h.keyBits() != key.bits()) return Optional.of("server key " + h.keyBits() + " bit, expected " + key.label());
        return Optional.empty();
    }

    /** What {@link #closes} answers when the answer was right but the connection stayed open. */
    static final String NO_CLOSE = "no close";

    /**
     * The handshake cases' request ({@link TlsLoad#handshakeRequest()}) over a TLS connection of its
     * own: the answer must be a 200 with the body, and the server must then close the connection,
     * because {@code s_time} reads until it does.
     *
     * @param port the TLS port
     * @return the problem, if any; {@link #NO_CLOSE} alone when the answer was right but no close came within 5 s
     */
    static Optional<String> closes(int port) {
        try {
            javax.net.ssl.SSLContext ctx = javax.net.ssl.SSLContext.getInstance("TLS");
            ctx.init(null, new javax.net.ssl.TrustManager[] {new TrustAll()}, null);
            try (javax.net.ssl.SSLSocket s = (javax.net.ssl.SSLSocket) ctx.getSocketFactory().createSocket("127.0.0.1", port)) {
                s.setSoTimeout(5_000);
                s.getOutputStream().write(TlsLoad.handshakeRequest().getBytes(java.nio.charset.StandardCharsets.US_ASCII));
                s.getOutputStream().flush();
                java.io.ByteArrayOutputStream got = new java.io.ByteArrayOutputStream();
                byte[] buf = new byte[4096];
                boolean closed = false;
                try {
                    for (int n; (n = s.getInputStream().read(buf)) >= 0; ) got.write(buf, 0, n);
                    closed = true;
                } catch (java.net.SocketTimeoutException open) {
                    // no close within the timeout: judged below, once the answer is known to be right
                } catch (java.io.IOException cut) {
                    closed = true; // a close without close_notify is still a close to s_time
                }
                String text = got.toString(java.nio.charset.StandardCharsets.ISO_8859_1);
                if (!text.startsWith("HTTP/1.1 200")) return Optional.of("handshake request: answer '" + abbreviate(text.lines().findFirst().orElse("")) + "'");
                if (!text.endsWith("\r\n\r\n" + Scenario.PLAINTEXT_BODY)) return Optional.of("handshake request: body not " + Scenario.PLAINTEXT_BODY);
                return closed ? Optional.empty() : Optional.of(NO_CLOSE);
            }
        } catch (java.security.GeneralSecurityException | java.io.IOException e) {
            return Optional.of("handshake request: " + e);
        }
    }

    /** Trusts the run's self-signed certificates: the check is of the answer, the certificate is checked by s_client. */
    private static final class TrustAll implements javax.net.ssl.X509TrustManager {
        @Override
        public void checkClientTrusted(java.security.cert.X509Certificate[] chain, String authType) {}

        @Override
        public void checkServerTrusted(java.security.cert.X509Certificate[] chain, String authType) {}

        @Override
        public java.security.cert.X509Certificate[] getAcceptedIssuers() {
            return new java.security.cert.X509Certificate[0];
        }
    }

    private static String abbreviate(String s) {
        return s.length() <= 60 ? s : s.substring(0, 60) + "...";
    }
}
