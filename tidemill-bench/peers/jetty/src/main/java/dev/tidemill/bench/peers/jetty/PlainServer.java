package dev.tidemill.bench.peers.jetty;

import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/**
 * The server every Jetty peer main but {@link TlsMain} starts from: one HTTP/1.1 connector on
 * 127.0.0.1 with as many selectors as the I/O thread argument, no acceptor thread, Jetty's default
 * thread pool.
 */
final class PlainServer {
    private PlainServer() {}

    /**
     * @param args the peer's arguments: port, then I/O threads
     * @return the server with its connector, not started
     */
    static Server of(String[] args) {
        int port = Integer.parseInt(args[0]);
        int ioThreads = Integer.parseInt(args[1]);
        Server server = new Server();
        ServerConnector connector = new ServerConnector(server, 0, ioThreads);
        connector.setHost("127.0.0.1");
        connector.setPort(port);
        server.addConnector(connector);
        return server;
    }
}
