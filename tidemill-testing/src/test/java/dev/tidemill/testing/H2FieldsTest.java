package dev.tidemill.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The raw HTTP/2 client's header fields on their own: HPACK integers and literal blocks byte for
 * byte against RFC 7541, and a connection's encoder and decoder reading each other's blocks.
 */
class H2FieldsTest {

    @Test
    void integersAreEncodedAsRfc7541AppendixC1() {
        assertThat(integer(0, 5, 10)).containsExactly(0x0a); // C.1.1
        assertThat(integer(0, 5, 1337)).containsExactly(0x1f, 0x9a, 0x0a); // C.1.2
        assertThat(integer(0, 8, 42)).containsExactly(0x2a); // C.1.3
        assertThat(integer(0x80, 7, 127)).containsExactly(0xff, 0x00); // the prefix full: a zero continuation octet
    }

    @Test
    void aLiteralBlockKeepsNamesValuesAndOrderAsGiven() {
        byte[] block = H2Fields.literal("custom-key", "custom-header");
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        expected.write(0x00); // literal without indexing, new name (RFC 7541 6.2.2)
        expected.write(10);
        expected.writeBytes("custom-key".getBytes(StandardCharsets.US_ASCII));
        expected.write(13);
        expected.writeBytes("custom-header".getBytes(StandardCharsets.US_ASCII));
        assertThat(block).isEqualTo(expected.toByteArray());
        // any order, a pseudo-header field after a regular one included: the block decodes, values in order
        byte[] unordered = H2Fields.literal("x-first", "1", ":path", "/late", "x-first", "2");
        assertThat(unordered[1]).isEqualTo((byte) 7); // "x-first" is written first
        Map<String, List<String>> decoded = new H2Hpack().decode(unordered);
        assertThat(decoded).containsOnlyKeys("x-first", ":path").containsEntry(":path", List.of("/late"));
        assertThat(decoded.get("x-first")).containsExactly("1", "2");
    }

    @Test
    void oneConnectionsEncoderAndAnothersDecoderAgreeAcrossTheirDynamicTables() {
        H2Hpack client = new H2Hpack(), server = new H2Hpack();
        String[] fields = H2Fields.with(H2Fields.get("/items/7"), "x-trace", "abc");
        assertThat(fields).containsExactly(":method", "GET", ":scheme", "http", ":path", "/items/7", ":authority", "127.0.0.1",
                "x-trace", "abc");
        byte[] first = client.encode(fields), second = client.encode(fields);
        assertThat(second.length).as("the second block refers to the table the first one filled").isLessThan(first.length);
        for (byte[] block : List.of(first, second)) {
            Map<String, List<String>> decoded = server.decode(block);
            assertThat(decoded).containsEntry(":path", List.of("/items/7")).containsEntry("x-trace", List.of("abc"));
        }
        assertThatThrownBy(() -> new H2Hpack().decode(new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0x7f}))
                .isInstanceOf(AssertionError.class).hasMessageContaining("does not decode");
    }

    private static int[] integer(int firstBits, int prefix, long value) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        H2Fields.integer(b, firstBits, prefix, value);
        byte[] bytes = b.toByteArray();
        int[] r = new int[bytes.length];
        for (int i = 0; i < bytes.length; i++) r[i] = bytes[i] & 0xff;
        return r;
    }
}
