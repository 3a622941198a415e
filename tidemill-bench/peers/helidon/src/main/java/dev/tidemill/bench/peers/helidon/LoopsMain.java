package dev.tidemill.bench.peers.helidon;

import dev.tidemill.bench.common.LoopsContract;
import dev.tidemill.bench.common.Scenario;
import dev.tidemill.bench.common.TlsContract;
import io.helidon.common.buffers.BufferData;
import io.helidon.common.configurable.Resource;
import io.helidon.common.pki.Keys;
import io.helidon.http.HeaderValues;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.websocket.WsRouting;
import io.helidon.websocket.WsListener;
import io.helidon.websocket.WsSession;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * The Helidon SE 4 peer of the event-loop matrix ({@link LoopsContract}), so that {@link Main}
 * stays as the HTTP suites measure it. Arguments {@code <port> <tlsPort> <tcpPort> <ioThreads>
 * <certDir>}. Two {@link WebServer}s in this JVM with the same routing, {@code GET /plaintext} and
 * a {@link WsListener} echo on {@link LoopsContract#ECHO}: the plain one, and one with Helidon's TLS
 * (the JDK's, the PEM certificate and key), as in {@link TlsMain}. A virtual thread per connection
 * and request; the I/O thread argument is only recorded. Helidon SE has no raw TCP server, so the
 * TCP port is ignored.
 */
public final class LoopsMain {
    private LoopsMain() {}

    public static void main(String[] args) {
        int port = Integer.parseInt(args[0]), tlsPort = Integer.parseInt(args[1]);
        int ioThreads = Integer.parseInt(args[3]);
        Path certs = Path.of(args[4]);
        Consumer<HttpRouting.Builder> routing = r -> r.get(Scenario.PLAINTEXT_PATH, (req, res) ->
                res.header(HeaderValues.CONTENT_TYPE_TEXT_PLAIN).send(Scenario.PLAINTEXT_BODY));
        Keys keys = Keys.builder().pem(pem -> pem.key(Resource.create(TlsContract.key(certs)))
                .certChain(Resource.create(TlsContract.cert(certs)))).build();
        WebServer plain = WebServer.builder().host("127.0.0.1").port(port)
                .connectionOptions(o -> o.tcpNoDelay(true)).routing(routing)
                .addRouting(WsRouting.builder().endpoint(LoopsContract.ECHO, new Echo())).build().start();
        WebServer tls = WebServer.builder().host("127.0.0.1").port(tlsPort)
                .connectionOptions(o -> o.tcpNoDelay(true))
                .tls(t -> t.privateKey(keys).privateKeyCertChain(keys))
                .routing(routing).addRouting(WsRouting.builder().endpoint(LoopsContract.ECHO, new Echo())).build().start();
        System.out.println(LoopsContract.READY_PREFIX + " helidon on " + plain.port() + " (TLS " + tls.port() + ", no TCP echo), "
                + "virtual thread per connection, TLS: the JDK's; I/O thread argument " + ioThreads + " not applicable");
    }

    /** Sends every message back as it came. */
    static final class Echo implements WsListener {
        @Override
        public void onMessage(WsSession session, BufferData buffer, boolean last) {
            session.send(buffer, last);
        }
    }
}
