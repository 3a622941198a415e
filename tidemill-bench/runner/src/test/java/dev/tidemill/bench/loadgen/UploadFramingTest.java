package dev.tidemill.bench.loadgen;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The upload generator's bodies and framing, checked byte for byte against an independent parse. */
class UploadFramingTest {

    /** Every byte of a body, read through its cursor in pieces of odd sizes. */
    static byte[] whole(UploadBody body, int piece) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        UploadBody.Cursor c = body.open();
        byte[] buf = new byte[piece];
        for (int n = c.read(buf, 0, buf.length); n > 0; n = c.read(buf, 0, buf.length)) out.write(buf, 0, n);
        assertThat(c.read(buf, 0, buf.length)).isEqualTo(-1);
        return out.toByteArray();
    }

    static byte[] expectedFile(int size) {
        byte[] b = new byte[size];
        for (int i = 0; i < size; i++) b[i] = UploadBody.at(i);
        return b;
    }

    @Test
    void aRawBodyIsThePatternWhateverTheReadSize() {
        for (int size : new int[] {0, 1, 65_520, 65_521, 65_522, 200_003}) {
            for (int piece : new int[] {1, 7, 4096, 65_536}) {
                if (piece == 1 && size > 70_000) continue; // byte by byte is slow and proves nothing more
                byte[] got = whole(UploadBody.raw(size), piece);
                assertThat(got).as("size %d, pieces of %d", size, piece).isEqualTo(expectedFile(size));
            }
        }
        assertThat(UploadBody.raw(1024).contentType()).isEqualTo("application/octet-stream");
    }

    @Test
    void theFileBytesHoldEveryByteValueAndRepeatWithThePeriod() {
        byte[] twice = new byte[2 * UploadBody.PERIOD];
        UploadBody.fill(0, twice, 0, twice.length);
        assertThat(Arrays.copyOfRange(twice, UploadBody.PERIOD, twice.length)).isEqualTo(Arrays.copyOf(twice, UploadBody.PERIOD));
        boolean[] seen = new boolean[256];
        for (byte b : twice) seen[b & 0xff] = true;
        for (int v = 0; v < 256; v++) assertThat(seen[v]).as("byte %d", v).isTrue();
        byte[] at = new byte[100];
        UploadBody.fill(3L * UploadBody.PERIOD - 50, at, 0, at.length); // across a wrap
        for (int i = 0; i < at.length; i++) assertThat(at[i]).isEqualTo(UploadBody.at(3L * UploadBody.PERIOD - 50 + i));
    }

    @Test
    void theDelimiterCannotOccurInTheFileBytes() {
        // Any window of the repeating pattern lies within two periods, so this covers every file.
        byte[] twice = new byte[2 * UploadBody.PERIOD];
        UploadBody.fill(0, twice, 0, twice.length);
        byte[] delimiter = ("\r\n--" + UploadBody.BOUNDARY).getBytes(StandardCharsets.US_ASCII);
        assertThat(indexOf(twice, delimiter, 0)).isEqualTo(-1);
    }

    @Test
    void aMultipartBodyParsesToOneFilePartOfExactlyTheFileBytes() {
        for (int size : new int[] {0, 1, 1024, 200_003}) {
            UploadBody body = UploadBody.multipart(size);
            byte[] all = whole(body, 4093);
            assertThat((long) all.length).isEqualTo(body.length());
            assertThat(body.contentType()).isEqualTo("multipart/form-data; boundary=" + UploadBody.BOUNDARY);
            List<Part> parts = parse(all, UploadBody.BOUNDARY);
            assertThat(parts).hasSize(1);
            assertThat(parts.getFirst().headers()).contains("Content-Disposition: form-data; name=\"file\"; filename=\"upload.bin\"",
                    "Content-Type: application/octet-stream");
            assertThat(parts.getFirst().content()).as("size %d", size).isEqualTo(expectedFile(size));
        }
    }

    @Test
    void contentLengthFramingSendsTheHeadThenTheBody() throws Exception {
        UploadRequest r = new UploadRequest("PUT", "/upload/discard", UploadBody.raw(100_000), UploadRequest.Framing.CONTENT_LENGTH);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        r.write(out, "127.0.0.1:1", new byte[16_384]);
        byte[] wire = out.toByteArray();
        int end = indexOf(wire, "\r\n\r\n".getBytes(StandardCharsets.US_ASCII), 0) + 4;
        String head = new String(wire, 0, end, StandardCharsets.US_ASCII);
        assertThat(head).startsWith("PUT /upload/discard HTTP/1.1\r\n").contains("\r\nHost: 127.0.0.1:1\r\n", "\r\nContent-Length: 100000\r\n",
                "\r\nContent-Type: application/octet-stream\r\n").doesNotContain("Transfer-Encoding", "Expect");
        assertThat(Arrays.copyOfRange(wire, end, wire.length)).isEqualTo(expectedFile(100_000));
    }

    @Test
    void chunkedFramingDecodesToTheSameBodyInChunksOfTheScratchSize() throws Exception {
        UploadBody body = UploadBody.multipart(100_000);
        UploadRequest r = new UploadRequest("POST", "/multipart/disk", body, UploadRequest.Framing.CHUNKED);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        r.write(out, "h", new byte[16_384]);
        byte[] wire = out.toByteArray();
        int at = indexOf(wire, "\r\n\r\n".getBytes(StandardCharsets.US_ASCII), 0) + 4;
        String head = new String(wire, 0, at, StandardCharsets.US_ASCII);
        assertThat(head).contains("\r\nTransfer-Encoding: chunked\r\n").doesNotContain("Content-Length");
        ByteArrayOutputStream decoded = new ByteArrayOutputStream();
        List<Integer> sizes = new ArrayList<>();
        while (true) {
            int eol = indexOf(wire, new byte[] {'\r', '\n'}, at);
            int size = Integer.parseInt(new String(wire, at, eol - at, StandardCharsets.US_ASCII), 16);
            at = eol + 2;
            if (size == 0) break;
            sizes.add(size);
            decoded.write(wire, at, size);
            at += size;
            assertThat(new String(wire, at, 2, StandardCharsets.US_ASCII)).isEqualTo("\r\n");
            at += 2;
        }
        assertThat(new String(wire, at, wire.length - at, StandardCharsets.US_ASCII)).isEqualTo("\r\n"); // no trailers
        assertThat(decoded.toByteArray()).isEqualTo(whole(body, 65_536));
        assertThat(sizes).allMatch(s -> s <= 16_384);
        assertThat(sizes.subList(0, sizes.size() - 1)).allMatch(s -> s == 16_384);
    }

    /** One part as an independent parse sees it. */
    record Part(List<String> headers, byte[] content) {}

    /** A strict RFC 7578 parse of a whole body: preamble-free, each part up to the next delimiter, then the close delimiter. */
    static List<Part> parse(byte[] body, String boundary) {
        byte[] first = ("--" + boundary + "\r\n").getBytes(StandardCharsets.US_ASCII);
        byte[] delimiter = ("\r\n--" + boundary).getBytes(StandardCharsets.US_ASCII);
        assertThat(Arrays.copyOf(body, first.length)).isEqualTo(first);
        List<Part> parts = new ArrayList<>();
        int at = first.length;
        while (true) {
            int headEnd = indexOf(body, "\r\n\r\n".getBytes(StandardCharsets.US_ASCII), at);
            List<String> headers = List.of(new String(body, at, headEnd - at, StandardCharsets.US_ASCII).split("\r\n"));
            int contentStart = headEnd + 4;
            int next = indexOf(body, delimiter, contentStart);
            assertThat(next).as("a delimiter after the part").isPositive();
            parts.add(new Part(headers, Arrays.copyOfRange(body, contentStart, next)));
            at = next + delimiter.length;
            String after = new String(body, at, 2, StandardCharsets.US_ASCII);
            if (after.equals("--")) {
                assertThat(new String(body, at, body.length - at, StandardCharsets.US_ASCII)).isEqualTo("--\r\n");
                return parts;
            }
            assertThat(after).isEqualTo("\r\n");
            at += 2;
        }
    }

    static int indexOf(byte[] hay, byte[] needle, int from) {
        outer:
        for (int i = from; i <= hay.length - needle.length; i++) {
            for (int j = 0; j < needle.length; j++) if (hay[i + j] != needle[j]) continue outer;
            return i;
        }
        return -1;
    }
}
