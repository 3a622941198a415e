package dev.tidemill.bench;

import dev.tidemill.bench.common.Scenario;
import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;

/**
 * The load of the matrix's network rows, closed loop, every answer checked: blocking sockets on
 * virtual threads (one per connection), so that the client's own cost is one small, cheap thread
 * switch per answer whichever server it drives. Every row counts its operations, its wrong answers
 * and its failures; the time is the wall clock from the first connect to the last close, so it
 * includes connection setup and teardown (TLS handshakes too), as the reference's does.
 *
 * <ul>
 *   <li>{@link #tcp}: one connection, {@code n} round trips of {@code size} bytes, each echo compared
 *       byte for byte;</li>
 *   <li>{@link #http}: {@code connections} keep-alive connections of {@code perConnection}
 *       {@code GET /plaintext} each, one in flight per connection;</li>
 *   <li>{@link #shortConnections}: {@code total} connections, {@code concurrency} at a time, each
 *       {@code GET /plaintext} with {@code Connection: close}; the client closes once the answer is
 *       read (as the reference's client does after its echo), so a server's lingering close is not
 *       in the time;</li>
 *   <li>WebSocket: {@link LoopsWsClient}.</li>
 * </ul>
 */
final class LoopsClient {
    /** The request of the HTTP rows (the server's answer is {@link Scenario#PLAINTEXT_BODY}). */
    private static final byte[] KEEP_ALIVE = ascii("GET " + Scenario.PLAINTEXT_PATH + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    private static final byte[] CLOSE = ascii("GET " + Scenario.PLAINTEXT_PATH + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
    private static final byte[] BODY = Scenario.utf8(Scenario.PLAINTEXT_BODY);
    /** How long one read may wait before the operation fails (a stuck server fails the run, never hangs it). */
    static final int READ_TIMEOUT_MS = 10_000;

    private LoopsClient() {}

    /**
     * What one run did.
     *
     * @param ops operations answered correctly
     * @param nanos wall time of the run
     * @param errors wrong answers and failed operations
     * @param firstError the first of them, or empty
     */
    record Outcome(long ops, long nanos, long errors, String firstError) {
        /** @return whether every operation was answered correctly */
        boolean clean() {
            return errors == 0 && ops > 0;
        }
    }

    /** Counts shared by a run's connections. */
    static final class Tally {
        final AtomicLong ops = new AtomicLong();
        final AtomicLong errors = new AtomicLong();
        final AtomicReference<String> first = new AtomicReference<>("");

        void fail(String what) {
            errors.incrementAndGet();
            first.compareAndSet("", what);
        }

        Outcome outcome(long nanos) {
            return new Outcome(ops.get(), nanos, errors.get(), first.get());
        }
    }

    /** One connection's work. */
    @FunctionalInterface
    interface Connection {
        /** @param index the connection's number, from 0 @throws IOException when it fails */
        void run(int index) throws IOException;
    }

    /**
     * Runs {@code count} connections on virtual threads and times them all.
     *
     * @param count connections
     * @param tally where they count
     * @param body one connection's work
     * @return the outcome
     */
    static Outcome parallel(int count, Tally tally, Connection body) {
        long t0 = System.nanoTime();
        List<Thread> threads = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            int index = i;
            threads.add(Thread.ofVirtual().name("loops-client-" + i).start(() -> {
                try {
                    body.run(index);
                } catch (IOException | RuntimeException e) {
                    tally.fail(e.getClass().getSimpleName() + ": " + e.getMessage());
                }
            }));
        }
        for (Thread t : threads) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
        }
        return tally.outcome(System.nanoTime() - t0);
    }

    /**
     * @param port the TCP echo port
     * @param n round trips
     * @param size bytes per message
     * @return the outcome
     */
    static Outcome tcp(int port, int n, int size) {
        Tally tally = new Tally();
        return parallel(1, tally, i -> {
            byte[] out = new byte[size], in = new byte[size];
            try (Socket s = open(port, false)) {
                OutputStream o = s.getOutputStream();
                InputStream r = s.getInputStream();
                for (int k = 0; k < n; k++) {
                    Arrays.fill(out, (byte) k); // each message differs from the last: a stale echo is caught
                    o.write(out);
                    readFully(r, in, size);
                    if (Arrays.equals(in, out)) tally.ops.incrementAndGet();
                    else tally.fail("round trip " + k + ": the echo differs from the message");
                }
            }
        });
    }

