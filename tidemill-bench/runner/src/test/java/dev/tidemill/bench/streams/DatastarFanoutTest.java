package dev.tidemill.bench.streams;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.bench.common.StreamContract;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The Datastar fan-out: the client reads the numbers inside the fragment, and the first event's bytes are checked. */
class DatastarFanoutTest {
    private final List<String> seen = new ArrayList<>();

    private SseStreamReader reader() {
        return new SseStreamReader(false, new SseStreamReader.Events() {
            @Override
            public void event(long seq, long publishNanos) {
                seen.add(seq + "@" + publishNanos);
            }

            @Override
            public void other() {
                seen.add("other");
            }
        }, "elements " + StreamContract.FRAGMENT_PREFIX, StreamContract.FRAGMENT_SUFFIX);
    }

    @Test
    void theNumbersInsideTheFragmentAreReadWhereverTheBuffersSplit() {
        String stream = ": hello\n\n" + StreamContract.datastarEvent("1 123456789") + StreamContract.datastarEvent("2 -42")
                + "event: datastar-patch-elements\ndata: elements <div id=\"tock\">3 5</div>\n\n"
                + "event: datastar-patch-elements\ndata: elements <div id=\"tick\">4 5</span>\n\n"
                + "event: datastar-patch-elements\ndata: elements <div id=\"tick\">5 7</div> and more\n\n"
                + "event:datastar-patch-elements\ndata:elements <div id=\"tick\">6 8</div>\n\n";
        byte[] all = stream.getBytes(StandardCharsets.US_ASCII);
        for (int step : new int[] {1, 3, 7, all.length}) {
            seen.clear();
            SseStreamReader r = reader();
            for (int i = 0; i < all.length; i += step) r.read(Unpooled.wrappedBuffer(all, i, Math.min(step, all.length - i)));
            assertThat(seen).as("step %d", step).containsExactly("1@123456789", "2@-42", "other", "other", "other", "6@8");
        }
    }

    @Test
    void theFirstBytesOfTheStreamAreKept() {
        SseStreamReader r = reader();
        r.keepFirst(16);
        r.read(Unpooled.wrappedBuffer(StreamContract.datastarEvent("1 2").getBytes(StandardCharsets.US_ASCII)));
        assertThat(new String(r.first(), StandardCharsets.US_ASCII)).isEqualTo("event: datastar-");
    }

    @Test
    void theContractsBytesPassAndEveryOtherFormIsNamed() {
        byte[] exact = (StreamContract.datastarEvent("1 99") + StreamContract.datastarEvent("2 100")).getBytes(StandardCharsets.UTF_8);
        assertThat(StreamsRows.datastarBytesProblem(exact)).isEmpty();
        assertThat(StreamsRows.datastarBytesProblem((":subscribed\n\n" + StreamContract.datastarEvent("1 99"))
                .getBytes(StandardCharsets.UTF_8))).isEmpty();
        assertThat(StreamsRows.datastarBytesProblem(
                "event: datastar-patch-elements\nid: 2001\ndata: elements <div id=\"tick\">1 99</div>\n\n".getBytes(StandardCharsets.UTF_8)))
                .hasValue(StreamsRows.ADDS_ID + " (9 bytes more per event)");
        assertThat(StreamsRows.datastarBytesProblem(
                "event:datastar-patch-elements\ndata:elements <div id=\"tick\">1 99</div>\n\n".getBytes(StandardCharsets.UTF_8)))
                .get().asString().startsWith("first event differs from the contract's bytes: 'event:datastar");
        assertThat(StreamsRows.datastarBytesProblem(new byte[0])).isPresent();
    }

    @Test
    void everyTargetSendsTheSameEventText() {
        assertThat(StreamContract.datastarEvent("7 8"))
                .isEqualTo("event: datastar-patch-elements\ndata: elements <div id=\"tick\">7 8</div>\n\n");
    }

    @Test
    void benchLiveIsTheDatastarRowAlone() {
        StreamsSettings s = StreamsSettings.parseLive(List.of());
        assertThat(s.scenarios()).containsExactly("datastar");
        assertThat(s.datastarSubscribers()).isEqualTo(5_000);
        assertThat(s.datastarRate()).isEqualTo(2);
        assertThat(s.suite()).isEqualTo("live");
        assertThat(s.maxConnections()).isGreaterThanOrEqualTo(5_000);
        assertThat(StreamsSettings.parseLive(List.of("--quick")).suite()).isEqualTo("live-quick");
        assertThat(StreamsSettings.parse(List.of()).suite()).isEqualTo("streams");
        assertThat(StreamsSettings.parse(List.of()).scenarios()).doesNotContain("datastar");
    }
}
