package dev.tidemill.tests.websocket;

import dev.tidemill.testing.WebSocketFrame;
import dev.tidemill.tests.websocket.WsCase.Plan;
import dev.tidemill.tests.websocket.WsCase.Script;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Random;
import java.util.function.Supplier;

/** Builders for the case tables: every row reads as frames sent, answers expected, end, source. */
final class WsCases {
    /** Close codes (RFC 6455 7.4.1). */
    static final int NORMAL = 1000;
    static final int PROTOCOL_ERROR = 1002;
    static final int INVALID_PAYLOAD = 1007;
    static final int TOO_BIG = 1009;
    /** An empty close payload (RFC 6455 7.1.5: "no status code"), as {@link dev.tidemill.testing.WebSocketClient.Close} reports it. */
    static final int NO_STATUS = 1005;

    static final String RFC6455 = "RFC 6455 ";
    static final String RFC7692 = "RFC 7692 ";
    static final String AUTOBAHN = "Autobahn|Testsuite ";

    private WsCases() {}

    /** A row on {@code /echo}. */
    static WsCase row(String section, String id, String name, String source, Supplier<Plan> plan) {
        return new WsCase(section, id, name, source, ConformanceServer.ECHO, "", plan, false);
    }

    /** A row on another route, with an extension offer ("" for none). */
    static WsCase row(String section, String route, String offer, String id, String name, String source, Supplier<Plan> plan) {
        return new WsCase(section, id, name, source, route, offer, plan, false);
    }

    /** An Autobahn case's source: {@code Autobahn|Testsuite 5.15; RFC 6455 5.4}. */
    static String autobahn(String id, String rfcSection) {
        return AUTOBAHN + id + "; " + RFC6455 + rfcSection;
    }

    static Script send(WebSocketFrame... frames) {
        return new Script().then(frames);
    }

    static Script frameWise(WebSocketFrame... frames) {
        return new Script().frameWise(frames);
    }

    static Script chopped(int n, WebSocketFrame... frames) {
        return new Script().chopped(n, frames);
    }

    static Script nothing() {
        return new Script();
    }

    static WebSocketFrame text(String s) {
        return WebSocketFrame.text(s);
    }

    static WebSocketFrame text(byte[] utf8) {
        return new WebSocketFrame(true, 0, WebSocketFrame.TEXT, utf8);
    }

    static WebSocketFrame binary(byte[] b) {
        return WebSocketFrame.binary(b);
    }

    /** A first fragment (FIN 0 unless {@code fin}). */
    static WebSocketFrame start(int opcode, boolean fin, String s) {
        return new WebSocketFrame(fin, 0, opcode, utf8(s));
    }

    static WebSocketFrame start(int opcode, boolean fin, byte[] b) {
        return new WebSocketFrame(fin, 0, opcode, b);
    }

    static WebSocketFrame cont(boolean fin, String s) {
        return new WebSocketFrame(fin, 0, WebSocketFrame.CONTINUATION, utf8(s));
    }

    static WebSocketFrame cont(boolean fin, byte[] b) {
        return new WebSocketFrame(fin, 0, WebSocketFrame.CONTINUATION, b);
    }

    static WebSocketFrame ping(String s) {
        return WebSocketFrame.ping(utf8(s));
    }

    static WebSocketFrame ping(byte[] b) {
        return WebSocketFrame.ping(b);
    }

    static WebSocketFrame pong(String s) {
        return WebSocketFrame.pong(utf8(s));
    }

    static WebSocketFrame close(int code, String reason) {
        return WebSocketFrame.close(code, reason);
    }

    static WebSocketFrame close(int code, byte[] reason) {
        byte[] p = new byte[2 + reason.length];
        p[0] = (byte) (code >> 8);
        p[1] = (byte) code;
        System.arraycopy(reason, 0, p, 2, reason.length);
        return new WebSocketFrame(true, 0, WebSocketFrame.CLOSE, p);
    }

    static WebSocketFrame closeEmpty() {
        return new WebSocketFrame(true, 0, WebSocketFrame.CLOSE, new byte[0]);
    }

    static WebSocketFrame frame(boolean fin, int rsv, int opcode, byte[] payload) {
        return new WebSocketFrame(fin, rsv, opcode, payload);
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static byte[] hex(String h) {
        return HexFormat.of().parseHex(h.replace(" ", ""));
    }

    /** {@code n} copies of {@code b}. */
    static byte[] bytes(int n, int b) {
        byte[] out = new byte[n];
        Arrays.fill(out, (byte) b);
        return out;
    }

    /** {@code n} bytes of ASCII text ({@code *}), as Autobahn's section 1 sends. */
    static String stars(int n) {
        return "*".repeat(n);
    }

    /** {@code n} pseudo-random bytes, the same for the same seed. */
    static byte[] random(int n, long seed) {
        byte[] out = new byte[n];
        new Random(seed).nextBytes(out);
        return out;
    }

    /**
     * {@code n} bytes of JSON-like text with some repetition (compresses about 3:1, like the
     * JSON file Autobahn's sections 12 and 13 send), the same for the same seed.
     */
    static byte[] jsonish(int n, long seed) {
        Random r = new Random(seed);
        String[] words = {"\"id\":", "\"name\":", "\"tags\":[", "\"value\":", "\"Größe\":", "null", "true", "], ", "{", "}, ", "\"κόσμε\""};
        StringBuilder s = new StringBuilder(n + 32);
        while (s.length() < n) {
            s.append(words[r.nextInt(words.length)]);
            s.append(r.nextInt(100_000)).append(' ');
        }
        byte[] b = utf8(s.toString());
        // cut at n bytes, then back to a code point boundary, padding with ASCII
        int end = n;
        while (end > 0 && end < b.length && (b[end] & 0xC0) == 0x80) end--;
        byte[] out = Arrays.copyOf(b, n);
        Arrays.fill(out, end, n, (byte) ' ');
        return out;
    }

    /** The bytes split into fragments of at most {@code size}: the first with {@code opcode}, the rest continuations. */
    static WebSocketFrame[] fragments(int opcode, byte[] data, int size) {
        int n = Math.max(1, (data.length + size - 1) / size);
        WebSocketFrame[] out = new WebSocketFrame[n];
        for (int i = 0; i < n; i++) {
            byte[] part = Arrays.copyOfRange(data, i * size, Math.min(data.length, (i + 1) * size));
            out[i] = new WebSocketFrame(i == n - 1, 0, i == 0 ? opcode : WebSocketFrame.CONTINUATION, part);
        }
        return out;
    }

    /** A masked frame header announcing {@code length} payload bytes, with its masking key, and no payload. */
    static byte[] header(int opcode, boolean fin, long length) {
        byte[] h = new byte[14];
        h[0] = (byte) ((fin ? 0x80 : 0) | opcode);
        h[1] = (byte) (0x80 | 127);
        for (int i = 0; i < 8; i++) h[2 + i] = (byte) (length >>> (56 - 8 * i));
        h[10] = 0x11;
        h[11] = 0x22;
        h[12] = 0x33;
        h[13] = 0x44;
        return h;
    }

    static byte[] concat(byte[]... parts) {
        int n = 0;
        for (byte[] p : parts) n += p.length;
        byte[] out = new byte[n];
        int at = 0;
        for (byte[] p : parts) {
            System.arraycopy(p, 0, out, at, p.length);
            at += p.length;
        }
        return out;
    }
}
