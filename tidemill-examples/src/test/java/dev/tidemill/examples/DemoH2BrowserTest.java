package dev.tidemill.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.Config;
import dev.tidemill.Tidemill;
import dev.tidemill.WebSocket;
import dev.tidemill.WebSocketHandler;
import dev.tidemill.WebSocketMessage;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TidemillApp;
import dev.tidemill.testing.TidemillTest;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The demo as {@code ./tidemill demo --tls} serves it (a self-signed development certificate), in
 * headless Chromium over TLS + HTTP/2: the certificate is trusted through Chromium's
 * {@code --ignore-certificate-errors-spki-list} flag with its public key's hash, and a browser
 * without the flag must refuse it. Over the trusted connection ALPN picks h2 for the page, Server-Sent
 * Events through {@code EventSource}, a streamed response read as it arrives, and a {@code wss://}
 * WebSocket, which Chromium opens on that same connection with an extended CONNECT (RFC 8441)
 * ({@code h2.mjs}).
 * Fails, rather than skips, when Chromium or Node.js is missing (the setup of
 * {@link LiveBoardBrowserTest}).
 */
@TidemillTest
@Timeout(150)
class DemoH2BrowserTest {
    @TidemillApp
    static Tidemill demo(Config.Builder config) {
        Tidemill app = Demo.create(config.tls(t -> t.port(0).selfSigned(true)).build());
        // tells the page which protocol carried its WebSocket: over TLS Chromium opens it on the page's h2
        // connection with an extended CONNECT (RFC 8441) when the server's SETTINGS offer it
        app.ws("/ws/protocol", new WebSocketHandler() {
            @Override
            public void onOpen(WebSocket ws) {
                ws.send(ws.request().protocol());
            }

            @Override
            public void onMessage(WebSocket ws, WebSocketMessage message) {
                ws.send(message);
            }
        });
        return app;
    }

    @Test
    @SuppressWarnings("unchecked")
    void chromiumGetsThePageSseAndAStreamOverH2WithTheCertificateTrustedByItsKey(TestClient client) throws Exception {
        int port = client.server().tlsPort().orElseThrow();
        Map<String, Object> seen = BrowserScript.run("h2.mjs", "https://127.0.0.1:" + port, spkiHash(port));
        assertThat(seen.get("error")).as("the script's failure").isNull();

        assertThat(seen.get("untrustedLoaded")).as("without the flag the self-signed certificate is refused").isEqualTo(false);
        assertThat((String) seen.get("untrustedError")).contains("ERR_CERT");

        assertThat(seen.get("helloStatus")).isEqualTo(200);
        assertThat(seen.get("helloBody")).isEqualTo("Hello, World!");
        assertThat(seen.get("navigationProtocol")).as("ALPN").isEqualTo("h2");
        assertThat(((Map<String, Object>) seen.get("security")).get("protocol")).asString().matches("TLS 1\\.[23]");

        List<Map<String, Object>> ticks = (List<Map<String, Object>>) seen.get("ticks");
        assertThat(ticks).extracting(t -> t.get("data")).containsExactly("tick 1 of 3", "tick 2 of 3", "tick 3 of 3");
        assertThat(ticks).extracting(t -> t.get("id")).containsExactly("1", "2", "3");

        Map<String, Object> stream = (Map<String, Object>) seen.get("stream");
        assertThat(stream.get("status")).isEqualTo(200);
        assertThat(stream.get("text")).isEqualTo("line 1 of 3\nline 2 of 3\nline 3 of 3\n");
        assertThat((List<?>) stream.get("pieces")).as("read as it was written, 200 ms apart").hasSizeGreaterThan(1);

        Map<String, Object> protocols = (Map<String, Object>) seen.get("protocols");
        assertThat(protocols).containsEntry("/stream", "h2").containsEntry("/sse/ticks", "h2");
        Map<String, Object> ws = (Map<String, Object>) seen.get("webSocket");
        assertThat(ws.get("first")).as("the WebSocket rode the page's HTTP/2 connection (RFC 8441)").isEqualTo("HTTP/2.0");
        assertThat(ws.get("echo")).isEqualTo("hello over one stream");
        assertThat(ws.get("closeCode")).isEqualTo(1000);
        assertThat(ws.get("wasClean")).isEqualTo(true);

        assertThat((List<?>) seen.get("consoleErrors")).isEmpty();
        assertThat((List<?>) seen.get("failedResponses")).as("responses >= 400 but the favicon the demo has none of").isEmpty();
    }

    /** @return the base64 SHA-256 of the server certificate's SubjectPublicKeyInfo, what Chromium's flag takes */
    private static String spkiHash(int port) throws Exception {
        SSLContext tls = SSLContext.getInstance("TLS");
        tls.init(null, new TrustManager[] {new X509TrustManager() { // read the certificate only; nothing is sent
            @Override public void checkClientTrusted(X509Certificate[] chain, String type) {}
            @Override public void checkServerTrusted(X509Certificate[] chain, String type) {}
            @Override public X509Certificate[] getAcceptedIssuers() { return new X509Certificate[0]; }
        }}, new SecureRandom());
        try (SSLSocket s = (SSLSocket) tls.getSocketFactory().createSocket("127.0.0.1", port)) {
            s.startHandshake();
            X509Certificate cert = (X509Certificate) s.getSession().getPeerCertificates()[0];
            return Base64.getEncoder().encodeToString(MessageDigest.getInstance("SHA-256").digest(cert.getPublicKey().getEncoded()));
        }
    }
}
