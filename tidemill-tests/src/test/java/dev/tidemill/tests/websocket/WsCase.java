package dev.tidemill.tests.websocket;

import dev.tidemill.testing.WebSocketFrame;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;

/**
 * One row of the WebSocket conformance suite: what a client sends on an open connection, what the
 * server must answer, in order, and how the connection must end, with the rule's source.
 *
 * @param section the suite section, e.g. {@code 5 fragmentation} (the catalog counts per section)
 * @param id the Autobahn|Testsuite case number ({@code 6.4.3}) or the suite's own id ({@code WS-01})
 * @param name what the case sends
 * @param source where the expectation comes from: an RFC section, an Autobahn case, a CVE
 * @param route the route the case talks to (see {@link ConformanceServer})
 * @param offer the {@code Sec-WebSocket-Extensions} offer, empty for none
 * @param plan builds the script when the case runs (some payloads are MiBs)
 * @param declinable whether the server may decline the offer (RFC 7692 7.1: parameters it does
 *     not support); the messages then go uncompressed
 */
public record WsCase(String section, String id, String name, String source, String route, String offer, Supplier<Plan> plan,
        boolean declinable) {

    /** @return this case, with the server allowed to decline its extension offer */
    WsCase mayDecline() {
        return new WsCase(section, id, name, source, route, offer, plan, true);
    }

    @Override
    public String toString() {
        return id + " " + name;
    }

    /** What one write of the client does. */
    sealed interface Step {
        /** The frames, encoded (masked unless {@code masked} is false) and concatenated, in writes of {@code chop} bytes (0: one write). */
        record Frames(List<WebSocketFrame> frames, int chop, boolean masked) implements Step { }

        /** Bytes sent as they are, e.g. a frame header announcing a length that never comes. */
        record Raw(byte[] bytes) implements Step { }

        /** A message compressed with the connection's compressor, in frames of {@code fragment} bytes (0: one frame), one write. */
        record Compressed(int opcode, byte[] message, int fragment) implements Step { }

        /** A pause between writes (never measured: it only lets the server see the writes apart). */
        record Pause(int millis) implements Step { }
    }

    /** What the server must send, in order. */
    sealed interface Expect {
        /** A complete message; {@code compressed}: its first frame must carry RSV1. */
        record Message(int opcode, byte[] data, boolean compressed) implements Expect {
            @Override
            public String toString() {
                return (opcode == WebSocketFrame.TEXT ? "text " : "binary ") + data.length + " bytes" + (compressed ? " compressed" : "");
            }
        }

        /**
         * A message the server may send or skip: one that came before a frame that fails the
         * connection, whose echo (by a handler on another thread) may lose the race with the
         * failure, which the RFC leaves open (Autobahn grades the missing echo NON-STRICT).
         */
        record Maybe(Message message) implements Expect { }

        /** A pong with this payload. */
        record Pong(byte[] payload) implements Expect {
            @Override
            public String toString() {
                return "pong " + new String(payload, java.nio.charset.StandardCharsets.ISO_8859_1);
            }
        }

        /**
         * Pongs answering these pings, in order: RFC 6455 5.5.3 lets a server skip a ping it has
         * not answered yet when a newer one came, so any subsequence ending with the last.
         */
        record Pongs(List<byte[]> payloads) implements Expect { }
    }

    /**
     * How the connection ends.
     *
     * @param kind who closes
     * @param codes the close codes the server's close frame may carry (1005: an empty close payload)
     */
    record End(Kind kind, int... codes) {
        enum Kind {
            /** The client closes with 1000 after the expected answers; the server echoes 1000 and closes TCP. */
            CLEAN,
            /** The script's own close frame is answered with one of {@code codes}, then TCP closes. */
            ANSWERED,
            /** The server sends a close frame with one of {@code codes} and closes TCP; nothing follows it. */
            SERVER_CLOSES
        }

        boolean allows(int code) {
            return Arrays.stream(codes).anyMatch(c -> c == code);
        }

        @Override
        public String toString() {
            return kind + " " + Arrays.toString(codes);
        }
    }

    /**
     * A script: the steps, the answers, the end.
     *
     * @param steps the client's writes
     * @param expect the server's answers, in order
     * @param end how the connection ends
     */
    record Plan(List<Step> steps, List<Expect> expect, End end) { }

    /** Builds a {@link Plan}: {@code send(...).then(...).expectText("x").clean()}. */
    static final class Script {
        private final List<Step> steps = new ArrayList<>();
        private final List<Expect> expect = new ArrayList<>();

        /** Adds one write of these frames, masked. @return this */
        Script then(WebSocketFrame... frames) {
            steps.add(new Step.Frames(List.of(frames), 0, true));
            return this;
        }

        /** Adds one write per frame. @return this */
        Script frameWise(WebSocketFrame... frames) {
            for (WebSocketFrame f : frames) then(f);
            return this;
        }

        /** Adds the frames written {@code n} bytes at a time. @return this */
        Script chopped(int n, WebSocketFrame... frames) {
            steps.add(new Step.Frames(List.of(frames), n, true));
            return this;
        }

        /** Adds the frames, unmasked, in one write. @return this */
        Script unmasked(WebSocketFrame... frames) {
            steps.add(new Step.Frames(List.of(frames), 0, false));
            return this;
        }

        /**
         * Writes one masked frame in pieces cut at these payload offsets, pausing between them, so
         * the server sees the payload arrive in TCP writes that split it where the case says.
         */
        Script split(WebSocketFrame frame, int pauseMillis, int... payloadCuts) {
            byte[] wire = frame.encode(true);
            int header = wire.length - frame.payload().length;
            int from = 0;
            for (int cut : payloadCuts) {
                steps.add(new Step.Raw(Arrays.copyOfRange(wire, from, header + cut)));
                steps.add(new Step.Pause(pauseMillis));
                from = header + cut;
            }
            steps.add(new Step.Raw(Arrays.copyOfRange(wire, from, wire.length)));
            return this;
        }

        Script raw(byte[] bytes) {
            steps.add(new Step.Raw(bytes));
            return this;
        }

        Script compressed(int opcode, byte[] message, int fragment) {
            steps.add(new Step.Compressed(opcode, message, fragment));
            return this;
        }

        Script pause(int millis) {
            steps.add(new Step.Pause(millis));
            return this;
        }

        Script expectText(String text) {
            return expectText(text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }

        Script expectText(byte[] utf8) {
            expect.add(new Expect.Message(WebSocketFrame.TEXT, utf8, false));
            return this;
        }

        Script expectBinary(byte[] data) {
            expect.add(new Expect.Message(WebSocketFrame.BINARY, data, false));
            return this;
        }

        /** Expects the message back with RSV1 set (compressed, when permessage-deflate was agreed). */
        Script expectCompressed(int opcode, byte[] data) {
            expect.add(new Expect.Message(opcode, data, true));
            return this;
        }

        /** The echo of a text sent before a frame that fails the connection: may be missing. */
        Script mayEchoText(String text) {
            expect.add(new Expect.Maybe(new Expect.Message(WebSocketFrame.TEXT, text.getBytes(java.nio.charset.StandardCharsets.UTF_8), false)));
            return this;
        }

        Script expectPong(byte[] payload) {
            expect.add(new Expect.Pong(payload));
            return this;
        }

        Script expectPongs(List<byte[]> payloads) {
            expect.add(new Expect.Pongs(payloads));
            return this;
        }

        Plan clean() {
            return new Plan(List.copyOf(steps), List.copyOf(expect), new End(End.Kind.CLEAN, 1000));
        }

        Plan answered(int... codes) {
            return new Plan(List.copyOf(steps), List.copyOf(expect), new End(End.Kind.ANSWERED, codes));
        }

        Plan serverCloses(int... codes) {
            return new Plan(List.copyOf(steps), List.copyOf(expect), new End(End.Kind.SERVER_CLOSES, codes));
        }
    }
}
