package dev.tidemill;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/** Message ids: read as clients send them back, ordered as Redis stream ids, written as text. */
class MessageIdTest {

    @Test
    void readsPairsAndSingleNumbers() {
        assertThat(MessageId.parse("1-0")).hasValue(MessageId.of(1));
        assertThat(MessageId.parse("1733500000000-7")).hasValue(new MessageId(1_733_500_000_000L, 7));
        assertThat(MessageId.parse("0-0")).hasValue(MessageId.ZERO);
        assertThat(MessageId.parse("42")).as("the single-number form").hasValue(MessageId.of(42));
        assertThat(MessageId.parse("9223372036854775807-9223372036854775807")).hasValue(new MessageId(Long.MAX_VALUE, Long.MAX_VALUE));
    }

    @Test
    void refusesWhatIsNotAnId() {
        for (String s : List.of("", "-", "1-", "-1", "a-b", "1-2-3", "+1", " 1", "1 ", "1.0", "0x10", "9223372036854775808",
                "99999999999999999999-0", "1-99999999999999999999", "１")) {
            assertThat(MessageId.parse(s)).as("'%s'", s).isEmpty();
        }
        assertThat(MessageId.parse(null)).isEmpty();
        assertThatThrownBy(() -> new MessageId(-1, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> MessageId.fromText("x")).hasMessage("not a message id: x");
    }

    @Test
    void ordersByMajorThenMinor() {
        List<MessageId> ids = List.of(new MessageId(2, 0), new MessageId(1, 5), MessageId.ZERO, new MessageId(1, 10), MessageId.of(1));
        assertThat(ids.stream().sorted().map(MessageId::toString)).containsExactly("0-0", "1-0", "1-5", "1-10", "2-0");
        assertThat(new MessageId(1, 10).isAfter(new MessageId(1, 9))).isTrue();
        assertThat(MessageId.of(1).isAfter(MessageId.of(1))).isFalse();
    }

    @Test
    void isTextInJson() {
        JsonMapper json = JsonMapper.builder().build();
        assertThat(json.writeValueAsString(Map.of("id", new MessageId(5, 1)))).isEqualTo("{\"id\":\"5-1\"}");
        assertThat(json.readValue("\"7-0\"", MessageId.class)).isEqualTo(MessageId.of(7));
    }
}
