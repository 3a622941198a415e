package dev.tidemill.bench.peers.jetty;

import dev.tidemill.bench.common.StreamContract;
import java.nio.ByteBuffer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.websocket.api.Callback;
import org.eclipse.jetty.websocket.api.Session;
import org.eclipse.jetty.websocket.server.WebSocketUpgradeHandler;

/**
 * The Jetty 12 peer of the streams suite: WebSocket only ({@value StreamContract#ECHO}; the suite
 * measures no SSE on Jetty), a main class of its own so that {@link Main} stays as the HTTP suites
 * measure it. Jetty's core (non-servlet) WebSocket server API, jetty-websocket-jetty-server: a
 * {@link WebSocketUpgradeHandler} maps the path to an endpoint implementing
 * {@link Session.Listener.AutoDemanding}, which sends each binary message back with the callback
 * Jetty handed it (so the payload buffer is released, and the next frame demanded, only once the
 * echo is written) and each text message likewise. Connector as in {@link Main}: as many
 * selectors as the I/O thread argument, no acceptor thread, Jetty's default thread pool.
 */
public final class StreamsMain {
    private StreamsMain() {}

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        int ioThreads = Integer.parseInt(args[1]);
        Server server = PlainServer.of(args);
        WebSocketUpgradeHandler ws = WebSocketUpgradeHandler.from(server, container -> {
            container.setMaxBinaryMessageSize(1 << 24);
            container.setMaxTextMessageSize(1 << 24);
            container.addMapping(StreamContract.ECHO, (request, response, callback) -> new Echo());
        });
        server.setHandler(ws); // everything that is not an upgrade on the echo path: 404
        server.start();
        System.out.println("jetty streams on 127.0.0.1:" + port + " (" + ioThreads + " selectors, WebSocket only)");
    }

    /** Sends every message back as it came. */
    public static final class Echo implements Session.Listener.AutoDemanding {
        private Session session;

        @Override
        public void onWebSocketOpen(Session session) {
            this.session = session;
        }

        @Override
        public void onWebSocketBinary(ByteBuffer payload, Callback callback) {
            session.sendBinary(payload, callback);
        }

        @Override
        public void onWebSocketText(String text) {
            session.sendText(text, Callback.NOOP);
        }
    }
}
