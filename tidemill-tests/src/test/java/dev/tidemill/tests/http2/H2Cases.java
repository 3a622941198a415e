package dev.tidemill.tests.http2;

import static dev.tidemill.testing.H2Fields.*;
import static dev.tidemill.testing.H2Wire.*;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.tests.http2.Http2ConformanceTest.Case;
import dev.tidemill.testing.H2Wire;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.function.Consumer;

/**
 * h2spec's {@code generic/*} cases (what a server must accept) and its {@code http2/3.5} to
 * {@code http2/7} cases (the frame layer), from their public descriptions and RFC 9113. Field
 * rules (section 8) and HPACK are in {@link H2FieldCases}.
 */
final class H2Cases {
    /** The server's plain port, set before each case runs. */
    static int port;

    private H2Cases() {}

    static Case c(String id, String description, Consumer<H2Wire> run) {
        return new Case(id, description, true, run);
    }

    static Case raw(String id, String description, Consumer<H2Wire> run) {
        return new Case(id, description, false, run);
    }

    static byte[] hex(String h) {
        return HexFormat.of().parseHex(h.replace(" ", ""));
    }

    static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        for (byte[] p : parts) b.writeBytes(p);
        return b.toByteArray();
    }

    /** @return the fields of a POST / with a body to follow */
    static String[] post() {
        return new String[] {":method", "POST", ":scheme", "http", ":path", "/", ":authority", "127.0.0.1"};
    }

    static void ok(H2Wire w, int stream) {
        assertThat(w.expectStatus(stream)).isEqualTo(200);
    }

    /** Opens stream 1 as a POST whose body has not started (state open). */
    static void openPost(H2Wire w, int stream) {
        w.headers(stream, END_HEADERS, w.hpack(post()));
    }

    /** Stream 1 half-closed (remote): a request to /slow with END_STREAM, its answer 1.5 s away. */
    static void halfClosedRemote(H2Wire w, int stream) {
        w.request(stream, "/slow");
    }

    /** Stream 1 closed: a GET answered to its end. */
    static void closedStream(H2Wire w, int stream) {
        w.request(stream, "/");
        ok(w, stream);
        w.expectBody(stream);
    }

    static List<Case> generic() {
        List<Case> l = new ArrayList<>();
        l.add(c("generic/1/1", "sends a client connection preface: the server answers with SETTINGS", w -> w.expectAlive()));
        l.add(c("generic/2/1", "sends a PRIORITY frame on an idle stream: accepted", w -> {
            w.priority(1, 0, false, 15);
            w.expectAlive();
        }));
        l.add(c("generic/2/2", "sends a WINDOW_UPDATE frame on a half-closed (remote) stream: accepted", w -> {
            halfClosedRemote(w, 1);
            w.windowUpdate(1, 100);
            w.expectAlive();
            ok(w, 1);
        }));
        l.add(c("generic/2/3", "sends a PRIORITY frame on a half-closed (remote) stream: accepted", w -> {
            halfClosedRemote(w, 1);
            w.priority(1, 0, false, 15);
            w.expectAlive();
            ok(w, 1);
        }));
        l.add(c("generic/2/4", "sends a RST_STREAM frame on a half-closed (remote) stream: accepted", w -> {
            halfClosedRemote(w, 1);
            w.rstStream(1, CANCEL);
            w.expectAlive();
        }));
        l.add(c("generic/2/5", "sends a PRIORITY frame on a closed stream: accepted", w -> {
            closedStream(w, 1);
            w.priority(1, 0, false, 15);
            w.expectAlive();
        }));
        l.add(c("generic/3.1/1", "sends a DATA frame: the POST is answered", w -> {
            openPost(w, 1);
            w.data(1, END_STREAM, ascii("test"));
            ok(w, 1);
            assertThat(new String(w.expectBody(1))).isEqualTo("got 4 -");
        }));
        l.add(c("generic/3.1/2", "sends multiple DATA frames: the POST is answered", w -> {
            openPost(w, 1);
            w.data(1, 0, ascii("te"));
            w.data(1, END_STREAM, ascii("st"));
            ok(w, 1);
            assertThat(new String(w.expectBody(1))).isEqualTo("got 4 -");
        }));
        l.add(c("generic/3.1/3", "sends a DATA frame with padding: padding is not data", w -> {
            openPost(w, 1);
            w.data(1, END_STREAM | PADDED, concat(new byte[] {8}, ascii("test"), new byte[8]));
            ok(w, 1);
            assertThat(new String(w.expectBody(1))).isEqualTo("got 4 -");
        }));
        l.add(c("generic/3.2/1", "sends a HEADERS frame: answered", w -> {
            w.request(1, "/");
            ok(w, 1);
        }));
        l.add(c("generic/3.2/2", "sends a HEADERS frame with padding: answered", w -> {
            w.headers(1, END_HEADERS | END_STREAM | PADDED, concat(new byte[] {4}, w.hpack(get("/")), new byte[4]));
            ok(w, 1);
        }));
        l.add(c("generic/3.2/3", "sends a HEADERS frame with priority: answered", w -> {
            w.headers(1, END_HEADERS | END_STREAM | PRIORITY_FLAG, concat(priorityBytes(0, false, 255), w.hpack(get("/"))));
            ok(w, 1);
        }));
        l.add(c("generic/3.3/1", "sends a PRIORITY frame with priority 1: accepted", w -> {
            w.priority(1, 0, false, 0);
            w.request(1, "/");
            ok(w, 1);
        }));
        l.add(c("generic/3.3/2", "sends a PRIORITY frame with priority 256: accepted", w -> {
            w.priority(1, 0, false, 255);
            w.request(1, "/");
            ok(w, 1);
        }));
        l.add(c("generic/3.3/3", "sends a PRIORITY frame with a stream dependency: accepted", w -> {
            w.priority(1, 0, false, 15);
            w.priority(3, 1, false, 15);
            w.request(3, "/");
            ok(w, 3);
        }));
        l.add(c("generic/3.3/4", "sends a PRIORITY frame with the exclusive bit: accepted", w -> {
            w.priority(1, 0, false, 15);
            w.priority(3, 1, true, 15);
            w.request(3, "/");
            ok(w, 3);
        }));
        l.add(c("generic/3.3/5", "sends a PRIORITY frame for an idle stream, then HEADERS on a lower id: answered"
                + " (RFC 9113 5.1.1: PRIORITY does not open a stream)", w -> {
            w.priority(5, 0, false, 15);
            w.request(3, "/");
            ok(w, 3);
        }));
        l.add(c("generic/3.4/1", "sends a RST_STREAM frame: accepted", w -> {
            openPost(w, 1);
            w.rstStream(1, CANCEL);
            w.expectAlive();
        }));
        l.add(c("generic/3.5/1", "sends a SETTINGS frame: acknowledged", w -> {
            w.settings(INITIAL_WINDOW_SIZE, 65535);
            w.expectFrame(SETTINGS);
        }));
        l.add(c("generic/3.7/1", "sends a PING frame: answered with its data and ACK", w -> {
            w.ping(0, ascii("h2spec!!"));
            w.expectPingAck(ascii("h2spec!!"));
        }));
        l.add(c("generic/3.8/1", "sends a GOAWAY frame: no error in return", w -> {
            w.goAway(0, NO_ERROR);
            expectNoErrorAfterGoAway(w);
        }));
        l.add(c("generic/3.9/1", "sends a WINDOW_UPDATE frame with stream id 0: accepted", w -> {
            w.windowUpdate(0, 1);
            w.expectAlive();
        }));
        l.add(c("generic/3.9/2", "sends a WINDOW_UPDATE frame with stream id 1: accepted", w -> {
            openPost(w, 1);
            w.windowUpdate(1, 1);
            w.data(1, END_STREAM, ascii("x"));
            ok(w, 1);
        }));
        l.add(c("generic/3.10/1", "sends a CONTINUATION frame: the block is whole", w -> {
            byte[] b = w.hpack(get("/"));
            w.headers(1, END_STREAM, java.util.Arrays.copyOfRange(b, 0, 2));
            w.continuation(1, END_HEADERS, java.util.Arrays.copyOfRange(b, 2, b.length));
            ok(w, 1);
        }));
        l.add(c("generic/3.10/2", "sends multiple CONTINUATION frames: the block is whole", w -> {
            byte[] b = w.hpack(with(get("/"), "x-a", "1", "x-b", "2"));
            // three CONTINUATIONs: one per byte would trip the CONTINUATION-flood guard (16 small frames)
            int third = b.length / 3;
            w.headers(1, END_STREAM, java.util.Arrays.copyOfRange(b, 0, 1));
            w.continuation(1, 0, java.util.Arrays.copyOfRange(b, 1, third));
            w.continuation(1, 0, java.util.Arrays.copyOfRange(b, third, 2 * third));
            w.continuation(1, END_HEADERS, java.util.Arrays.copyOfRange(b, 2 * third, b.length));
            ok(w, 1);
        }));
        l.add(c("generic/4/1", "sends a GET request: 200 with its body", w -> {
            w.request(1, "/");
            ok(w, 1);
            assertThat(new String(w.expectBody(1))).isEqualTo("hello");
        }));
        l.add(c("generic/4/2", "sends a HEAD request: 200 without DATA", w -> {
            w.headers(1, END_HEADERS | END_STREAM, w.hpack(":method", "HEAD", ":scheme", "http", ":path", "/", ":authority", "a"));
            ok(w, 1);
            List<H2Wire.Frame> seen = w.seen();
            assertThat(seen.get(seen.size() - 1).has(END_STREAM)).as("HEADERS ends the stream: no DATA").isTrue();
        }));
        l.add(c("generic/4/3", "sends a POST request: answered", w -> {
            openPost(w, 1);
            w.data(1, END_STREAM, ascii("hello"));
            ok(w, 1);
            assertThat(new String(w.expectBody(1))).isEqualTo("got 5 -");
        }));
        l.add(c("generic/4/4", "sends a POST request with trailers: the body and the request are complete", w -> {
            openPost(w, 1);
            w.data(1, 0, ascii("hello"));
            w.headers(1, END_HEADERS | END_STREAM, w.hpack("x-trailer", "t"));
            ok(w, 1);
            assertThat(new String(w.expectBody(1))).startsWith("got 5");
        }));
        l.addAll(H2FieldCases.genericHpack());
        return l;
    }

    /**
     * After the client's GOAWAY, the server answers with no error. It may keep the connection open
     * or close it; a PING tells the two apart without waiting on silence: its ACK comes back (still
     * open), or the connection closes (a GOAWAY before the close must say NO_ERROR). Any other error
     * frame, or nothing at all within the wire's timeout, fails the case.
     */
    static void expectNoErrorAfterGoAway(H2Wire w) {
        byte[] opaque = ascii("after-ga");
        w.tryRaw(frameBytes(PING, 0, 0, opaque)); // a server that already closed fails the write: the read below sees the close
        for (H2Wire.Frame f; (f = w.read()) != null; ) {
            if (f.type() == GOAWAY) assertThat(f.errorCode()).as("the server's GOAWAY; saw %s", w.seen()).isEqualTo(NO_ERROR);
            assertThat(f.type()).as("no stream error; saw %s", w.seen()).isNotEqualTo(RST_STREAM);
            if (f.type() == PING && f.has(ACK) && java.util.Arrays.equals(f.payload(), opaque)) return;
        }
    }

    /** A connection error: GOAWAY with one of the codes, then close. */
    static Consumer<H2Wire> goAway(Consumer<H2Wire> send, int... codes) {
        return w -> {
            send.accept(w);
            w.expectGoAway(codes);
        };
    }

    static List<Case> framing() {
        List<Case> l = new ArrayList<>();
        l.add(raw("http2/3.5/1", "sends the client connection preface and SETTINGS: the server's SETTINGS arrive", w -> {
            w.preface().settings();
            assertThat(w.expectFrame(SETTINGS).has(ACK)).isFalse();
            assertThat(w.serverSettings()).containsEntry(MAX_CONCURRENT_STREAMS, 100L);
        }));
        l.add(raw("http2/3.5/2", "sends an invalid connection preface: the connection closes (no request is served)", w -> {
            int before = Http2ConformanceTest.HANDLED.get();
            w.raw(ascii("PRI * HTTP/2.0\r\n\r\nXX\r\n\r\n"));
            w.expectClosed();
            assertThat(Http2ConformanceTest.HANDLED.get()).isEqualTo(before);
        }));
        l.add(c("http2/4.1/1", "sends a frame with an unknown type: ignored", w -> {
            w.frame(0x16, 0, 0, ascii("unknown!"));
            w.expectAlive();
        }));
        l.add(c("http2/4.1/2", "sends a frame with undefined flags: ignored", w -> {
            w.ping(0x16, ascii("h2spec!!"));
            w.expectPingAck(ascii("h2spec!!"));
        }));
        l.add(c("http2/4.1/3", "sends a frame with the reserved bit of the stream id set: ignored", w -> {
            w.frame(PING, 0, 0x80000000, ascii("h2spec!!"));
            w.expectPingAck(ascii("h2spec!!"));
        }));
        l.add(c("http2/4.2/1", "sends a DATA frame of 2^14 octets: accepted", w -> {
            openPost(w, 1);
            w.data(1, END_STREAM, new byte[16384]);
            ok(w, 1);
        }));
        l.add(c("http2/4.2/2", "sends a DATA frame over SETTINGS_MAX_FRAME_SIZE: FRAME_SIZE_ERROR", goAway(w -> {
            openPost(w, 1);
            w.data(1, END_STREAM, new byte[16385]);
        }, FRAME_SIZE_ERROR)));
        l.add(c("http2/4.2/3", "sends a HEADERS frame over SETTINGS_MAX_FRAME_SIZE: connection error FRAME_SIZE_ERROR",
                goAway(w -> w.headers(1, END_HEADERS | END_STREAM, concat(w.hpack(get("/")), literal("x-pad", "p".repeat(16400)))),
                        FRAME_SIZE_ERROR)));
        l.add(c("http2/4.3/1", "sends an invalid header block fragment: connection error COMPRESSION_ERROR",
                goAway(w -> w.headers(1, END_HEADERS | END_STREAM, hex("00 7f")), COMPRESSION_ERROR)));
        l.add(c("http2/4.3/2", "sends a PRIORITY frame while sending a header block: connection error PROTOCOL_ERROR",
                goAway(w -> {
                    w.headers(1, END_STREAM, w.hpack(get("/")));
                    w.priority(1, 0, false, 15);
                }, PROTOCOL_ERROR)));
        l.add(c("http2/4.3/3", "sends a HEADERS frame to another stream while sending a header block: PROTOCOL_ERROR",
                goAway(w -> {
                    w.headers(1, END_STREAM, w.hpack(get("/")));
                    w.headers(3, END_HEADERS | END_STREAM, w.hpack(get("/")));
                }, PROTOCOL_ERROR)));
        H2StateCases.add(l);
        return l;
    }
}
