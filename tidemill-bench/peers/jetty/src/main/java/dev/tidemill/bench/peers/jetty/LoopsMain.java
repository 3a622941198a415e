package dev.tidemill.bench.peers.jetty;

import dev.tidemill.bench.common.LoopsContract;
import dev.tidemill.bench.common.Scenario;
import dev.tidemill.bench.common.TlsContract;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.concurrent.Executors;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
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
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.eclipse.jetty.websocket.server.WebSocketUpgradeHandler;

/**
 * The Jetty 12 peer of the event-loop matrix ({@link LoopsContract}) on virtual threads, so that
 * {@link Main} stays as the HTTP suites measure it. Arguments {@code <port> <tlsPort> <tcpPort>
 * <ioThreads> <certDir>}. The thread pool is a {@link QueuedThreadPool} with a virtual-thread
 * executor ({@code setVirtualThreadsExecutor}), and the handler is a blocking one (not
 * {@code Handler.Abstract.NonBlocking}), so Jetty runs each request on a virtual thread. Two
 * connectors with as many selectors as I/O threads and no acceptor thread, as in {@link Main}: plain
 * HTTP/1.1, and TLS (the JDK's {@code SSLEngine}, the PKCS#12 key store) then HTTP/1.1. The
 * WebSocket echo is {@link StreamsMain.Echo} behind a {@link WebSocketUpgradeHandler} in front of
 * {@code GET /plaintext}. Jetty exposes no raw TCP server, so the TCP port is ignored.
 */
public final class LoopsMain {
    private LoopsMain() {}

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]), tlsPort = Integer.parseInt(args[1]);
        int ioThreads = Integer.parseInt(args[3]);
        Path certs = Path.of(args[4]);
        QueuedThreadPool pool = new QueuedThreadPool();
        pool.setVirtualThreadsExecutor(Executors.newVirtualThreadPerTaskExecutor());
        Server server = new Server(pool);

        HttpConfiguration http = new HttpConfiguration();
        ServerConnector plain = new ServerConnector(server, 0, ioThreads, new HttpConnectionFactory(http));
        plain.setHost("127.0.0.1");
        plain.setPort(port);
        server.addConnector(plain);
        HttpConfiguration https = new HttpConfiguration(http);
        https.addCustomizer(new SecureRequestCustomizer(false)); // the certificate names localhost; the runner sends no SNI
        SslContextFactory.Server ssl = new SslContextFactory.Server();
        ssl.setKeyStorePath(TlsContract.keystore(certs).toString());
        ssl.setKeyStoreType("PKCS12");
        ssl.setKeyStorePassword(TlsContract.KEYSTORE_PASSWORD);
        ServerConnector secure = new ServerConnector(server, 0, ioThreads, new SslConnectionFactory(ssl, "http/1.1"),
                new HttpConnectionFactory(https));
        secure.setHost("127.0.0.1");
        secure.setPort(tlsPort);
        server.addConnector(secure);

        WebSocketUpgradeHandler ws = WebSocketUpgradeHandler.from(server, container -> {
            container.setMaxBinaryMessageSize(1 << 20);
            container.addMapping(LoopsContract.ECHO, (request, response, callback) -> new StreamsMain.Echo());
        });
        ws.setHandler(new Handler.Abstract() {
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
        server.setHandler(ws);
        server.start();
        System.out.println(LoopsContract.READY_PREFIX + " jetty on " + port + " (TLS " + tlsPort + ", no TCP echo), " + ioThreads
                + " selector(s), virtual threads for blocking handlers, TLS: the JDK's");
    }
}
