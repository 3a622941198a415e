package dev.tidemill.bench.cluster;

import io.netty.buffer.ByteBuf;
import io.netty.util.ByteProcessor;
import java.util.Locale;

/**
 * Reads one SSE response off the raw bytes of a connection, with no String per event: the response
 * head (status 200 and {@code text/event-stream} required), then the body, HTTP/1.1 chunked (RFC
 * 9112 7.1) when the head says so, and in it the event stream's lines. A {@code data:} line whose
 * value is {@code <seq> <nanos>} (the runner's publish: a sequence number and its
 * {@code System.nanoTime()} when it was sent) is an event; any other data line (a server's
 * {@code lost} notice) is reported as other; {@code id:}, {@code event:} and comments are skipped.
 * A head, chunk header, line or number may end in any buffer: the state carries over.
 */
final class SseReader implements ByteProcessor {
    /** What the reader reports. */
    interface Events {
        /** The head was accepted: events follow. */
        void ready();

        /** @param seq the message's sequence number @param nanos its send time */
        void event(long seq, long nanos);

        /** A data line that is not {@code <seq> <nanos>}. */
        void other();
    }

    private static final int MAX_HEAD = 8192, MAX_LINE = 128;
    // Framing states.
    private static final int HEAD = 0, SIZE = 1, EXTENSION = 2, CHUNK = 3, CHUNK_END = 4, IDENTITY = 5, ENDED = 6;

    private final Events to;
    private final StringBuilder head = new StringBuilder();
    private final byte[] line = new byte[MAX_LINE];
    private int lineLength;
    private boolean lineTooLong;
    private int framing = HEAD;
    private long chunkLeft;
    private int sizeDigits;

    /** @param to where events go */
    SseReader(Events to) {
        this.to = to;
    }

    /**
     * Consumes every readable byte of {@code b}.
     *
     * @throws IllegalStateException on a head that is not an event stream, or malformed framing
     */
    void read(ByteBuf b) {
        b.forEachByte(this);
        b.skipBytes(b.readableBytes());
    }

    @Override
    public boolean process(byte c) {
        switch (framing) {
            case HEAD -> head(c);
            case IDENTITY -> line(c);
            case CHUNK -> {
                line(c);
                if (--chunkLeft == 0) framing = CHUNK_END;
            }
            case SIZE -> {
                int digit = Character.digit(c, 16);
                if (digit >= 0) {
                    if (++sizeDigits > 15) throw new IllegalStateException("chunk size too long");
                    chunkLeft = chunkLeft << 4 | digit;
                } else if (c == ';' || c == ' ' || c == '\t') {
                    framing = EXTENSION;
                } else if (c == '\n') {
                    sizeDone();
                } else if (c != '\r') {
                    throw new IllegalStateException("malformed chunk size (byte " + (c & 0xff) + ")");
                }
            }
            case EXTENSION -> {
                if (c == '\n') sizeDone();
            }
            case CHUNK_END -> {
                if (c == '\n') framing = SIZE;
                else if (c != '\r') throw new IllegalStateException("chunk data longer than its size");
            }
            default -> { } // ENDED: nothing after the last chunk is an event
        }
        return true;
    }

    /** @return whether the server ended the stream (the terminal chunk arrived) */
    boolean ended() {
        return framing == ENDED;
    }

    private void sizeDone() {
        if (sizeDigits == 0) throw new IllegalStateException("chunk size missing");
        framing = chunkLeft == 0 ? ENDED : CHUNK;
        sizeDigits = 0;
    }

    private void head(byte c) {
        head.append((char) (c & 0xff));
        int n = head.length();
        if (n > MAX_HEAD) throw new IllegalStateException("response head longer than " + MAX_HEAD + " bytes");
        if (n < 4 || c != '\n' || head.charAt(n - 2) != '\r' || head.charAt(n - 3) != '\n' || head.charAt(n - 4) != '\r') return;
        String[] lines = head.toString().split("\r\n");
        String[] status = lines[0].split(" ", 3);
        String type = "", encoding = "";
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            if (colon <= 0) continue;
            String name = lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT), value = lines[i].substring(colon + 1).trim();
            if (name.equals("content-type")) type = value;
            if (name.equals("transfer-encoding")) encoding = value.toLowerCase(Locale.ROOT);
        }
        if (status.length < 2 || !status[1].equals("200") || !type.startsWith("text/event-stream")) {
            throw new IllegalStateException("GET of the stream answered " + lines[0] + " (" + type + ")");
        }
        framing = encoding.endsWith("chunked") ? SIZE : IDENTITY;
        head.setLength(0);
        to.ready();
    }

    private void line(byte c) {
        if (c != '\n' && c != '\r') {
            if (lineLength < MAX_LINE) line[lineLength++] = c;
            else lineTooLong = true;
            return;
        }
        if (lineLength > 0 || lineTooLong) dataLine();
        lineLength = 0;
        lineTooLong = false;
    }

    /** A complete line: an event when it is {@code data: <seq> <nanos>}. */
    private void dataLine() {
        if (lineLength < 5 || line[0] != 'd' || line[1] != 'a' || line[2] != 't' || line[3] != 'a' || line[4] != ':') return;
        if (lineTooLong) {
            to.other();
            return;
        }
        int i = 5;
        while (i < lineLength && line[i] == ' ') i++;
        long seq = 0, nanos = 0;
        int start = i;
        while (i < lineLength && line[i] >= '0' && line[i] <= '9' && i - start < 19) seq = seq * 10 + (line[i++] - '0');
        if (i == start || i >= lineLength || line[i] != ' ') {
            to.other();
            return;
        }
        boolean negative = ++i < lineLength && line[i] == '-'; // System.nanoTime() may be negative
        if (negative) i++;
        start = i;
        while (i < lineLength && line[i] >= '0' && line[i] <= '9' && i - start < 19) nanos = nanos * 10 + (line[i++] - '0');
        if (i == start || i != lineLength) {
            to.other();
            return;
        }
        to.event(seq, negative ? -nanos : nanos);
    }
}
