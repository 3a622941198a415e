package dev.tidemill.bench.streams;

import io.netty.buffer.ByteBuf;
import io.netty.util.ByteProcessor;

/**
 * Reads an SSE response body off raw bytes with no String, slice or buffer per event: the
 * HTTP/1.1 chunked framing (RFC 9112 7.1) when the head says so, and inside it the event stream's
 * lines (LF or CRLF), each {@code data:} line's value parsed digit by digit as its bytes arrive as
 * {@code <seq> <publishNanos>} (1 to 19 digits each, the time possibly negative: System.nanoTime()
 * may be). Any other data line is reported as another event; {@code id:}, {@code event:} and
 * comment lines are skipped. A chunk header, a line or a number may end in any buffer: the state
 * carries over. A reader made with a prefix and a suffix expects them around the two numbers
 * ({@code data: elements <div id="tick">SEQ NANOS</div>}, the Datastar fan-out), byte for byte.
 * It can also keep the first bytes of the event stream ({@link #keepFirst}), so a caller can check
 * one event's exact bytes.
 */
final class SseStreamReader {
    /** What the reader reports. */
    interface Events {
        /** @param seq the event's sequence number @param publishNanos the send time it carries */
        void event(long seq, long publishNanos);

        /** A data line that is not {@code <seq> <publishNanos>} (a server's "lost" notice). */
        void other();
    }

    private static final byte[] DATA = {'d', 'a', 't', 'a', ':'};
    // Chunked framing states.
    private static final int SIZE = 0, EXTENSION = 1, CHUNK = 2, CHUNK_END = 3, ENDED = 4, IDENTITY = 5;
    // Line states.
    private static final int START = 0, SKIP = 1, SPACES = 2, SEQ = 3, NANOS = 4, BAD = 5, PREFIX = 6, SUFFIX = 7, END = 8;

    private final Events to;
    private final byte[] prefix;
    private final byte[] suffix;
    private final Lines lines = new Lines();
    private byte[] first = new byte[0];
    private int firstLength;
    private int framing;
    private long chunkSize;
    private int chunkDigits;

    /**
     * @param chunked whether the body is chunked (else every byte is the event stream)
     * @param to where events go
     */
    SseStreamReader(boolean chunked, Events to) {
        this(chunked, to, "", "");
    }

    /**
     * @param chunked whether the body is chunked
     * @param to where events go
     * @param prefix what each event's data value holds before {@code <seq> <nanos>} (ASCII)
     * @param suffix what it holds after them (ASCII)
     */
    SseStreamReader(boolean chunked, Events to, String prefix, String suffix) {
        this.framing = chunked ? SIZE : IDENTITY;
        this.to = to;
        this.prefix = prefix.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        this.suffix = suffix.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    }

    /** @param n keep the first n bytes of the event stream (after the chunked framing) */
    void keepFirst(int n) {
        first = new byte[n];
        firstLength = 0;
    }

    /** @return the first bytes of the event stream kept so far */
    byte[] first() {
        return java.util.Arrays.copyOf(first, firstLength);
    }

    /** @return whether the terminal chunk has arrived (the server ended the stream) */
    boolean ended() {
        return framing == ENDED;
    }

    /**
     * Consumes every readable byte of {@code b} (its reader index moves to its writer index).
     *
     * @throws IllegalStateException on a malformed chunk header
     */
    void read(ByteBuf b) {
        int i = b.readerIndex(), end = b.writerIndex();
        while (i < end) {
            switch (framing) {
                case IDENTITY -> {
                    b.forEachByte(i, end - i, lines);
                    i = end;
                }
                case CHUNK -> {
                    int n = (int) Math.min(chunkSize, end - i);
                    b.forEachByte(i, n, lines);
                    i += n;
                    chunkSize -= n;
                    if (chunkSize == 0) framing = CHUNK_END;
                }
                case SIZE -> {
                    byte c = b.getByte(i++);
                    int digit = Character.digit(c, 16);
                    if (digit >= 0) {
                        if (++chunkDigits > 15) throw new IllegalStateException("chunk size too long");
                        chunkSize = chunkSize << 4 | digit;
                    } else if (c == ';' || c == ' ' || c == '\t') {
                        framing = EXTENSION;
                    } else if (c == '\n') {
                        sizeDone();
                    } else if (c != '\r') {
                        throw new IllegalStateException("malformed chunk size (byte " + (c & 0xff) + ")");
                    }
                }
                case EXTENSION -> {
                    if (b.getByte(i++) == '\n') sizeDone();
                }
                case CHUNK_END -> {
                    byte c = b.getByte(i++);
                    if (c == '\n') framing = SIZE;
                    else if (c != '\r') throw new IllegalStateException("chunk data longer than its size");
                }
                default -> i = end; // ENDED: trailers and anything after are not events
            }
        }
        b.readerIndex(end);
    }

