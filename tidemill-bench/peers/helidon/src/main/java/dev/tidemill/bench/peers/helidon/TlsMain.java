package dev.tidemill.bench.peers.helidon;

import dev.tidemill.bench.common.Scenario;
import dev.tidemill.bench.common.TlsContract;
import io.helidon.common.configurable.Resource;
import io.helidon.common.pki.Keys;
import io.helidon.http.HeaderValues;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.http.HttpRouting;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * Helidon SE 4 peer of the TLS suite ({@code dev.tidemill.bench.common.TlsContract}), so that
 * {@link Main} stays as the HTTP suites measure it. Arguments {@code <port> <tlsPort> <ioThreads>
 * <certDir>}. Two {@link WebServer}s in this JVM with the same routing ({@code GET /plaintext}):
 * the plain one, and one with Helidon's TLS (the JDK's, the PEM certificate and key through
 * {@link Keys}). HTTP/2 is helidon-webserver-http2 on the class path, which Helidon discovers: h2
 * by ALPN on the TLS server, and on the plain one h2c by prior knowledge and {@code Upgrade: h2c}.
 * tcp-no-delay as in {@link Main}. The I/O thread argument is only recorded (a virtual thread per
 * connection).
 */
public final class TlsMain {
    private TlsMain() {}

    public static void main(String[] args) {
        int port = Integer.parseInt(args[0]);
        int tlsPort = Integer.parseInt(args[1]);
        int ioThreads = Integer.parseInt(args[2]);
        Path certs = Path.of(args[3]);
        Consumer<HttpRouting.Builder> routing = r -> r.get(Scenario.PLAINTEXT_PATH, (req, res) ->
                res.header(HeaderValues.CONTENT_TYPE_TEXT_PLAIN).send(Scenario.PLAINTEXT_BODY));
        Keys keys = Keys.builder().pem(pem -> pem.key(Resource.create(TlsContract.key(certs)))
                .certChain(Resource.create(TlsContract.cert(certs)))).build();
        WebServer plain = WebServer.builder().host("127.0.0.1").port(port)
                .connectionOptions(o -> o.tcpNoDelay(true)).routing(routing).build().start();
        WebServer tls = WebServer.builder().host("127.0.0.1").port(tlsPort)
                .connectionOptions(o -> o.tcpNoDelay(true))
                .tls(t -> t.privateKey(keys).privateKeyCertChain(keys))
                .routing(routing).build().start();
        System.out.println("helidon tls listening on 127.0.0.1:" + plain.port() + " (h1, h2c) and " + tls.port()
                + " (TLS, ALPN h2, http/1.1; JDK TLS; virtual thread per connection; I/O thread argument " + ioThreads
                + " not applicable)");
    }
}
