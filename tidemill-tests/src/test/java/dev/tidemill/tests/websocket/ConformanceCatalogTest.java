package dev.tidemill.tests.websocket;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The conformance suite's own bookkeeping: every row names a source and has a unique id, the
 * suite has at least 150 cases (the count per section is printed), and the
 * UTF-8 facts of section 6 agree with the JDK's strict decoder.
 */
class ConformanceCatalogTest {
    /** Every table of frame-level cases. */
    static Stream<WsCase> frameCases() {
        return Stream.of(FramingTest.cases(), PingPongTest.cases(), ReservedBitsAndOpcodesTest.cases(), FragmentationTest.cases(),
                Utf8Test.cases(), CloseHandshakeTest.cases(), LimitsTest.cases(), PerMessageDeflateTest.cases(),
                ExecutionModesConformanceTest.cases()).flatMap(s -> s);
    }

    @Test
    void everyCaseHasASourceAndAUniqueId() {
        Set<String> ids = new HashSet<>();
        for (WsCase c : frameCases().toList()) {
            assertThat(c.source()).as(c.id()).isNotBlank();
            assertThat(c.name()).as(c.id()).isNotBlank();
            assertThat(ids.add(c.id())).as("duplicate id %s", c.id()).isTrue();
        }
        for (HandshakeCase c : HandshakeTest.cases().toList()) {
            assertThat(c.source()).as(c.id()).isNotBlank();
            assertThat(ids.add(c.id())).as("duplicate id %s", c.id()).isTrue();
        }
    }

    @Test
    void theSuiteHasAtLeast150Cases() {
        Map<String, Integer> perSection = new TreeMap<>();
        frameCases().forEach(c -> perSection.merge(c.section(), 1, Integer::sum));
        perSection.put(HandshakeCase.SECTION, (int) HandshakeTest.cases().count());
        int total = perSection.values().stream().mapToInt(Integer::intValue).sum();
        List<String> lines = new ArrayList<>();
        perSection.forEach((k, v) -> lines.add(String.format("  %-40s %4d", k, v)));
        System.out.println("WebSocket conformance suite: " + total + " cases\n" + String.join("\n", lines));
        assertThat(total).isGreaterThanOrEqualTo(150);
    }

    @Test
    void theUtf8FactsAgreeWithTheJdksStrictDecoder() {
        int n = 0;
        for (Utf8Sequences.Group g : Utf8Sequences.groups()) {
            for (Utf8Sequences.Sequence s : g.sequences()) {
                assertThat(decodes(s.bytes())).as("6.%d %s %s", g.subsection(), g.title(), java.util.HexFormat.of().formatHex(s.bytes()))
                        .isEqualTo(s.valid());
                n++;
            }
        }
        assertThat(n).as("Autobahn 6.5-6.23 sequences").isGreaterThan(120);
    }

    private static boolean decodes(byte[] b) {
        try {
            StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(b));
            return true;
        } catch (CharacterCodingException e) {
            return false;
        }
    }
}
