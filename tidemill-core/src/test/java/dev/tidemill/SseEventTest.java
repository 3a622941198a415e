package dev.tidemill;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Encoding of one event, checked against the WHATWG event-stream parsing algorithm written out here. */
class SseEventTest {

    /** What a browser's EventSource dispatches: type, data, last event id. */
    record Dispatched(String type, String data, String lastId) { }

    /** The "interpret an event stream" algorithm of the HTML standard, 9.2.6, for a whole stream. */
    static List<Dispatched> parse(String stream) {
        List<Dispatched> out = new ArrayList<>();
        StringBuilder data = new StringBuilder();
        String type = "";
        String lastId = "";
        List<String> lines = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < stream.length(); i++) {
            char c = stream.charAt(i);
            if (c == '\r' || c == '\n') {
                lines.add(stream.substring(start, i));
                if (c == '\r' && i + 1 < stream.length() && stream.charAt(i + 1) == '\n') i++;
                start = i + 1;
            }
        }
        for (String line : lines) {
            if (line.isEmpty()) {
                if (data.length() > 0) {
                    String d = data.substring(0, data.length() - 1);
                    out.add(new Dispatched(type.isEmpty() ? "message" : type, d, lastId));
                }
                data.setLength(0);
                type = "";
                continue;
            }
            if (line.startsWith(":")) continue;
            int colon = line.indexOf(':');
            String field = colon < 0 ? line : line.substring(0, colon);
            String value = colon < 0 ? "" : line.substring(colon + 1);
            if (value.startsWith(" ")) value = value.substring(1);
            switch (field) {
                case "event" -> type = value;
                case "data" -> data.append(value).append('\n');
                case "id" -> {
                    if (value.indexOf('\0') < 0) lastId = value;
                }
                default -> { }
            }
        }
        return out;
    }

    @Test
    void anEventWithEveryField() {
        SseEvent e = SseEvent.data("hello").event("greeting").id("7").retry(Duration.ofSeconds(3));
        assertThat(e.encode()).isEqualTo("event: greeting\nid: 7\nretry: 3000\ndata: hello\n\n");
        assertThat(parse(e.encode())).containsExactly(new Dispatched("greeting", "hello", "7"));
    }

    @Test
    void dataIsSplitOnCrLfAndCrlfSoNoPayloadCanEndTheEventOrAddAField() {
        String hostile = "one\r\ntwo\rthree\nfour\n\nevent: forged\nid: 666\r\n\r\ndata: injected";
        String wire = SseEvent.data(hostile).encode();
        assertThat(wire).startsWith("data: one\ndata: two\ndata: three\ndata: four\ndata: \ndata: event: forged\n");
        List<Dispatched> got = parse(wire + SseEvent.data("next").encode());
        // Line breaks come back as LF (the standard has no way to carry CR); nothing else changes.
        assertThat(got).containsExactly(new Dispatched("message", hostile.replace("\r\n", "\n").replace('\r', '\n'), ""),
                new Dispatched("message", "next", ""));
    }

    @Test
    void leadingSpacesAndColonsInDataSurvive() {
        for (String d : List.of(" lead", "  two", ":colon", "", "trailing\n", "\n", "a:b")) {
            assertThat(parse(SseEvent.data(d).encode())).as("'%s'", d).containsExactly(new Dispatched("message", d, ""));
        }
    }

    @Test
    void randomPayloadsRoundTrip() {
        Random r = new Random(42);
        char[] alphabet = {'a', ' ', ':', '\r', '\n', 'é', '\u2028', '\0', 'x', '\t'};
        for (int n = 0; n < 2_000; n++) {
            StringBuilder b = new StringBuilder();
            for (int i = r.nextInt(20); i > 0; i--) b.append(alphabet[r.nextInt(alphabet.length)]);
            String d = b.toString();
            String expected = d.replace("\r\n", "\n").replace('\r', '\n');
            assertThat(parse(SseEvent.data(d).event("t").id("i").encode())).as("%s", d.codePoints().boxed().toList())
                    .containsExactly(new Dispatched("t", expected, "i"));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"a\nb", "a\rb", "a\r\nb", "a\u0000b", "\n"})
    void eventNamesAndIdsWithALineBreakOrNulAreRefused(String value) {
        assertThatThrownBy(() -> SseEvent.data("x").event(value)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("SSE event must not contain CR, LF or NUL");
        assertThatThrownBy(() -> SseEvent.data("x").id(value)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("SSE id must not contain");
    }

    @Test
    void commentsAreIgnoredByClientsAndCannotBreakOut() {
        String wire = SseEvent.comment("ping\ndata: forged").encode();
        assertThat(wire).isEqualTo(": ping\n: data: forged\n\n");
        assertThat(parse(wire)).isEmpty();
    }

    @Test
    void retryMustNotBeNegative() {
        assertThatThrownBy(() -> SseEvent.data("x").retry(Duration.ofMillis(-1))).hasMessageContaining("negative");
    }
}
