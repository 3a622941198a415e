package dev.tidemill.internal.codec;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/**
 * The one JSON string escaper writes what {@code JSON.stringify} writes, and whatever it writes a
 * JSON parser reads back as the same string (lone surrogates aside, which it escapes).
 */
class JsonStringTest {

    private static String json(String s) {
        return JsonString.append(new StringBuilder(), s).toString();
    }

    @Test
    void writesWhatJsonStringifyWrites() {
        // Expected values are JSON.stringify's (ECMA-262 25.5.2.3), e.g. node -p 'JSON.stringify("\b")'.
        assertThat(json("")).isEqualTo("\"\"");
        assertThat(json("plain é ✓")).isEqualTo("\"plain é ✓\"");
        assertThat(json("a\"b\\c")).isEqualTo("\"a\\\"b\\\\c\"");
        assertThat(json("\b\f\n\r\t")).isEqualTo("\"\\b\\f\\n\\r\\t\"");
        assertThat(json("\u0000\u001f\u007f")).isEqualTo("\"\\u0000\\u001f\u007f\"");
        assertThat(json("\u2028\u2029")).isEqualTo("\"\u2028\u2029\"");
        assertThat(json("</script>")).isEqualTo("\"</script>\"");
        assertThat(json("\uD83D\uDE00")).isEqualTo("\"\uD83D\uDE00\"");
        assertThat(json("x\uD83Dy\uDE00")).isEqualTo("\"x\\ud83dy\\ude00\"");
    }

    @Test
    void aParserReadsBackTheSameString() {
        JsonMapper mapper = JsonMapper.builder().build();
        Random random = new Random(20261203);
        for (int n = 0; n < 2_000; n++) {
            StringBuilder s = new StringBuilder();
            int length = random.nextInt(12);
            for (int i = 0; i < length; i++) {
                int pick = random.nextInt(4);
                s.append(switch (pick) {
                    case 0 -> (char) random.nextInt(0x80);
                    case 1 -> (char) random.nextInt(0x20);
                    case 2 -> "\"\\/\u2028é";
                    default -> Character.toString(0x1F600 + random.nextInt(16));
                });
            }
            String value = s.toString();
            assertThat(mapper.readValue(json(value), String.class)).as("round trip of %s", json(value)).isEqualTo(value);
        }
    }
}
