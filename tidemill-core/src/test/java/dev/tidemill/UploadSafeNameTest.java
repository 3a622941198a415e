package dev.tidemill;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/** {@link Upload#safeName}: a client's file name made into one path segment that is safe to create. */
class UploadSafeNameTest {

    static Stream<Arguments> names() {
        return Stream.of(
                Arguments.of("report.pdf", "report.pdf"),
                Arguments.of("../../etc/passwd", "passwd"),
                Arguments.of("C:\\Users\\ann\\photo.jpg", "photo.jpg"),
                Arguments.of("..\\..\\boot.ini", "boot.ini"),
                Arguments.of("/abs/path/x.txt", "x.txt"),
                Arguments.of("..", "upload"),
                Arguments.of("...hidden", "hidden"),
                Arguments.of(".bashrc", "bashrc"),
                Arguments.of("", "upload"),
                Arguments.of("   ", "upload"),
                Arguments.of("dir/", "upload"),
                Arguments.of("a\u0000b.txt", "ab.txt"),
                Arguments.of("a\r\nb.txt", "ab.txt"),
                Arguments.of("a\u0085b", "ab"),
                Arguments.of("what?.txt", "what.txt"),
                Arguments.of("a<b>c:d*e|f\"g.txt", "abcdefg.txt"),
                Arguments.of("CON", "_CON"),
                Arguments.of("nul.txt", "_nul.txt"),
                Arguments.of("Com1.tar.gz", "_Com1.tar.gz"),
                Arguments.of("com10.txt", "com10.txt"),
                Arguments.of("lpt9", "_lpt9"),
                Arguments.of("console.txt", "console.txt"),
                Arguments.of("trailing. . ", "trailing"),
                Arguments.of("日本語.txt", "日本語.txt"));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource
    void names(String in, String out) {
        assertThat(Upload.safeName(in)).isEqualTo(out);
    }

    @ParameterizedTest
    @CsvSource({"300", "1000"})
    void longNamesAreCutKeepingTheExtension(int length) {
        String s = Upload.safeName("a".repeat(length) + ".tar.gz");
        assertThat(s).hasSize(255).endsWith(".gz");
        String emoji = Upload.safeName("\uD83D\uDE00".repeat(200));
        assertThat(emoji.length()).isLessThanOrEqualTo(255);
        assertThat(Character.isHighSurrogate(emoji.charAt(emoji.length() - 1))).isFalse();
    }
}
