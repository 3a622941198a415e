package dev.tidemill.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * One request over cleartext HTTP/2 with prior knowledge (RFC 9113 3.3) on a connection of its
 * own, for {@link TestClient}'s HTTP/2 side: the request's fields become a header block (the
 * request line as pseudo-header fields, {@code Host} as {@code :authority}, the fields HTTP/2
 * forbids left out, RFC 9113 8.2.2), its body DATA frames within the windows the server grants,
 * and the answer is read back as a head and then DATA frame by DATA frame, giving the window back
 * as it goes. Built on {@link H2Wire}. Not thread-safe.
 */
final class H2Exchange implements AutoCloseable {
    /** The one stream a connection of this kind carries. */
    private static final int STREAM = 1;
    private static final Set<String> CONNECTION_SPECIFIC = Set.of("host", "connection", "keep-alive", "proxy-connection",
            "transfer-encoding", "upgrade");

    private final H2Wire wire;
    /** Frames read while the body was being sent (an early answer), handed out before new ones. */
    private final ArrayDeque<H2Wire.Frame> early = new ArrayDeque<>();
    private final List<Integer> interim = new ArrayList<>();
    private final List<Map.Entry<String, String>> headers = new ArrayList<>();
    private final List<Map.Entry<String, String>> trailers = new ArrayList<>();
    private int status;
    private boolean ended;
    /** Gives the window back as the answer's DATA is read. */
    private final H2Flow receiving;

    private H2Exchange(H2Wire wire) {
        this.wire = wire;
        this.receiving = new H2Flow(wire, STREAM);
    }

    /**
     * Opens a connection, sends the request and reads the final response head.
     *
     * @param port the server's plain port on 127.0.0.1
     * @param authority the {@code :authority} to send unless the request sets {@code Host}
     * @param request the request
     * @param timeout how long each read waits
     * @return the exchange, head read
     */
    static H2Exchange open(int port, String authority, TestRequest request, Duration timeout) {
        H2Wire wire = H2Wire.open(port).timeout(timeout);
        H2Exchange x = new H2Exchange(wire);
        try {
            x.send(request, authority);
            x.readHead();
            return x;
        } catch (RuntimeException | Error e) {
            wire.close();
            throw e;
        }
    }

    private void send(TestRequest request, String authority) {
        List<String> fields = new ArrayList<>(List.of(":method", request.method(), ":scheme", "http", ":authority",
                value(request, "Host", authority), ":path", request.path()));
        boolean chunked = false;
        for (Map.Entry<String, String> e : request.headers()) {
            String name = e.getKey().toLowerCase(Locale.ROOT);
            if (name.equals("transfer-encoding")) chunked = e.getValue().toLowerCase(Locale.ROOT).contains("chunked");
            if (CONNECTION_SPECIFIC.contains(name) || name.equals("te") && !e.getValue().trim().equalsIgnoreCase("trailers")) continue;
            fields.add(name);
            fields.add(e.getValue());
        }
        byte[] body = request.body() == null ? new byte[0] : chunked ? dechunk(request.body()) : request.body();
        if (body.length > 0 && !request.has("Content-Length") && !chunked) {
            fields.add("content-length");
            fields.add(Integer.toString(body.length));
        }
        byte[] block = wire.hpack(fields.toArray(String[]::new));
        if (body.length == 0) {
            wire.headers(STREAM, H2Wire.END_HEADERS | H2Wire.END_STREAM, block);
            return;
        }
        wire.headers(STREAM, H2Wire.END_HEADERS, block);
        sendBody(body);
    }

    /** DATA within the connection's and the stream's windows; stops early if the answer comes first. */
    private void sendBody(byte[] body) {
        H2Flow flow = new H2Flow(wire, STREAM);
        int at = 0;
        while (at < body.length) {
            int n = flow.sendable(body.length - at);
            if (n > 0) {
                byte[] piece = java.util.Arrays.copyOfRange(body, at, at + n);
                at += n;
                flow.sent(n);
                wire.data(STREAM, at == body.length ? H2Wire.END_STREAM : 0, piece);
                continue;
            }
            H2Wire.Frame f = wire.read();
            if (f == null) throw new UncheckedIOException(new IOException("the server closed the connection while the body was sent"));
            flow.granted(f);
            if (f.streamId() == STREAM && (f.type() == H2Wire.HEADERS || f.type() == H2Wire.RST_STREAM)) {
                early.add(f); // answered (or refused) before the whole body: what was sent is all that goes
                return;
            }
        }
    }

