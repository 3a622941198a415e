package dev.tidemill.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A tiny loopback server for parser tests: each accepted connection runs a script that reads
 * request heads and replies with canned bytes. Records every request head it read.
 */
final class CannedServer implements AutoCloseable {

    /** What the server does on one connection. */
    @FunctionalInterface
    interface Script {
        void run(Peer peer) throws Exception;
    }

    /** The server's side of one connection. */
    static final class Peer {
        final Socket socket;
        private final InputStream in;
        private final OutputStream out;
        private final List<String> heads;

        Peer(Socket socket, List<String> heads) throws IOException {
            this.socket = socket;
            this.in = socket.getInputStream();
            this.out = socket.getOutputStream();
            this.heads = heads;
        }

        /** Reads one request head (through CRLFCRLF) and records it; null at EOF. */
        String readHead() throws IOException {
            ByteArrayOutputStream b = new ByteArrayOutputStream();
            int state = 0;
            while (state < 4) {
                int c = in.read();
                if (c < 0) return null;
                b.write(c);
                state = switch (state) {
                    case 0, 2 -> c == '\r' ? state + 1 : 0;
                    case 1, 3 -> c == '\n' ? state + 1 : (c == '\r' ? 1 : 0);
                    default -> 0;
                };
            }
            String head = b.toString(StandardCharsets.ISO_8859_1);
            heads.add(head);
            return head;
        }

        /** Reads exactly n body bytes. */
        byte[] readBody(int n) throws IOException {
            return in.readNBytes(n);
        }

        /** Reads a request head and the Content-Length body it announces. */
        String readRequest() throws IOException {
            String head = readHead();
            if (head == null) return null;
            for (String line : head.split("\r\n")) {
                if (line.regionMatches(true, 0, "Content-Length:", 0, 15)) {
                    readBody(Integer.parseInt(line.substring(15).trim()));
                }
            }
            return head;
        }

        void send(String latin1) throws IOException {
            out.write(latin1.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
        }

        void send(byte[] bytes) throws IOException {
            out.write(bytes);
            out.flush();
        }

        void close() throws IOException {
            socket.close();
        }
    }

    private final ServerSocket server;
    private final List<String> heads = new CopyOnWriteArrayList<>();
    private final List<Throwable> failures = new CopyOnWriteArrayList<>();
    private final Thread acceptor;

    CannedServer(Script script) throws IOException {
        server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        acceptor = Thread.ofPlatform().daemon().name("canned-server").start(() -> {
            while (!server.isClosed()) {
                Socket s;
                try {
                    s = server.accept();
                } catch (IOException e) {
                    return;
                }
                Thread.ofVirtual().start(() -> {
                    try (s) {
                        script.run(new Peer(s, heads));
                    } catch (Throwable t) {
                        if (!s.isClosed()) failures.add(t);
                    }
                });
            }
        });
    }

    /** A server that reads one request per connection and answers with these bytes, then closes. */
    static CannedServer replying(String response) throws IOException {
        return new CannedServer(p -> {
            p.readRequest();
            p.send(response);
        });
    }

    int port() {
        return server.getLocalPort();
    }

    TestClient client() {
        return TestClient.connectTo("127.0.0.1", port());
    }

    /** @return every request head read so far */
    List<String> heads() {
        return heads;
    }

    List<Throwable> failures() {
        return failures;
    }

    @Override
    public void close() throws IOException {
        server.close();
        try {
            acceptor.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
