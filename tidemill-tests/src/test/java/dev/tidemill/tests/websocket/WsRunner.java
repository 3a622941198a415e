package dev.tidemill.tests.websocket;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.WebSocketClient;
import dev.tidemill.testing.WebSocketFrame;
import dev.tidemill.tests.websocket.WsCase.End;
import dev.tidemill.tests.websocket.WsCase.Expect;
import dev.tidemill.tests.websocket.WsCase.Plan;
import dev.tidemill.tests.websocket.WsCase.Step;
import java.io.ByteArrayOutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * Runs one {@link WsCase}: opens a WebSocket (with the case's extension offer), performs its
 * writes, reads the server's frames and matches them against the expected answers in order, then
 * checks the end: the close frame's code, that nothing follows it, and that the server closes the
 * TCP connection. Then a fresh connection must still be echoed: the server keeps serving.
 */
final class WsRunner {
    /** Bound for the server to close TCP after the closing handshake (its close timeout is 5 s). */
    static final Duration CLOSE_WAIT = Duration.ofSeconds(10);

    private WsRunner() {}

    /** What the server sent: a complete message, a pong, or its close frame. */
    private sealed interface Got {
        record Message(int opcode, byte[] data, boolean compressed) implements Got {
            @Override
            public String toString() {
                return (opcode == WebSocketFrame.TEXT ? "text " : "binary ") + data.length + " bytes"
                        + (compressed ? " compressed" : "") + (data.length <= 64 ? " " + Arrays.toString(data) : "");
            }
        }

        record Pong(byte[] payload) implements Got {
            @Override
            public String toString() {
                return "pong " + new String(payload, StandardCharsets.ISO_8859_1);
            }
        }

        record Close(int code, int payloadLength) implements Got { }
    }

    static void run(TestClient client, WsCase c) {
        Plan plan = c.plan().get();
        PENDING.remove();
        WebSocketClient ws = c.offer().isEmpty() ? client.webSocket(c.route())
                : client.webSocket(c.route(), "Sec-WebSocket-Extensions", c.offer());
        try (ws) {
            boolean deflate = ws.compressing();
            if (!c.offer().isEmpty() && !c.declinable()) {
                assertThat(deflate).as("%s: permessage-deflate agreed on for the offer %s; 101: %s", c, c.offer(), ws.handshake()).isTrue();
            }
            for (Step s : plan.steps()) {
                try {
                    perform(ws, s, deflate);
                } catch (UncheckedIOException cut) {
                    // A server that fails the connection may close while the rest is in flight.
                    assertThat(plan.end().kind()).as("%s: write failed (%s)", c, cut.getMessage()).isEqualTo(End.Kind.SERVER_CLOSES);
                    break;
                }
            }
            for (Expect e : plan.expect()) expectNext(c, ws, e, deflate);
            finish(c, ws, plan.end(), deflate);
        }
        try (WebSocketClient canary = client.webSocket(ConformanceServer.ECHO)) {
            canary.send("canary");
            assertThat(canary.nextMessage().map(WebSocketClient.Message::text)).as("%s: echo on a fresh connection", c).hasValue("canary");
            canary.close(1000, "");
        }
    }

    private static void perform(WebSocketClient ws, Step step, boolean deflate) {
        switch (step) {
            case Step.Frames f -> {
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                for (WebSocketFrame frame : f.frames()) out.writeBytes(frame.encode(f.masked()));
                byte[] bytes = out.toByteArray();
                if (f.chop() == 0) {
                    ws.write(bytes);
                } else {
                    for (int at = 0; at < bytes.length; at += f.chop()) {
                        ws.write(Arrays.copyOfRange(bytes, at, Math.min(bytes.length, at + f.chop())));
                    }
                }
            }
            case Step.Raw r -> ws.write(r.bytes());
            case Step.Compressed m -> {
                // Where the server declined the offer (allowed for some), the message goes uncompressed.
                byte[] payload = deflate ? ws.compress(m.message()) : m.message();
                WebSocketFrame[] frames = WsCases.fragments(m.opcode(), payload, m.fragment() == 0 ? Math.max(1, payload.length) : m.fragment());
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                for (int i = 0; i < frames.length; i++) {
                    WebSocketFrame f = frames[i];
                    int rsv = i == 0 && deflate ? WebSocketFrame.RSV1 : 0;
                    out.writeBytes(new WebSocketFrame(f.fin(), rsv, f.opcode(), f.payload()).encode(true));
                }
                ws.write(out.toByteArray());
            }
            case Step.Pause p -> LockSupport.parkNanos(Duration.ofMillis(p.millis()).toNanos());
        }
    }

    private static void expectNext(WsCase c, WebSocketClient ws, Expect e, boolean deflate) {
        switch (e) {
            case Expect.Maybe m -> {
                Got got = next(c, ws);
                boolean same = got instanceof Got.Message g && g.opcode() == m.message().opcode() && Arrays.equals(g.data(), m.message().data());
                if (!same) PENDING.set(got);
            }
            case Expect.Message m -> {
                Got got = next(c, ws);
                if (!(got instanceof Got.Message g) || g.opcode() != m.opcode() || !Arrays.equals(g.data(), m.data())) {
                    fail("%s: expected %s but the server sent %s", c, m, got);
                    return;
                }
                if (m.compressed() && deflate) assertThat(g.compressed()).as("%s: echoed compressed (RSV1)", c).isTrue();
            }
            case Expect.Pong p -> {
                Got got = next(c, ws);
                if (!(got instanceof Got.Pong g) || !Arrays.equals(g.payload(), p.payload())) {
                    fail("%s: expected %s but the server sent %s", c, p, got);
                }
            }
            case Expect.Pongs ps -> {
                List<byte[]> pings = ps.payloads();
                int at = 0;
                while (true) {
                    Got got = next(c, ws);
                    if (!(got instanceof Got.Pong g)) {
                        fail("%s: expected pongs to pings %d-%d but the server sent %s", c, at, pings.size() - 1, got);
                        return;
                    }
                    while (at < pings.size() && !Arrays.equals(pings.get(at), g.payload())) at++;
                    assertThat(at).as("%s: a pong that answers no outstanding ping, in order: %s", c, g).isLessThan(pings.size());
                    if (at == pings.size() - 1) return;
                    at++;
                }
            }
        }
    }

    private static void finish(WsCase c, WebSocketClient ws, End end, boolean deflate) {
        if (end.kind() == End.Kind.CLEAN) ws.sendFrame(WebSocketFrame.close(1000, ""), true);
        Got got = next(c, ws);
        if (!(got instanceof Got.Close close)) {
            fail("%s: expected a close frame (%s) but the server sent %s", c, end, got);
            return;
        }
        assertThat(end.allows(close.code())).as("%s: close code %d, expected %s", c, close.code(), end).isTrue();
        if (close.payloadLength() >= 2) {
            assertThat(close.code()).as("%s: RFC 6455 7.4.1: 1005, 1006 and 1015 are never sent", c).isNotIn(1005, 1006, 1015);
        }
        if (end.kind() == End.Kind.SERVER_CLOSES) {
            // RFC 6455 5.5.1: a close frame is answered with one (the server may be gone already).
            try {
                ws.sendFrame(close.code() == WsCases.NO_STATUS ? WsCases.closeEmpty() : WebSocketFrame.close(close.code(), ""), true);
            } catch (UncheckedIOException gone) {
                // it closed first
            }
        }
        assertThat(ws.awaitClosed(CLOSE_WAIT)).as("%s: the server closed the TCP connection", c).isTrue();
        try {
            WebSocketFrame after = ws.nextFrame();
            fail("%s: a frame after the server's close frame: %s", c, after);
        } catch (UncheckedIOException expected) {
            // EOF (or a reset): nothing after the close
        }
    }

    /** What {@link #next} read but an optional expectation did not take; runs are one per thread. */
    private static final ThreadLocal<Got> PENDING = new ThreadLocal<>();

    /** Reads the next message (fragments joined, inflated), pong or close; a server ping is answered and skipped. */
    private static Got next(WsCase c, WebSocketClient ws) {
        Got pending = PENDING.get();
        if (pending != null) {
            PENDING.remove();
            return pending;
        }
        ByteArrayOutputStream data = null;
        int opcode = 0;
        boolean compressed = false;
        while (true) {
            WebSocketFrame f;
            try {
                f = ws.nextFrame();
            } catch (UncheckedIOException e) {
                throw new AssertionError(c + ": reading the server's next frame: " + e.getMessage()
                        + (c.offer().isEmpty() ? "" : "; the 101 agreed: " + ws.handshake().header("Sec-WebSocket-Extensions").orElse("no extension")), e);
            }
            switch (f.opcode()) {
                case WebSocketFrame.PING -> {
                    ws.pong(f.payload());
                    continue;
                }
                case WebSocketFrame.PONG -> {
                    assertThat(data).as("%s: a pong inside a fragmented message (allowed, but this reader takes whole messages)", c).isNull();
                    return new Got.Pong(f.payload());
                }
                case WebSocketFrame.CLOSE -> {
                    byte[] p = f.payload();
                    int code = p.length >= 2 ? ByteBuffer.wrap(p, 0, 2).getShort() & 0xffff : WsCases.NO_STATUS;
                    return new Got.Close(code, p.length);
                }
                case WebSocketFrame.CONTINUATION -> assertThat(data).as("%s: the server sent a continuation with nothing to continue", c).isNotNull();
                default -> {
                    assertThat(data).as("%s: the server began a message inside another", c).isNull();
                    data = new ByteArrayOutputStream();
                    opcode = f.opcode();
                    compressed = (f.rsv() & WebSocketFrame.RSV1) != 0;
                }
            }
            data.writeBytes(f.payload());
            if (f.fin()) return new Got.Message(opcode, compressed ? ws.inflate(data.toByteArray()) : data.toByteArray(), compressed);
        }
    }
}
