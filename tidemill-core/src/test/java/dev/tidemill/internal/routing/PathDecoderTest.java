package dev.tidemill.internal.routing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class PathDecoderTest {

    @Test
    void withoutPercentTheSameStringComesBack() {
        String s = "plain-segment+with~chars";
        assertThat(PathDecoder.decode(s)).isSameAs(s);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "a%20b|a b",
        "a+b|a+b",
        "%2B|+",
        "a%2Fb|a/b",
        "caf%C3%A9|café",
        "caf%c3%a9|café",
        "%E2%82%AC|€",
        "%F0%9F%98%80|😀",
        "%25|%",
        "%2525|%25",
        "é%41|éA",
        "😀%20|'😀 '",
    })
    void decodesUtf8AndKeepsPlus(String raw, String decoded) {
        assertThat(PathDecoder.decode(raw)).isEqualTo(decoded);
    }

    @ParameterizedTest
    @ValueSource(strings = {"%", "%4", "a%4", "%zz", "%g0", "%0g", "%C3", "%C3%28", "%FF", "%C0%AF", "%ED%A0%80",
        "%E2%82", "%F4%90%80%80", "%41\uD800", "x\uDC00%41", "\uD800\uD800%41"})
    void refusesInvalidEncodingAndInvalidUtf8(String raw) {
        assertThatThrownBy(() -> PathDecoder.decode(raw))
                .isInstanceOf(MalformedEncodingException.class)
                .hasMessage("invalid percent-encoding in path");
    }

    @Test
    void aLoneSurrogateWithoutPercentIsPassedThroughUnchecked() {
        // The fast path does not look at the text at all; the router only decodes segments holding '%'.
        assertThat(PathDecoder.decode("\uD800")).isEqualTo("\uD800");
    }
}
