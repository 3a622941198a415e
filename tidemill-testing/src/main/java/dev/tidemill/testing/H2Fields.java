package dev.tidemill.testing;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Header fields for {@link H2Wire}'s raw HTTP/2 frames: request fields to send, and header blocks
 * written byte by byte (RFC 7541), for the blocks Netty's encoder ({@link H2Wire#hpack}) would not
 * write: fields in an order of the test's choosing, names and values it would refuse, integers at
 * their limits.
 */
public final class H2Fields {
    private H2Fields() {}

    /** @return the fields of a GET request ({@code :method}, {@code :scheme}, {@code :path}, {@code :authority}) */
    public static String[] get(String path) {
        return new String[] {":method", "GET", ":scheme", "http", ":path", path, ":authority", "127.0.0.1"};
    }

    /** @return the given fields followed by more */
    public static String[] with(String[] fields, String... more) {
        String[] r = Arrays.copyOf(fields, fields.length + more.length);
        System.arraycopy(more, 0, r, fields.length, more.length);
        return r;
    }

    /**
     * @param nameValues name, value, ... in the order to send them
     * @return a header block of "literal header field without indexing, new name" representations
     *     (RFC 7541 6.2.2), no Huffman: any names and values, in this order
     */
    public static byte[] literal(String... nameValues) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        for (int i = 0; i + 1 < nameValues.length; i += 2) {
            b.write(0);
            string(b, nameValues[i].getBytes(StandardCharsets.ISO_8859_1));
            string(b, nameValues[i + 1].getBytes(StandardCharsets.ISO_8859_1));
        }
        return b.toByteArray();
    }

    /** Writes an HPACK integer (RFC 7541 5.1) with the given first-octet bits and prefix size. */
    public static void integer(ByteArrayOutputStream b, int firstBits, int prefix, long value) {
        long max = (1L << prefix) - 1;
        if (value < max) {
            b.write((int) (firstBits | value));
            return;
        }
        b.write((int) (firstBits | max));
        value -= max;
        while (value >= 128) {
            b.write((int) (value % 128 + 128));
            value /= 128;
        }
        b.write((int) value);
    }

    /** A string literal (RFC 7541 5.2), not Huffman-coded. */
    private static void string(ByteArrayOutputStream b, byte[] s) {
        integer(b, 0, 7, s.length);
        b.writeBytes(s);
    }
}
