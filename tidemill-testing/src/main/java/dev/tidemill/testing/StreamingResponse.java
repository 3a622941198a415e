package dev.tidemill.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;

/**
 * A response read as it arrives, from {@link TestClient#stream(TestRequest)}: the head is read
 * when it is created, the body one HTTP chunk at a time with {@link #nextChunk()}. Each read waits
 * at most the client's timeout. {@link #close()} before the end is an abrupt client disconnect,
 * which is how a test makes a client go away in the middle of a stream. Not thread-safe.
 *
 * <pre>{@code
 * try (StreamingResponse s = client.stream(TestRequest.get("/events"))) {
 *     assertThat(s.status()).isEqualTo(200);
 *     assertThat(s.nextChunkText()).isEqualTo("data: 1\n\n");
 * } // disconnects
 * }</pre>
 */
public final class StreamingResponse implements AutoCloseable {
    private final Wire wire;
    /** Over HTTP/2 instead of {@link #wire}: the stream's DATA frames are the chunks. */
    private final H2Exchange h2;
    private final ResponseReader.Head head;
    private final ResponseReader.Framing framing;
    private final List<Integer> interim;
    private final List<Map.Entry<String, String>> trailers = new ArrayList<>();
    private long remaining;
    private boolean done;

    StreamingResponse(Wire wire, String method) throws IOException {
        this.wire = wire;
        this.h2 = null;
        this.interim = new ArrayList<>();
        this.head = ResponseReader.readFinalHead(wire.in, interim);
        this.framing = ResponseReader.framing(head, method);
        this.remaining = framing.length();
        this.done = framing.kind() == ResponseReader.Kind.NONE;
    }

    StreamingResponse(H2Exchange h2) {
        this.wire = null;
        this.h2 = h2;
        this.interim = new ArrayList<>(h2.interim());
        this.head = new ResponseReader.Head("HTTP/2.0", h2.status(), "", h2.headers());
        this.framing = new ResponseReader.Framing(ResponseReader.Kind.FRAMES, -1);
        this.done = h2.ended();
    }

    /** @return the status code */
    public int status() {
        return head.status();
    }

    /** @return the reason phrase; empty if the server sent none */
    public String reason() {
        return head.reason();
    }

    /**
     * @param name a field name, any case
     * @return the first value of that header field, if present
     */
    public Optional<String> header(String name) {
        List<String> v = headers(name);
        return v.isEmpty() ? Optional.empty() : Optional.of(v.get(0));
    }

    /**
     * @param name a field name, any case
     * @return every value of that header field, in order; empty if absent
     */
    public List<String> headers(String name) {
        return ResponseReader.values(head.headers(), name);
    }

    /** @return every header field as received, in order */
    public List<Map.Entry<String, String>> headerList() {
        return head.headers();
    }

    /** @return the status codes of interim 1xx responses before this one; empty if none */
    public List<Integer> interim() {
        return List.copyOf(interim);
    }

    /** @return true if the body is sent with {@code Transfer-Encoding: chunked} (never over HTTP/2, which frames every body) */
    public boolean chunked() {
        return framing.kind() == ResponseReader.Kind.CHUNKED;
    }

    /**
     * Reads the next piece of the body, waiting for it up to the client's timeout. For a chunked
     * body that is exactly the next HTTP chunk; over HTTP/2 the next DATA frame's bytes; for a body
     * with {@code Content-Length} or one delimited by the close, whatever bytes arrived next.
     *
     * @return the chunk's bytes; empty once the body has ended (the terminating chunk, the
     *     announced length, or the close)
     * @throws java.io.UncheckedIOException on a timeout, a truncated body or a malformed chunk
     */
    public Optional<byte[]> nextChunk() {
        if (done) return Optional.empty();
        try {
            byte[] data = switch (framing.kind()) {
                case CHUNKED -> ResponseReader.readChunk(wire.in, trailers);
                case LENGTH -> {
                    if (remaining == 0) yield null;
                    wire.in.context("the body (" + remaining + " of " + framing.length() + " bytes left)");
                    byte[] b = wire.in.readSome((int) Math.min(remaining, 64 * 1024));
                    if (b == null) {
                        throw new java.io.EOFException("the server closed the connection with " + remaining + " of "
                                + framing.length() + " body bytes unsent");
                    }
                    remaining -= b.length;
                    yield b;
                }
                case CLOSE -> {
                    wire.in.context("a body delimited by the connection's close");
                    yield wire.in.readSome(64 * 1024);
                }
                case FRAMES -> {
                    byte[] b = h2.nextData();
                    if (b == null) trailers.addAll(h2.trailers());
                    yield b;
                }
                case NONE -> null;
            };
            if (data == null) {
                done = true;
                return Optional.empty();
            }
            return Optional.of(data);
        } catch (IOException e) {
            throw Wire.unchecked(e);
        }
    }

    /**
     * Reads the next chunk as UTF-8 text.
     *
     * @return the text of {@link #nextChunk()}
     * @throws NoSuchElementException if the body has ended
     */
    public String nextChunkText() {
        return nextChunk().map(b -> new String(b, StandardCharsets.UTF_8))
                .orElseThrow(() -> new NoSuchElementException("the response body has ended: no more chunks"));
    }

    /** @return true once {@link #nextChunk()} has seen the end of the body */
    public boolean ended() {
        return done;
    }

    /** @return the trailer fields, known once the body has ended; empty before that or if none */
    public List<Map.Entry<String, String>> trailers() {
        return List.copyOf(trailers);
    }

    /** Closes the socket at once, read or not: to the server, the client disconnected. Idempotent. */
    @Override
    public void close() {
        if (h2 != null) h2.close();
        else wire.close();
    }
}
