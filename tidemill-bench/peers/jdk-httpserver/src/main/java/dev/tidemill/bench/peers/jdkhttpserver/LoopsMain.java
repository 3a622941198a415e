package dev.tidemill.bench.peers.jdkhttpserver;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import dev.tidemill.bench.common.LoopsContract;
import dev.tidemill.bench.common.Scenario;
import dev.tidemill.bench.common.TlsContract;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.concurrent.Executors;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * The JDK peer of the event-loop matrix ({@link LoopsContract}), so that {@link Main} stays as the
 * HTTP suites measure it: {@code com.sun.net.httpserver.HttpServer} and {@code HttpsServer} (the
 * JDK's TLS, the PKCS#12 key store), each with a virtual-thread-per-task executor, answering
 * {@code GET /plaintext} (one dispatcher thread does the socket I/O, as in {@link Main}); and for the
 * TCP row the JDK's own answer to an event loop, a blocking {@link ServerSocket} with a virtual
 * thread per connection that writes back what it reads. Arguments {@code <port> <tlsPort> <tcpPort>
 * <ioThreads> <certDir>}. The JDK has no WebSocket server, so neither port upgrades.
 */
public final class LoopsMain {
    private static final byte[] BODY = Scenario.utf8(Scenario.PLAINTEXT_BODY);

    private LoopsMain() {}

    public static void main(String[] args) throws IOException, GeneralSecurityException {
        int port = Integer.parseInt(args[0]), tlsPort = Integer.parseInt(args[1]), tcpPort = Integer.parseInt(args[2]);
        int ioThreads = Integer.parseInt(args[3]);
        Path certs = Path.of(args[4]);
        System.setProperty("sun.net.httpserver.nodelay", "true"); // as in Main: small answers must not wait on Nagle
        HttpServer plain = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 1024);
        HttpsServer tls = HttpsServer.create(new InetSocketAddress("127.0.0.1", tlsPort), 1024);
        tls.setHttpsConfigurator(new HttpsConfigurator(sslContext(certs)));
        for (HttpServer s : new HttpServer[] {plain, tls}) {
            s.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
            s.createContext(Scenario.PLAINTEXT_PATH, LoopsMain::plaintext);
            s.start();
        }
        if (tcpPort > 0) {
            ServerSocket listener = new ServerSocket(tcpPort, 1024, InetAddress.getByName("127.0.0.1"));
            Thread.ofVirtual().name("tcp-accept").start(() -> accept(listener));
        }
        System.out.println(LoopsContract.READY_PREFIX + " jdk on " + port + " (TLS " + tlsPort + ", TCP echo " + tcpPort + "), "
                + "HttpServer with a virtual thread per exchange, TCP echo a virtual thread per connection, TLS: the JDK's; "
                + "I/O thread argument " + ioThreads + " not applicable");
    }

    private static void plaintext(HttpExchange ex) throws IOException {
        if (!"GET".equals(ex.getRequestMethod()) || !Scenario.PLAINTEXT_PATH.equals(ex.getRequestURI().getPath())) {
            ex.sendResponseHeaders(404, -1);
            ex.close();
            return;
        }
        ex.getResponseHeaders().set("Content-Type", "text/plain");
        ex.sendResponseHeaders(200, BODY.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(BODY);
        }
    }

    private static void accept(ServerSocket listener) {
        while (true) {
            try {
                Socket s = listener.accept();
                s.setTcpNoDelay(true);
                Thread.ofVirtual().start(() -> echo(s));
            } catch (IOException e) {
                System.out.println("tcp accept failed: " + e.getMessage());
                return;
            }
        }
    }

    private static void echo(Socket s) {
        byte[] buf = new byte[16384];
        try (s; InputStream in = s.getInputStream(); OutputStream out = s.getOutputStream()) {
            for (int n = in.read(buf); n >= 0; n = in.read(buf)) out.write(buf, 0, n);
        } catch (IOException closed) {
            // the client left: nothing to answer
        }
    }

    private static SSLContext sslContext(Path certs) throws IOException, GeneralSecurityException {
        KeyStore ks = KeyStore.getInstance("PKCS12");
        char[] password = TlsContract.KEYSTORE_PASSWORD.toCharArray();
        try (InputStream in = Files.newInputStream(TlsContract.keystore(certs))) {
            ks.load(in, password);
        }
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(ks, password);
        SSLContext c = SSLContext.getInstance("TLS");
        c.init(kmf.getKeyManagers(), null, null);
        return c;
    }
}
