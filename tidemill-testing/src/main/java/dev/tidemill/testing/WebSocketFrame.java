package dev.tidemill.testing;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Objects;

/**
 * One WebSocket frame (RFC 6455 section 5.2), as sent or received by {@link WebSocketClient}.
 * Nothing is checked when a frame is built, so a test can make any frame a hostile peer would:
 * reserved bits, reserved opcodes, oversized or fragmented control frames.
 *
 * <pre>{@code
 * ws.sendFrame(new WebSocketFrame(true, 0b100, WebSocketFrame.TEXT, "x".getBytes(UTF_8))); // RSV1 set
 * assertThat(ws.awaitClose().code()).isEqualTo(1002);
 * }</pre>
 *
 * @param fin the FIN bit: this is the last frame of its message
 * @param rsv the three reserved bits RSV1-RSV3 as a number 0-7 (RSV1 is 4, the permessage-deflate bit)
 * @param opcode the opcode, 0-15
 * @param payload the payload, unmasked
 */
public record WebSocketFrame(boolean fin, int rsv, int opcode, byte[] payload) {
    /** Opcode 0: a continuation frame. */
    public static final int CONTINUATION = 0x0;
    /** Opcode 1: a text frame. */
    public static final int TEXT = 0x1;
    /** Opcode 2: a binary frame. */
    public static final int BINARY = 0x2;
    /** Opcode 8: a close frame. */
    public static final int CLOSE = 0x8;
    /** Opcode 9: a ping. */
    public static final int PING = 0x9;
    /** Opcode 10: a pong. */
    public static final int PONG = 0xA;
    /** The RSV1 bit in {@link #rsv()}: set on the first frame of a compressed message (RFC 7692 6). */
    public static final int RSV1 = 0b100;

    private static final SecureRandom MASKS = new SecureRandom();

    /**
     * Checks the ranges (any combination of bits is allowed, only the numbers must fit the header).
     *
     * @param fin the FIN bit
     * @param rsv 0-7
     * @param opcode 0-15
     * @param payload the payload (not copied)
     */
    public WebSocketFrame {
        Objects.requireNonNull(payload, "payload");
        if (rsv < 0 || rsv > 7) throw new IllegalArgumentException("rsv must be 0-7, got " + rsv);
        if (opcode < 0 || opcode > 15) throw new IllegalArgumentException("opcode must be 0-15, got " + opcode);
    }

    /** @param text the text @return a final text frame carrying {@code text} as UTF-8 */
    public static WebSocketFrame text(String text) {
        return new WebSocketFrame(true, 0, TEXT, text.getBytes(StandardCharsets.UTF_8));
    }

    /** @param data the bytes @return a final binary frame */
    public static WebSocketFrame binary(byte[] data) {
        return new WebSocketFrame(true, 0, BINARY, data);
    }

    /** @param payload the ping's payload @return a ping */
    public static WebSocketFrame ping(byte[] payload) {
        return new WebSocketFrame(true, 0, PING, payload);
    }

    /** @param payload the pong's payload @return a pong */
    public static WebSocketFrame pong(byte[] payload) {
        return new WebSocketFrame(true, 0, PONG, payload);
    }

    /**
     * @param code the close code, written as two bytes whatever its value (so invalid codes can be sent)
     * @param reason the reason, sent as UTF-8
     * @return a close frame
     */
    public static WebSocketFrame close(int code, String reason) {
        byte[] r = reason.getBytes(StandardCharsets.UTF_8);
        byte[] p = new byte[2 + r.length];
        p[0] = (byte) (code >> 8);
        p[1] = (byte) code;
        System.arraycopy(r, 0, p, 2, r.length);
        return new WebSocketFrame(true, 0, CLOSE, p);
    }

    /** @return whether the opcode is a control opcode (8-15) */
    public boolean isControl() {
        return (opcode & 0x8) != 0;
    }

    /** @return the payload decoded as UTF-8 (malformed bytes replaced) */
    public String text() {
        return new String(payload, StandardCharsets.UTF_8);
    }

    /**
     * Encodes the frame for the wire with the shortest length encoding RFC 6455 5.2 allows.
     *
     * @param masked whether to mask the payload with a fresh random key (a client must; a server must not)
     * @return the frame's bytes
     */
    public byte[] encode(boolean masked) {
        byte[] key = null;
        if (masked) {
            key = new byte[4];
            MASKS.nextBytes(key);
        }
        return encode(key);
    }

    /**
     * Encodes the frame for the wire with the given masking key.
     *
     * @param maskKey four bytes, or null for an unmasked frame
     * @return the frame's bytes
     */
    public byte[] encode(byte[] maskKey) {
        if (maskKey != null && maskKey.length != 4) throw new IllegalArgumentException("a masking key has 4 bytes");
        ByteArrayOutputStream out = new ByteArrayOutputStream(payload.length + 14);
        out.write((fin ? 0x80 : 0) | rsv << 4 | opcode);
        int maskBit = maskKey == null ? 0 : 0x80;
        long n = payload.length;
        if (n < 126) {
            out.write(maskBit | (int) n);
        } else if (n < 65_536) {
            out.write(maskBit | 126);
            out.write((int) (n >> 8));
            out.write((int) n);
        } else {
            out.write(maskBit | 127);
            for (int shift = 56; shift >= 0; shift -= 8) out.write((int) (n >> shift));
        }
        if (maskKey == null) {
            out.writeBytes(payload);
        } else {
            out.writeBytes(maskKey);
            byte[] masked = new byte[payload.length];
            for (int i = 0; i < masked.length; i++) masked[i] = (byte) (payload[i] ^ maskKey[i & 3]);
            out.writeBytes(masked);
        }
        return out.toByteArray();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof WebSocketFrame f && f.fin == fin && f.rsv == rsv && f.opcode == opcode
                && Arrays.equals(f.payload, payload);
    }

    @Override
    public int hashCode() {
        return Objects.hash(fin, rsv, opcode, Arrays.hashCode(payload));
    }

    /** @return e.g. {@code TEXT fin rsv=0 5 bytes "hello"} */
    @Override
    public String toString() {
        String name = switch (opcode) {
            case CONTINUATION -> "CONTINUATION";
            case TEXT -> "TEXT";
            case BINARY -> "BINARY";
            case CLOSE -> "CLOSE";
            case PING -> "PING";
            case PONG -> "PONG";
            default -> "opcode " + opcode;
        };
        return name + (fin ? " fin" : " not-fin") + " rsv=" + rsv + " " + payload.length + " bytes "
                + HttpInput.preview(payload, 0, payload.length);
    }
}
