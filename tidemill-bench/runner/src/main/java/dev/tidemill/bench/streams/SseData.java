package dev.tidemill.bench.streams;

import io.netty.buffer.ByteBuf;

/** Parses the value of a fan-out event's {@code data:} line: {@code <seq> <publishNanos>}. */
final class SseData {
    private SseData() {}

    /**
     * @param b the line (without its line break)
     * @param from index just after {@code data:}
     * @param to end of the line
     * @return {seq, publishNanos}, or null if the value is not two decimal numbers
     */
    static long[] parse(ByteBuf b, int from, int to) {
        int i = from;
        while (i < to && b.getByte(i) == ' ') i++;
        long seq = 0, nanos = 0;
        int digits = 0;
        for (; i < to && b.getByte(i) != ' '; i++, digits++) {
            byte c = b.getByte(i);
            if (c < '0' || c > '9' || digits > 18) return null;
            seq = seq * 10 + (c - '0');
        }
        if (digits == 0 || i >= to) return null;
        i++;
        boolean negative = i < to && b.getByte(i) == '-'; // System.nanoTime() may be negative
        if (negative) i++;
        digits = 0;
        for (; i < to; i++, digits++) {
            byte c = b.getByte(i);
            if (c < '0' || c > '9' || digits > 18) return null;
            nanos = nanos * 10 + (c - '0');
        }
        if (digits == 0) return null;
        return new long[] {seq, negative ? -nanos : nanos};
    }
}
