package dev.tidemill.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A keep-alive HTTP/1.1 connection from {@link TestClient#connect()}: several requests, one after
 * the other or pipelined, on the same socket. Nothing is added to requests but {@code Host} and
 * {@code Content-Length} (no {@code Connection: close}), so the server keeps the connection open
 * unless a request asks otherwise. Every read is bounded by the client's timeout. Not thread-safe.
 *
 * <pre>{@code
 * try (Connection c = client.connect()) {
 *     assertThat(c.send(TestRequest.get("/a")).status()).isEqualTo(200);
 *     assertThat(c.send(TestRequest.get("/b")).status()).isEqualTo(200);
 * }
 * }</pre>
 *
 * I/O failures, timeouts and malformed responses throw {@link java.io.UncheckedIOException}
 * (its cause is a {@link java.net.SocketTimeoutException}, {@link java.io.EOFException} or
 * {@link java.net.ProtocolException} saying what went wrong).
 */
public final class Connection implements AutoCloseable {
    /** How long {@link #isClosedByServer()} waits. */
    static final Duration CLOSE_CHECK = Duration.ofMillis(500);

    private final Wire wire;

    Connection(Wire wire) {
        this.wire = wire;
    }

    /**
     * Sends a request and reads its response. With {@code Expect: 100-continue} and a body, the
     * body is held back until the server sends {@code 100 Continue} (at most one second); a final
     * response that comes instead is returned and the body is not sent.
     *
     * @param request the request
     * @return the response (interim 1xx responses recorded in {@link TestResponse#interim()})
     */
    public TestResponse send(TestRequest request) {
        try {
            return wire.exchange(request, false);
        } catch (IOException e) {
            throw Wire.unchecked(e);
        }
    }

    /**
     * Pipelines: writes every request in one write call, then reads the responses in order.
     *
     * @param requests the requests
     * @return one response per request, in request order
     */
    public List<TestResponse> pipeline(List<TestRequest> requests) {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        List<String> methods = new ArrayList<>(requests.size());
        for (TestRequest r : requests) {
            all.writeBytes(r.encode(wire.hostHeader, false));
            methods.add(r.method());
        }
        try {
            return wire.exchange(all.toByteArray(), methods);
        } catch (IOException e) {
            throw Wire.unchecked(e);
        }
    }

    /**
     * Writes bytes as they are, in one write call; read the response with {@link #read()}.
     *
     * @param raw the bytes, e.g. a hand-written request
     */
    public void write(byte[] raw) {
        try {
            wire.write(raw);
        } catch (IOException e) {
            throw Wire.unchecked(e);
        }
    }

    /**
     * Reads the next response, as to a GET.
     *
     * @return the response
     */
    public TestResponse read() {
        return read("GET");
    }

    /**
     * Reads the next response to a request of that method (a response to HEAD has no body).
     *
     * @param requestMethod the method of the request being answered
     * @return the response
     */
    public TestResponse read(String requestMethod) {
        try {
            return ResponseReader.read(wire.in, requestMethod, new ArrayList<>());
        } catch (IOException e) {
            throw Wire.unchecked(e);
        }
    }

    /**
     * Checks whether the server closed the connection, waiting up to half a second for it.
     *
     * @return true if the server closed it (EOF or reset); false if it is still open or bytes
     *     arrived (they stay buffered for {@link #read()})
     */
    public boolean isClosedByServer() {
        return isClosedByServer(CLOSE_CHECK);
    }

    /**
     * Checks whether the server closed the connection, waiting up to {@code wait} for it.
     *
     * @param wait how long to wait for the close
     * @return true if the server closed it (EOF or reset) within {@code wait}; false if it is still
     *     open or bytes arrived (they stay buffered for {@link #read()})
     */
    public boolean isClosedByServer(Duration wait) {
        try {
            return wire.in.probe(wait.toMillis()) < 0;
        } catch (IOException e) {
            throw Wire.unchecked(e);
        }
    }

    /** Closes the socket. Idempotent. */
    @Override
    public void close() {
        wire.close();
    }
}