    /**
     * @param port the HTTP port (TLS when {@code tls})
     * @param tls whether to speak TLS
     * @param connections connections
     * @param perConnection requests on each
     * @return the outcome
     */
    static Outcome http(int port, boolean tls, int connections, int perConnection) {
        Tally tally = new Tally();
        return parallel(connections, tally, i -> {
            try (Socket s = open(port, tls)) {
                OutputStream o = s.getOutputStream();
                InputStream r = new BufferedInputStream(s.getInputStream(), 8192);
                for (int k = 0; k < perConnection; k++) {
                    o.write(KEEP_ALIVE);
                    o.flush();
                    check(r, tally);
                }
            }
        });
    }

    /**
     * @param port the HTTP port
     * @param total connections in all
     * @param concurrency connections open at once
     * @return the outcome
     */
    static Outcome shortConnections(int port, int total, int concurrency) {
        Tally tally = new Tally();
        return parallel(concurrency, tally, i -> {
            for (int k = i; k < total; k += concurrency) {
                try (Socket s = open(port, false)) {
                    s.getOutputStream().write(CLOSE);
                    check(new BufferedInputStream(s.getInputStream(), 1024), tally);
                }
            }
        });
    }

    /** Reads one answer and counts it: 200 and the exact body, else the connection ends (its framing cannot be trusted). */
    private static void check(InputStream in, Tally tally) throws IOException {
        Head head = Head.read(in);
        byte[] body = in.readNBytes(head.contentLength());
        if (head.status() != 200 || !Arrays.equals(body, BODY)) {
            throw new IOException("HTTP " + head.status() + " with " + body.length + " bytes: " + new String(body, StandardCharsets.UTF_8));
        }
        tally.ops.incrementAndGet();
    }

    /**
     * A response head: its status and {@code Content-Length} (0 when absent).
     *
     * @param status the status code
     * @param contentLength the body's length
     */
    record Head(int status, int contentLength) {
        /** @param in positioned at a status line @return the head, read through its empty line */
        static Head read(InputStream in) throws IOException {
            String status = line(in);
            String[] parts = status.split(" ", 3);
            if (parts.length < 2 || !parts[0].startsWith("HTTP/1.")) throw new IOException("not an HTTP/1.x status line: " + status);
            int length = 0;
            for (String l = line(in); !l.isEmpty(); l = line(in)) {
                int colon = l.indexOf(':');
                if (colon > 0 && l.substring(0, colon).trim().toLowerCase(Locale.ROOT).equals("content-length")) {
                    length = Integer.parseInt(l.substring(colon + 1).trim());
                }
            }
            return new Head(Integer.parseInt(parts[1]), length);
        }

        private static String line(InputStream in) throws IOException {
            StringBuilder b = new StringBuilder();
            for (int c = in.read(); c != '\n'; c = in.read()) {
                if (c < 0) throw new EOFException("the connection closed inside a response head");
                if (c != '\r') b.append((char) c);
            }
            return b.toString();
        }
    }

    /**
     * @param port a port on 127.0.0.1
     * @param tls whether to wrap it in TLS (the handshake done before this returns)
     * @return the connected socket, {@code TCP_NODELAY} on, reads bounded by {@link #READ_TIMEOUT_MS}
     */
    static Socket open(int port, boolean tls) throws IOException {
        Socket s = new Socket();
        s.setTcpNoDelay(true);
        s.connect(new InetSocketAddress("127.0.0.1", port), READ_TIMEOUT_MS);
        s.setSoTimeout(READ_TIMEOUT_MS);
        if (!tls) return s;
        SSLSocket t = (SSLSocket) TRUST_ALL.getSocketFactory().createSocket(s, "127.0.0.1", port, true);
        t.startHandshake();
        return t;
    }

    static void readFully(InputStream in, byte[] into, int n) throws IOException {
        int got = in.readNBytes(into, 0, n);
        if (got < n) throw new EOFException("the connection closed after " + got + " of " + n + " bytes");
    }

    static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * Trusts the run's throw-away self-signed certificate (any certificate: the servers are ours, on
     * loopback, and what is measured is the TLS work, not the client's path validation).
     */
    private static final SSLContext TRUST_ALL = trustAll();

    private static SSLContext trustAll() {
        try {
            SSLContext c = SSLContext.getInstance("TLS");
            c.init(null, new TrustManager[] {new X509TrustManager() {
                @Override
                public void checkClientTrusted(X509Certificate[] chain, String authType) { }

                @Override
                public void checkServerTrusted(X509Certificate[] chain, String authType) { }

                @Override
                public X509Certificate[] getAcceptedIssuers() {
                    return new X509Certificate[0];
                }
            }}, null);
            return c;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
