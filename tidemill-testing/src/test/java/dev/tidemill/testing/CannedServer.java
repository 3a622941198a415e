package dev.tidemill.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A tiny loopback server for parser tests: each accepted connection runs a script that reads
 * request heads and replies with canned bytes. Records every request head it read.
 *
 * <p>A script that throws (an I/O error, or an assertion of its own) is a failure of the test:
 * {@link #close()} waits for every script to end and throws an {@link AssertionError} carrying
 * each failure, so a test that uses the server in try-with-resources cannot pass while its server
 * side broke. A test that expects a script to fail reads {@link #awaitFailures()} before closing.
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

    /** How long {@link #close()} waits for a script still running: a bound for a hung script, not a measurement. */
    private static final Duration SCRIPT_BOUND = Duration.ofSeconds(10);

    private final ServerSocket server;
    private final List<String> heads = new CopyOnWriteArrayList<>();
    private final List<Throwable> failures = new CopyOnWriteArrayList<>();
    private final List<Thread> scripts = new CopyOnWriteArrayList<>();
    private final Thread acceptor;
    private boolean failuresTaken;

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
                scripts.add(Thread.ofVirtual().name("canned-script").start(() -> {
                    try (s) {
                        script.run(new Peer(s, heads));
                    } catch (Throwable t) {
                        failures.add(t);
                    }
                }));
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

    /**
     * Stops accepting, waits for every script to end and returns what they threw; {@link #close()}
     * then no longer fails for them. For a test that expects its server side to fail.
     *
     * @return each script's failure, a script still running after the bound among them
     */
    List<Throwable> awaitFailures() throws IOException {
        server.close();
        join(acceptor);
        for (Thread t : scripts) {
            if (!join(t)) failures.add(new AssertionError("a script still ran " + SCRIPT_BOUND.toSeconds() + " s after the test"));
        }
        failuresTaken = true;
        return List.copyOf(failures);
    }

    /** Stops the server; fails if a script threw or did not end (unless {@link #awaitFailures()} took them). */
    @Override
    public void close() throws IOException {
        boolean taken = failuresTaken;
        List<Throwable> failed = awaitFailures();
        if (taken || failed.isEmpty()) return;
        AssertionError e = new AssertionError("the canned server's script failed " + failed.size() + " time(s): " + failed);
        failed.forEach(e::addSuppressed);
        throw e;
    }

    /** @return whether {@code t} ended within the bound */
    private static boolean join(Thread t) {
        try {
            return t.join(SCRIPT_BOUND);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
