package dev.tidemill.bench.peers.jetty;

import dev.tidemill.bench.common.Scenario;
import dev.tidemill.bench.common.TlsContract;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import org.eclipse.jetty.alpn.server.ALPNServerConnectionFactory;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.http2.server.HTTP2CServerConnectionFactory;
import org.eclipse.jetty.http2.server.HTTP2ServerConnectionFactory;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.ssl.SslContextFactory;

/**
 * Jetty 12 peer of the TLS suite ({@code dev.tidemill.bench.common.TlsContract}), so that
 * {@link Main} stays as the HTTP suites measure it. Arguments {@code <port> <tlsPort> <ioThreads>
 * <certDir>}. Two connectors with as many selectors as I/O threads and no dedicated acceptor, as
 * in {@link Main}: the plain one with HTTP/1.1 and {@link HTTP2CServerConnectionFactory} (h2c by
 * prior knowledge, and Jetty's {@code Upgrade: h2c}), the TLS one as Jetty's documentation builds
 * it: {@link SslConnectionFactory} (the JDK's TLS, the PKCS#12 key store), then
 * {@link ALPNServerConnectionFactory} (jetty-alpn-java-server) choosing {@code h2} or
 * {@code http/1.1}. One non-blocking handler answers {@code GET /plaintext}.
 */
public final class TlsMain {
    private TlsMain() {}

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        int tlsPort = Integer.parseInt(args[1]);
        int ioThreads = Integer.parseInt(args[2]);
        Path certs = Path.of(args[3]);
        Server server = new Server();

        HttpConfiguration http = new HttpConfiguration();
        ServerConnector plain = new ServerConnector(server, 0, ioThreads,
                new HttpConnectionFactory(http), new HTTP2CServerConnectionFactory(http));
        plain.setHost("127.0.0.1");
        plain.setPort(port);
        server.addConnector(plain);

        HttpConfiguration https = new HttpConfiguration(http);
        // the certificate names localhost; the runner connects to 127.0.0.1 and sends no SNI
        https.addCustomizer(new SecureRequestCustomizer(false));
        HttpConnectionFactory h1 = new HttpConnectionFactory(https);
        HTTP2ServerConnectionFactory h2 = new HTTP2ServerConnectionFactory(https);
        ALPNServerConnectionFactory alpn = new ALPNServerConnectionFactory();
        alpn.setDefaultProtocol(h1.getProtocol());
        SslContextFactory.Server ssl = new SslContextFactory.Server();
        ssl.setKeyStorePath(TlsContract.keystore(certs).toString());
        ssl.setKeyStoreType("PKCS12");
        ssl.setKeyStorePassword(TlsContract.KEYSTORE_PASSWORD);
        ServerConnector secure = new ServerConnector(server, 0, ioThreads,
                new SslConnectionFactory(ssl, alpn.getProtocol()), alpn, h2, h1);
        secure.setHost("127.0.0.1");
        secure.setPort(tlsPort);
        server.addConnector(secure);

        server.setHandler(new Handler.Abstract.NonBlocking() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) {
                if (!HttpMethod.GET.is(request.getMethod()) || !Scenario.PLAINTEXT_PATH.equals(request.getHttpURI().getPath())) {
                    return false;
                }
                response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain");
                response.write(true, ByteBuffer.wrap(Scenario.utf8(Scenario.PLAINTEXT_BODY)), callback);
                return true;
            }
        });
        server.start();
        System.out.println("jetty tls listening on 127.0.0.1:" + port + " (h1, h2c) and " + tlsPort
                + " (TLS, ALPN h2, http/1.1; JDK TLS; " + ioThreads + " selectors)");
    }
}
