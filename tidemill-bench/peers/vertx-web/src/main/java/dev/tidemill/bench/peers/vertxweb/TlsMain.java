package dev.tidemill.bench.peers.vertxweb;

import dev.tidemill.bench.common.Scenario;
import dev.tidemill.bench.common.TlsContract;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.net.JdkSSLEngineOptions;
import io.vertx.core.net.OpenSSLEngineOptions;
import io.vertx.core.net.PemKeyCertOptions;
import io.vertx.core.net.SSLEngineOptions;
import io.vertx.ext.web.Router;
import java.nio.file.Path;
import java.util.List;

/**
 * Vert.x 5 Web peer of the TLS suite ({@code dev.tidemill.bench.common.TlsContract}), so that
 * {@link Main} stays as the HTTP suites measure it. Arguments {@code <port> <tlsPort> <ioThreads>
 * <certDir> [openssl|jdk]}. One verticle per event loop, as in {@link Main}, each with two servers
 * and one router serving {@code /plaintext}: the plain port with HTTP/2 cleartext on
 * ({@code setHttp2ClearTextEnabled}: prior knowledge, and Vert.x's {@code Upgrade: h2c}), and the
 * TLS port with ALPN {@code h2, http/1.1} and the PEM certificate and key. The SSL engine is
 * Vert.x's OpenSSL one ({@link OpenSSLEngineOptions}, BoringSSL through netty-tcnative, which the
 * Vert.x docs give as the faster choice) unless {@code jdk} is asked for.
 */
public final class TlsMain {
    private static final CharSequence TEXT_PLAIN = HttpHeaders.createOptimized("text/plain");

    private TlsMain() {}

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        int tlsPort = Integer.parseInt(args[1]);
        int ioThreads = Integer.parseInt(args[2]);
        Path certs = Path.of(args[3]);
        boolean openssl = args.length < 5 || args[4].equals("openssl");
        if (openssl && !OpenSSLEngineOptions.isAvailable()) throw new IllegalStateException("the OpenSSL engine is not available");
        SSLEngineOptions engine = openssl ? new OpenSSLEngineOptions() : new JdkSSLEngineOptions();
        Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(ioThreads).setPreferNativeTransport(true));
        vertx.deployVerticle(() -> new Servers(port, tlsPort, certs, engine), new DeploymentOptions().setInstances(ioThreads))
                .toCompletionStage().toCompletableFuture().get();
        System.out.println("vertx-web tls listening on 127.0.0.1:" + port + " (h1, h2c) and " + tlsPort + " (TLS, ALPN h2, http/1.1; "
                + (openssl ? "OpenSSL" : "JDK") + " engine; " + ioThreads + " event loops, native transport "
                + vertx.isNativeTransportEnabled() + ")");
    }

    /** One instance per event loop: the plain and the TLS server, one router. */
    static final class Servers extends VerticleBase {
        private final int port;
        private final int tlsPort;
        private final Path certs;
        private final SSLEngineOptions engine;

        Servers(int port, int tlsPort, Path certs, SSLEngineOptions engine) {
            this.port = port;
            this.tlsPort = tlsPort;
            this.certs = certs;
            this.engine = engine;
        }

        @Override
        public Future<?> start() {
            Router router = Router.router(vertx);
            router.get(Scenario.PLAINTEXT_PATH).handler(ctx ->
                    ctx.response().putHeader(HttpHeaders.CONTENT_TYPE, TEXT_PLAIN).end(Scenario.PLAINTEXT_BODY));
            Future<?> plain = vertx.createHttpServer(new HttpServerOptions().setHost("127.0.0.1").setPort(port)
                    .setHttp2ClearTextEnabled(true)).requestHandler(router).listen();
            Future<?> tls = vertx.createHttpServer(new HttpServerOptions().setHost("127.0.0.1").setPort(tlsPort)
                    .setSsl(true).setUseAlpn(true).setAlpnVersions(List.of(HttpVersion.HTTP_2, HttpVersion.HTTP_1_1))
                    .setSslEngineOptions(engine)
                    .setKeyCertOptions(new PemKeyCertOptions().setCertPath(TlsContract.cert(certs).toString())
                            .setKeyPath(TlsContract.key(certs).toString())))
                    .requestHandler(router).listen();
            return Future.all(plain, tls);
        }
    }
}
