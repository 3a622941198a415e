package dev.tidemill.bench.streams;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The fan-out client's reading of an SSE body: chunked framing, lines, and the event's two numbers. */
class SseStreamReaderTest {
    private final List<String> seen = new ArrayList<>();

    private SseStreamReader reader(boolean chunked) {
        return new SseStreamReader(chunked, new SseStreamReader.Events() {
            @Override
            public void event(long seq, long publishNanos) {
                seen.add(seq + "@" + publishNanos);
            }

            @Override
            public void other() {
                seen.add("other");
            }
        });
    }

    /** @return the body chunked, one chunk per piece, with an extension on the first */
    private static String chunked(String... pieces) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < pieces.length; i++) {
            b.append(Integer.toHexString(pieces[i].length())).append(i == 0 ? ";ext=1" : "").append("\r\n").append(pieces[i]).append("\r\n");
        }
        return b.toString();
    }

    private void feed(SseStreamReader r, String bytes, int step) {
        byte[] all = bytes.getBytes(StandardCharsets.US_ASCII);
        for (int i = 0; i < all.length; i += step) {
            ByteBuf piece = Unpooled.wrappedBuffer(all, i, Math.min(step, all.length - i));
            r.read(piece);
            assertThat(piece.isReadable()).isFalse();
        }
    }

    @Test
    void eventsSplitAcrossChunksAndBuffersAnywhereAreEachReadOnce() {
        // Events cut mid-line by a chunk boundary, a CRLF event, a negative time, an id line and a comment.
        String body = chunked("id: 1\ndata: 1 123456789012\n\nid: 2\ndata: 2 -5", "\n\n: keep-alive\n\ndata: 3 7\r\n\r\ndata",
                ": 4 99\n\n") + "0\r\n\r\n";
        for (int step = 1; step <= body.length(); step++) {
            seen.clear();
            SseStreamReader r = reader(true);
            feed(r, body, step);
            assertThat(seen).as("in pieces of %d bytes", step).containsExactly("1@123456789012", "2@-5", "3@7", "4@99");
            assertThat(r.ended()).isTrue();
        }
    }

    @Test
    void anUnchunkedBodyIsTheEventStreamItself() {
        String body = "data: 10 20\n\ndata: 11 21\n\n";
        for (int step : new int[] {1, 4, body.length()}) {
            seen.clear();
            SseStreamReader r = reader(false);
            feed(r, body, step);
            assertThat(seen).containsExactly("10@20", "11@21");
            assertThat(r.ended()).isFalse();
        }
    }

    @Test
    void anyOtherDataLineIsAnotherEvent() {
        SseStreamReader r = reader(false);
        feed(r, "data: 3 dropped: this client fell behind\ndata: 42\ndata: \ndata: x 1\ndata: 1 99999999999999999999\n"
                + "data: 1  5\ndata: 1 -\n", 3);
        assertThat(seen).containsExactly("other", "other", "other", "other", "other", "other", "other");
    }

    @Test
    void linesThatAreNotDataAreSkipped() {
        SseStreamReader r = reader(false);
        feed(r, "dat\nevent: data: 1 2\nid: 7\nretry: 10\n:data: 1 2\ndata: 5 6\n", 1);
        assertThat(seen).containsExactly("5@6");
    }

    @Test
    void aMalformedChunkSizeFailsTheConnection() {
        assertThatThrownBy(() -> reader(true).read(Unpooled.copiedBuffer("zz\r\n", StandardCharsets.US_ASCII)))
                .hasMessageContaining("chunk size");
        assertThatThrownBy(() -> reader(true).read(Unpooled.copiedBuffer("2\r\nabc\r\n", StandardCharsets.US_ASCII)))
                .hasMessageContaining("longer than its size");
    }
}
