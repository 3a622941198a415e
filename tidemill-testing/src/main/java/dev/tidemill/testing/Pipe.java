package dev.tidemill.testing;

import dev.tidemill.InMemoryConnection;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.time.Duration;

/**
 * What a {@link Wire} talks through: a TCP socket, or an in-memory connection to an app served by
 * {@link dev.tidemill.Tidemill#inMemory()}. Reads are bounded by the read timeout and fail with
 * {@link SocketTimeoutException} when it passes, for both.
 */
interface Pipe {
    InputStream input() throws IOException;

    void write(byte[] bytes) throws IOException;

    /** @return the read timeout in milliseconds */
    int readTimeout() throws IOException;

    void readTimeout(int millis) throws IOException;

    /** Sends the client's FIN: the server sees the end of the request stream. */
    void shutdownOutput() throws IOException;

    boolean isClosed();

    void close() throws IOException;

    /** A TCP socket, connected, its read timeout set. */
    record OfSocket(Socket socket) implements Pipe {
        @Override
        public InputStream input() throws IOException {
            return socket.getInputStream();
        }

        @Override
        public void write(byte[] bytes) throws IOException {
            OutputStream out = socket.getOutputStream();
            out.write(bytes);
            out.flush();
        }

        @Override
        public int readTimeout() throws IOException {
            return socket.getSoTimeout();
        }

        @Override
        public void readTimeout(int millis) throws IOException {
            socket.setSoTimeout(millis);
        }

        @Override
        public void shutdownOutput() throws IOException {
            socket.shutdownOutput();
        }

        @Override
        public boolean isClosed() {
            return socket.isClosed();
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }

    /** An in-memory connection; reads wait on it up to the read timeout. */
    final class InMemory extends InputStream implements Pipe {
        private final InMemoryConnection connection;
        private volatile int timeoutMillis;
        private volatile boolean closed;

        InMemory(InMemoryConnection connection, int timeoutMillis) {
            this.connection = connection;
            this.timeoutMillis = timeoutMillis;
        }

        @Override
        public InputStream input() {
            return this;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            int n = read(one, 0, 1);
            return n < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (len == 0) return 0;
            if (closed) throw new SocketException("Socket closed");
            int n;
            try {
                n = connection.read(b, off, len, Duration.ofMillis(timeoutMillis));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while waiting for the in-memory server");
            }
            if (n == 0) throw new SocketTimeoutException("Read timed out");
            return n;
        }

        @Override
        public void write(byte[] bytes) throws IOException {
            if (closed) throw new SocketException("Socket closed");
            if (!connection.write(bytes)) throw new SocketException("the server closed the connection");
        }

        @Override
        public int readTimeout() {
            return timeoutMillis;
        }

        @Override
        public void readTimeout(int millis) {
            this.timeoutMillis = millis;
        }

        @Override
        public void shutdownOutput() {
            connection.shutdownOutput();
        }

        @Override
        public boolean isClosed() {
            return closed;
        }

        @Override
        public void close() {
            closed = true;
            connection.close();
        }
    }
}