    private H2Wire.Frame next() {
        H2Wire.Frame f = early.poll();
        if (f != null) return f;
        f = wire.read();
        if (f == null) throw new UncheckedIOException(new IOException("the server closed the connection; saw " + wire.seen()));
        if (f.type() == H2Wire.GOAWAY && f.errorCode() != H2Wire.NO_ERROR) {
            throw new UncheckedIOException(new IOException("GOAWAY " + f.errorCode() + " from the server; saw " + wire.seen()));
        }
        return f;
    }

    private void readHead() {
        for (;;) {
            Map<String, List<String>> block = headerBlock();
            int s = Integer.parseInt(block.get(":status").get(0));
            if (s >= 200) {
                status = s;
                fields(block, headers);
                return;
            }
            interim.add(s);
        }
    }

    /** @return the next header block on the stream; sets {@link #ended} when it ended the stream */
    private Map<String, List<String>> headerBlock() {
        ByteArrayOutputStream block = null;
        for (;;) {
            H2Wire.Frame f = next();
            if (f.streamId() != STREAM) continue;
            if (f.type() == H2Wire.RST_STREAM) {
                throw new UncheckedIOException(new IOException("the server reset the stream (" + f.errorCode() + ")"));
            }
            if (f.type() == H2Wire.HEADERS) {
                block = new ByteArrayOutputStream();
                block.writeBytes(H2Wire.headerFragment(f));
                if (f.has(H2Wire.END_STREAM)) ended = true;
            } else if (f.type() == H2Wire.CONTINUATION && block != null) {
                block.writeBytes(f.payload());
            } else {
                continue;
            }
            if (f.has(H2Wire.END_HEADERS)) return wire.decode(block.toByteArray());
        }
    }

    /**
     * @return the next DATA frame's bytes (window given back), or null once the stream ended
     *     (trailers, if any, are then in {@link #trailers()})
     */
    byte[] nextData() {
        while (!ended) {
            H2Wire.Frame f = next();
            if (f.streamId() != STREAM) continue;
            switch (f.type()) {
                case H2Wire.DATA -> {
                    byte[] data = receiving.received(f);
                    if (f.has(H2Wire.END_STREAM)) ended = true;
                    if (data.length > 0) return data;
                }
                case H2Wire.HEADERS -> {
                    early.addFirst(f);
                    fields(headerBlock(), trailers);
                    ended = true;
                }
                case H2Wire.RST_STREAM -> throw new UncheckedIOException(new IOException(
                        "the server reset the stream (" + f.errorCode() + ") before the body's end"));
                default -> { }
            }
        }
        return null;
    }

    /** @return the whole response, the body read to its end */
    TestResponse response(boolean head) {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        for (byte[] b; (b = nextData()) != null; ) body.writeBytes(b);
        return new TestResponse("HTTP/2.0", status, "", headers, head ? new byte[0] : body.toByteArray(), false, trailers, interim);
    }

    int status() {
        return status;
    }

    List<Map.Entry<String, String>> headers() {
        return headers;
    }

    List<Integer> interim() {
        return interim;
    }

    List<Map.Entry<String, String>> trailers() {
        return trailers;
    }

    boolean ended() {
        return ended;
    }

    @Override
    public void close() {
        wire.close();
    }

    private static void fields(Map<String, List<String>> block, List<Map.Entry<String, String>> into) {
        for (Map.Entry<String, List<String>> e : block.entrySet()) {
            if (e.getKey().startsWith(":")) continue;
            for (String v : e.getValue()) into.add(Map.entry(e.getKey(), v));
        }
    }

    private static String value(TestRequest r, String name, String otherwise) {
        for (Map.Entry<String, String> e : r.headers()) if (e.getKey().equalsIgnoreCase(name)) return e.getValue();
        return otherwise;
    }

    /** @return a chunked body's content: chunk sizes, extensions and the last chunk taken off */
    static byte[] dechunk(byte[] chunked) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        String s = new String(chunked, StandardCharsets.ISO_8859_1);
        int at = 0;
        while (at < s.length()) {
            int eol = s.indexOf("\r\n", at);
            String size = s.substring(at, eol);
            int semi = size.indexOf(';');
            int n = Integer.parseInt((semi >= 0 ? size.substring(0, semi) : size).trim(), 16);
            at = eol + 2;
            if (n == 0) break;
            out.write(chunked, at, n);
            at += n + 2;
        }
        return out.toByteArray();
    }
}
