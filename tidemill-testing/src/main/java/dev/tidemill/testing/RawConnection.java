package dev.tidemill.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Optional;

/**
 * A connection for malformed or hand-made requests, from {@link TestClient#raw()}: exactly the
 * bytes given are sent, nothing is added. Responses are parsed by the same strict parser as
 * {@link Connection}; reads are bounded by the client's timeout. Not thread-safe.
 *
 * <pre>{@code
 * try (RawConnection raw = client.raw()) {
 *     raw.write("GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n");
 *     assertThat(raw.readResponse().status()).isEqualTo(400);
 *     assertThat(raw.awaitClosed(Duration.ofSeconds(5))).isTrue();
 * }
 * }</pre>
 */
public final class RawConnection implements AutoCloseable {
    private final Wire wire;

    RawConnection(Wire wire) {
        this.wire = wire;
    }

    /**
     * Writes the bytes in one write call.
     *
     * @param bytes exactly what to send
     */
    public void write(byte[] bytes) {
        try {
            wire.write(bytes);
        } catch (IOException e) {
            throw Wire.unchecked(e);
        }
    }

    /**
     * Writes the text as ISO-8859-1 (one byte per char; write {@code \r\n} yourself).
     *
     * @param latin1 exactly what to send
     */
    public void write(String latin1) {
        write(latin1.getBytes(StandardCharsets.ISO_8859_1));
    }

    /**
     * Half-closes: sends FIN, so the server sees the end of the request stream, while responses
     * can still be read.
     */
    public void shutdownOutput() {
        try {
            wire.pipe.shutdownOutput();
        } catch (IOException e) {
            throw Wire.unchecked(e);
        }
    }

    /**
     * Reads and parses one response, as to a GET (1xx interim responses are skipped and recorded).
     *
     * @return the response
     * @throws UncheckedIOException if the server closed first, timed out, or sent a malformed response
     */
    public TestResponse readResponse() {
        return readResponse("GET");
    }

    /**
     * Reads and parses one response to a request of that method (a response to HEAD has no body).
     *
     * @param requestMethod the method of the request being answered
     * @return the response
     */
    public TestResponse readResponse(String requestMethod) {
        try {
            return ResponseReader.read(wire.in, requestMethod, new ArrayList<>());
        } catch (IOException e) {
            throw Wire.unchecked(e);
        }
    }

    /**
     * Reads one response, unless the server closes the connection (EOF or reset) before sending a
     * byte.
     *
     * @return the response, or empty if the server closed without answering
     */
    public Optional<TestResponse> readResponseOrClose() {
        try {
            boolean end;
            try {
                end = wire.in.atEnd();
            } catch (SocketException reset) {
                end = true;
            }
            if (end) return Optional.empty();
            return Optional.of(ResponseReader.read(wire.in, "GET", new ArrayList<>()));
        } catch (IOException e) {
            throw Wire.unchecked(e);
        }
    }

    /**
     * Reads every byte until the server closes the connection (EOF, or a reset, which ends the
     * bytes too).
     *
     * @return the bytes received (including any not yet consumed by an earlier read)
     * @throws UncheckedIOException wrapping a {@link java.net.SocketTimeoutException} if no byte
     *     and no close came within the client's timeout
     */
    public byte[] readAllUntilClose() {
        try {
            wire.in.context("everything until the server closes the connection");
            return wire.in.readToEof(true);
        } catch (IOException e) {
            throw Wire.unchecked(e);
        }
    }

    /**
     * Waits for the server to close the connection. Bytes that arrive meanwhile are kept for
     * {@link #readResponse()} or {@link #readAllUntilClose()}.
     *
     * @param max how long to wait
     * @return true if the server closed the connection (EOF or reset) within {@code max}
     */
    public boolean awaitClosed(Duration max) {
        try {
            return wire.in.awaitEof(max.toMillis());
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