    private void sizeDone() {
        if (chunkDigits == 0) throw new IllegalStateException("chunk size missing");
        framing = chunkSize == 0 ? ENDED : CHUNK;
        chunkDigits = 0;
    }

    /** The event stream's lines, one byte at a time (driven by {@link ByteBuf#forEachByte}). */
    private final class Lines implements ByteProcessor {
        private int state = START;
        private int matched;
        private int digits;
        private boolean negative;
        private long seq;
        private long nanos;

        @Override
        public boolean process(byte c) {
            if (firstLength < first.length) first[firstLength++] = c;
            return line(c);
        }

        private boolean line(byte c) {
            boolean eol = c == '\n' || c == '\r';
            switch (state) {
                case START -> {
                    if (eol) {
                        matched = 0;
                        return true;
                    }
                    if (c != DATA[matched]) {
                        state = SKIP;
                    } else if (++matched == DATA.length) {
                        state = SPACES;
                    }
                    if (state != START) matched = 0;
                }
                case SKIP -> {
                    if (eol) state = START;
                }
                case SPACES -> {
                    if (c == ' ') return true;
                    seq = 0;
                    digits = 0;
                    matched = 0;
                    state = prefix.length > 0 ? PREFIX : SEQ;
                    return line(c);
                }
                case PREFIX -> {
                    if (c == prefix[matched]) {
                        if (++matched == prefix.length) {
                            matched = 0;
                            state = SEQ;
                        }
                    } else {
                        matched = 0;
                        bad(eol);
                    }
                }
                case SUFFIX -> {
                    if (c == suffix[matched]) {
                        if (++matched == suffix.length) {
                            matched = 0;
                            state = END;
                        }
                    } else {
                        matched = 0;
                        bad(eol);
                    }
                }
                case END -> {
                    if (eol) {
                        state = START;
                        to.event(seq, negative ? -nanos : nanos);
                    } else {
                        bad(false);
                    }
                }
                case SEQ -> {
                    if (c >= '0' && c <= '9' && digits < 19) {
                        seq = seq * 10 + (c - '0');
                        digits++;
                    } else if (c == ' ' && digits > 0) {
                        nanos = 0;
                        digits = 0;
                        negative = false;
                        state = NANOS;
                    } else {
                        bad(eol);
                    }
                }
                case NANOS -> {
                    if (c >= '0' && c <= '9' && digits < 19) {
                        nanos = nanos * 10 + (c - '0');
                        digits++;
                    } else if (c == '-' && digits == 0 && !negative) {
                        negative = true;
                    } else if (eol && digits > 0 && suffix.length == 0) {
                        state = START;
                        to.event(seq, negative ? -nanos : nanos);
                    } else if (digits > 0 && suffix.length > 0 && c == suffix[0]) {
                        matched = 1;
                        state = suffix.length == 1 ? END : SUFFIX;
                        if (state == END) matched = 0;
                    } else {
                        bad(eol);
                    }
                }
                default -> { // BAD: the rest of a data line that is not an event
                    if (eol) {
                        state = START;
                        to.other();
                    }
                }
            }
            return true;
        }

        private void bad(boolean eol) {
            if (eol) {
                state = START;
                to.other();
            } else {
                state = BAD;
            }
        }
    }
}
