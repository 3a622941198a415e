package dev.tidemill.bench.streams;

import io.netty.buffer.ByteBuf;

/**
 * Reads a server's WebSocket frames (RFC 6455 5.2) off raw bytes by their header lengths alone:
 * the 7-bit, 16-bit (126) and 64-bit (127) length forms, fragments joined into messages, control
 * frames told apart; of a message's payload only its first 8 bytes are read (the send time the
 * echo client put there), the rest is counted and skipped, never copied. A header, a length or
 * those 8 bytes may end in any buffer: the state carries over. Frames from a server must not be
 * masked (5.1); one that is fails the connection, as it does in Netty's decoder.
 */
final class WsFrameReader {
    /** What the reader reports. */
    interface Messages {
        /**
         * @param opcode of the message's first frame (1 text, 2 binary)
         * @param length payload bytes over all its fragments
         * @param stamp its first 8 payload bytes, big-endian (0 if it had fewer)
         * @param stamped whether it had 8 bytes
         */
        void message(int opcode, long length, long stamp, boolean stamped);

        /** @param opcode a control frame's (8 close, 9 ping, 10 pong), its payload skipped */
        void control(int opcode);
    }

    private static final int FIRST = 0, SECOND = 1, LENGTH = 2, PAYLOAD = 3;

    private final long maxMessage;
    private final Messages to;
    private int state = FIRST;
    private int first;
    private int lengthBytes;
    private long remaining;
    private boolean control;
    // The message being assembled (fragments, interleaved control frames aside).
    private int messageOpcode = -1;
    private long messageLength;
    private long stamp;
    private int stampBytes;

    /**
     * @param maxMessage the largest message accepted, bytes
     * @param to where messages go
     */
    WsFrameReader(long maxMessage, Messages to) {
        this.maxMessage = maxMessage;
        this.to = to;
    }

    /**
     * Consumes every readable byte of {@code b} (its reader index moves to its writer index).
     *
     * @throws IllegalStateException on a masked frame, a reserved opcode, a fragment out of place or
     *     a message above the maximum
     */
    void read(ByteBuf b) {
        int i = b.readerIndex(), end = b.writerIndex();
        while (i < end) {
            switch (state) {
                case FIRST -> {
                    first = b.getByte(i++) & 0xff;
                    state = SECOND;
                }
                case SECOND -> {
                    int second = b.getByte(i++) & 0xff;
                    if ((second & 0x80) != 0) throw new IllegalStateException("a server frame is masked (RFC 6455 5.1)");
                    int len = second & 0x7f;
                    remaining = 0;
                    if (len == 126) {
                        lengthBytes = 2;
                        state = LENGTH;
                    } else if (len == 127) {
                        lengthBytes = 8;
                        state = LENGTH;
                    } else {
                        remaining = len;
                        headerDone();
                    }
                }
                case LENGTH -> {
                    remaining = remaining << 8 | (b.getByte(i++) & 0xff);
                    if (--lengthBytes == 0) {
                        if (remaining < 0) throw new IllegalStateException("64-bit frame length with its top bit set");
                        headerDone();
                    }
                }
                default -> {
                    int n = (int) Math.min(remaining, end - i);
                    if (!control) {
                        while (stampBytes < Long.BYTES && n > 0) {
                            stamp = stamp << 8 | (b.getByte(i++) & 0xff);
                            stampBytes++;
                            n--;
                            remaining--;
                        }
                    }
                    i += n;
                    remaining -= n;
                    if (remaining == 0) frameDone();
                }
            }
        }
        b.readerIndex(end);
    }

    private void headerDone() {
        int opcode = first & 0x0f;
        control = (opcode & 0x08) != 0;
        if (control) {
            if (remaining > 125 || (first & 0x80) == 0) throw new IllegalStateException("malformed control frame");
        } else {
            if (opcode > 2) throw new IllegalStateException("reserved opcode " + opcode);
            if (opcode == 0 && messageOpcode < 0) throw new IllegalStateException("continuation without a message");
            if (opcode != 0 && messageOpcode >= 0) throw new IllegalStateException("new message inside a fragmented one");
            if (opcode != 0) messageOpcode = opcode;
            messageLength += remaining;
            if (messageLength > maxMessage) throw new IllegalStateException("message above " + maxMessage + " bytes");
        }
        if (remaining == 0) frameDone();
        else state = PAYLOAD;
    }

    private void frameDone() {
        state = FIRST;
        if (control) {
            to.control(first & 0x0f);
        } else if ((first & 0x80) != 0) {
            int opcode = messageOpcode;
            long length = messageLength, s = stampBytes == Long.BYTES ? stamp : 0;
            boolean stamped = stampBytes == Long.BYTES;
            messageOpcode = -1;
            messageLength = 0;
            stamp = 0;
            stampBytes = 0;
            to.message(opcode, length, s, stamped);
        }
    }
}
