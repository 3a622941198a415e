package dev.tidemill.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/** One client connection (a socket, or in memory): writes, the buffered reader, and the request/response exchanges on it. */
final class Wire implements AutoCloseable {
    /** How long a request with {@code Expect: 100-continue} waits for the 100 before sending its body anyway. */
    static final int EXPECT_WAIT_MILLIS = 1000;

    final Pipe pipe;
    final HttpInput in;
    final String hostHeader;
    final int timeoutMillis;
    private final Runnable onClose;
    private final AtomicBoolean closed = new AtomicBoolean();

    private Wire(Pipe pipe, String hostHeader, int timeoutMillis, Runnable onClose) throws IOException {
        this.pipe = pipe;
        this.in = new HttpInput(pipe, timeoutMillis);
        this.hostHeader = hostHeader;
        this.timeoutMillis = timeoutMillis;
        this.onClose = onClose;
    }

    /** Connects, with the timeout applied to the connect and to every read; over TLS when {@code tls} is not null. */
    static Wire open(String host, int port, String hostHeader, int timeoutMillis, Runnable onClose,
            javax.net.ssl.SSLContext tls) {
        Socket s = new Socket();
        try {
            s.setTcpNoDelay(true);
            s.connect(new InetSocketAddress(host, port), timeoutMillis);
            s.setSoTimeout(timeoutMillis);
            if (tls != null) {
                javax.net.ssl.SSLSocket secure = (javax.net.ssl.SSLSocket) tls.getSocketFactory().createSocket(s, host, port, true);
                secure.startHandshake(); // here, so a handshake failure is a connect failure
                s = secure;
            }
            return new Wire(new Pipe.OfSocket(s), hostHeader, timeoutMillis, onClose);
        } catch (IOException e) {
            try {
                s.close();
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw new UncheckedIOException("cannot connect to " + host + ":" + port + ": " + e.getMessage(), e);
        }
    }

    /** A wire over a pipe that is open already (an HTTP/2 stream, {@link H2StreamPipe}). */
    static Wire over(Pipe pipe, String hostHeader, int timeoutMillis, Runnable onClose) {
        try {
            return new Wire(pipe, hostHeader, timeoutMillis, onClose);
        } catch (IOException e) {
            try {
                pipe.close();
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw unchecked(e);
        }
    }

    /** A wire over an in-memory connection (no connect: the connection is open already). */
    static Wire inMemory(dev.tidemill.InMemoryConnection connection, String hostHeader, int timeoutMillis, Runnable onClose) {
        try {
            return new Wire(new Pipe.InMemory(connection, timeoutMillis), hostHeader, timeoutMillis, onClose);
        } catch (IOException e) {
            connection.close();
            throw unchecked(e);
        }
    }

    /** Writes all bytes in one write call. */
    void write(byte[] bytes) throws IOException {
        pipe.write(bytes);
    }

    /** Sends one request and reads its response; honours {@code Expect: 100-continue}. */
    TestResponse exchange(TestRequest r, boolean close) throws IOException {
        if (r.expectsContinue()) return exchangeExpectingContinue(r, close);
        return exchange(r.encode(hostHeader, close), List.of(r.method())).get(0);
    }

    /**
     * Writes the bytes, then reads one response per method. If the write fails (the server may have
     * answered early and closed), a response that arrived is still returned.
     */
    List<TestResponse> exchange(byte[] bytes, List<String> methods) throws IOException {
        IOException writeFailure = tryWrite(bytes);
        List<TestResponse> responses = new ArrayList<>(methods.size());
        try {
            for (String m : methods) responses.add(ResponseReader.read(in, m, new ArrayList<>()));
        } catch (IOException e) {
            throw combine(writeFailure, e);
        }
        return responses;
    }

    /**
     * Sends the head, waits up to {@link #EXPECT_WAIT_MILLIS} for {@code 100 Continue}, and sends
     * the body only after a 100 (or when nothing came in time). A final status that comes instead
     * (e.g. 413 or 417) is returned and the body is never sent.
     */
    private TestResponse exchangeExpectingContinue(TestRequest r, boolean close) throws IOException {
        IOException writeFailure = tryWrite(r.encodeHead(hostHeader, close));
        List<Integer> interim = new ArrayList<>();
        try {
            if (writeFailure == null && in.awaitData(Math.min(EXPECT_WAIT_MILLIS, timeoutMillis))) {
                ResponseReader.Head head = ResponseReader.readHead(in);
                while (head.status() < 200 && head.status() != 100 && head.status() != 101) {
                    interim.add(head.status());
                    head = ResponseReader.readHead(in);
                }
                if (head.status() != 100) return ResponseReader.readBody(in, r.method(), head, interim);
                interim.add(100);
            }
            if (writeFailure == null) writeFailure = tryWrite(r.body());
            return ResponseReader.read(in, r.method(), interim);
        } catch (IOException e) {
            throw combine(writeFailure, e);
        }
    }

    private IOException tryWrite(byte[] bytes) {
        try {
            write(bytes);
            return null;
        } catch (IOException e) {
            return e;
        }
    }

    private static IOException combine(IOException writeFailure, IOException readFailure) {
        if (writeFailure == null) return readFailure;
        IOException e = new IOException("sending the request failed (" + writeFailure.getMessage()
                + ") and no response could be read (" + readFailure.getMessage() + ")", writeFailure);
        e.addSuppressed(readFailure);
        return e;
    }

    boolean isClosed() {
        return closed.get();
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) return;
        try {
            pipe.close();
        } catch (IOException ignored) {
            // closing a client socket: nothing to do about a failure
        } finally {
            onClose.run();
        }
    }

    static UncheckedIOException unchecked(IOException e) {
        return new UncheckedIOException(e.getMessage(), e);
    }
}
