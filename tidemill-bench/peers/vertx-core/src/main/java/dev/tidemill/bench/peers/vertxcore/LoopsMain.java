package dev.tidemill.bench.peers.vertxcore;

import dev.tidemill.bench.common.LoopsContract;
import dev.tidemill.bench.common.Scenario;
import dev.tidemill.bench.common.TlsContract;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.net.NetServerOptions;
import io.vertx.core.net.PemKeyCertOptions;
import java.nio.file.Path;

/**
 * The Vert.x 5 core peer of the event-loop matrix ({@link LoopsContract}), so that {@link Main} stays
 * as the HTTP suites measure it. Arguments {@code <port> <tlsPort> <tcpPort> <ioThreads> <certDir>}.
 * One verticle instance per event loop, native transport (epoll) preferred as in {@link Main}: an
 * {@code HttpServer} on the plain port and one with TLS (Vert.x's default engine, the JDK's; the PEM
 * certificate and key) on the TLS port, each answering {@code GET /plaintext} and echoing binary
 * WebSocket messages on {@link LoopsContract#ECHO}; and a {@code NetServer} on the TCP port that
 * writes back every buffer it reads. Every handler runs on its event loop.
 */
public final class LoopsMain {
    private static final Buffer BODY = Buffer.buffer(Scenario.PLAINTEXT_BODY);

    private LoopsMain() {}

    public static void main(String[] args) {
        int port = Integer.parseInt(args[0]), tlsPort = Integer.parseInt(args[1]), tcpPort = Integer.parseInt(args[2]);
        int ioThreads = Integer.parseInt(args[3]);
        Path certs = Path.of(args[4]);
        Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(ioThreads).setPreferNativeTransport(true));
        vertx.deployVerticle(() -> new Server(port, tlsPort, tcpPort, certs), new DeploymentOptions().setInstances(ioThreads))
                .await();
        System.out.println(LoopsContract.READY_PREFIX + " vertx on " + port + " (TLS " + tlsPort + ", TCP echo " + tcpPort + "), " + ioThreads
                + " event loop(s), native transport " + vertx.isNativeTransportEnabled() + ", TLS: the JDK's engine");
    }

    /** One instance per event loop. */
    static final class Server extends VerticleBase {
        private final int port, tlsPort, tcpPort;
        private final Path certs;

        Server(int port, int tlsPort, int tcpPort, Path certs) {
            this.port = port;
            this.tlsPort = tlsPort;
            this.tcpPort = tcpPort;
            this.certs = certs;
        }

        @Override
        public Future<?> start() {
            HttpServerOptions plain = new HttpServerOptions().setHost("127.0.0.1").setPort(port).setTcpNoDelay(true)
                    .setMaxWebSocketFrameSize(1 << 20).setMaxWebSocketMessageSize(1 << 20);
            HttpServerOptions tls = new HttpServerOptions(plain).setPort(tlsPort).setSsl(true).setKeyCertOptions(new PemKeyCertOptions()
                    .setKeyPath(TlsContract.key(certs).toString()).setCertPath(TlsContract.cert(certs).toString()));
            Future<?> a = vertx.createHttpServer(plain).webSocketHandler(LoopsMain::echo).requestHandler(LoopsMain::plaintext).listen();
            Future<?> b = vertx.createHttpServer(tls).webSocketHandler(LoopsMain::echo).requestHandler(LoopsMain::plaintext).listen();
            if (tcpPort == 0) return Future.all(a, b);
            Future<?> c = vertx.createNetServer(new NetServerOptions().setHost("127.0.0.1").setPort(tcpPort).setTcpNoDelay(true))
                    .connectHandler(socket -> socket.handler(socket::write)).listen();
            return Future.all(a, b, c);
        }
    }

    private static void plaintext(HttpServerRequest req) {
        if (req.method() == HttpMethod.GET && Scenario.PLAINTEXT_PATH.equals(req.path())) {
            req.response().putHeader(HttpHeaders.CONTENT_TYPE, "text/plain").end(BODY);
        } else {
            req.response().setStatusCode(404).end();
        }
    }

    private static void echo(ServerWebSocket ws) {
        if (!ws.path().equals(LoopsContract.ECHO)) {
            ws.close((short) 1008);
            return;
        }
        ws.binaryMessageHandler(ws::writeBinaryMessage);
    }
}
