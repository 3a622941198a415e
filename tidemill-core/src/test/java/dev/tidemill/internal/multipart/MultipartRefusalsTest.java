package dev.tidemill.internal.multipart;

import static dev.tidemill.internal.multipart.MultipartParserTest.B;
import static dev.tidemill.internal.multipart.MultipartParserTest.end;
import static dev.tidemill.internal.multipart.MultipartParserTest.part;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidemill.Limits;
import dev.tidemill.Problem;
import dev.tidemill.ProblemException;
import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every limit at its boundary (at it passes, one over is 413 naming it) and every malformation (400 naming it). */
class MultipartRefusalsTest {

    static Problem refusal(String body, Limits limits) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        for (int chunk : new int[] {0, 1, 7}) {
            try {
                Parsed.parse(B, bytes, limits, chunk);
            } catch (ProblemException e) {
                if (chunk == 7) return e.problem();
                continue;
            }
            throw new AssertionError("accepted with chunk " + chunk + ": " + body);
        }
        throw new AssertionError();
    }

    static void accepted(String body, Limits limits) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        for (int chunk : new int[] {0, 1, 7}) Parsed.parse(B, bytes, limits, chunk);
    }

    @Test
    void maxParts() {
        Limits three = Limits.builder().maxParts(3).build();
        String p = part("form-data; name=a", "1");
        accepted(p.repeat(3) + end(), three);
        Problem over = refusal(p.repeat(4) + end(), three);
        assertThat(over.status()).isEqualTo(413);
        assertThat(over.detail()).hasValue("more than 3 parts (maxParts)");
    }

    @Test
    void maxPartHeaderBytesCountsTheWholeBlockWithPadding() {
        String block = "Content-Disposition: form-data; name=a\r\n\r\n";
        String body = "--" + B + "\r\n" + block + "v\r\n" + end();
        accepted(body, Limits.builder().maxPartHeaderBytes(block.length()).build());
        Problem over = refusal(body, Limits.builder().maxPartHeaderBytes(block.length() - 1).build());
        assertThat(over.status()).isEqualTo(413);
        assertThat(over.detail()).hasValue("a part's headers are larger than " + (block.length() - 1) + " bytes (maxPartHeaderBytes)");
        String padded = "--" + B + "  \r\n" + block + "v\r\n" + end();
        accepted(padded, Limits.builder().maxPartHeaderBytes(block.length() + 2).build());
        assertThat(refusal(padded, Limits.builder().maxPartHeaderBytes(block.length() + 1).build()).status()).isEqualTo(413);
    }

    @Test
    void maxFieldBytesAppliesToPartsWithoutAFileName() {
        Limits ten = Limits.builder().maxFieldBytes(10).build();
        accepted(part("form-data; name=a", "0123456789") + end(), ten);
        Problem over = refusal(part("form-data; name=a", "0123456789X") + end(), ten);
        assertThat(over.status()).isEqualTo(413);
        assertThat(over.detail()).hasValue("field \"a\" is larger than 10 bytes (maxFieldBytes)");
        accepted(part("form-data; name=a; filename=f", "0123456789X") + end(), ten); // a file is not a field
    }

    @Test
    void maxFileBytesAppliesToFileParts() {
        Limits ten = Limits.builder().maxFileBytes(10).build();
        accepted(part("form-data; name=f; filename=\"f.bin\"", "0123456789") + end(), ten);
        Problem over = refusal(part("form-data; name=f; filename=\"f.bin\"", "0123456789X") + end(), ten);
        assertThat(over.status()).isEqualTo(413);
        assertThat(over.detail()).hasValue("file \"f\" is larger than 10 bytes (maxFileBytes)");
    }

    @Test
    void contentThatEndsWithAPartialDelimiterCountsOnlyItsOwnBytes() {
        // the held-back "\r\n--" of a match that fails must count once, when it turns out to be content
        Limits four = Limits.builder().maxFieldBytes(4).build();
        accepted(part("form-data; name=a", "\r\n--") + end(), four);
        assertThat(refusal(part("form-data; name=a", "\r\n--X") + end(), four).status()).isEqualTo(413);
    }

    static Stream<Arguments> malformed() {
        String cd = "Content-Disposition: form-data; name=\"a\"";
        String d = "--" + B + "\r\n";
        return Stream.of(
                Arguments.of("empty body", "", "the body holds no boundary delimiter"),
                Arguments.of("no delimiter", "hello world\r\n", "the body holds no boundary delimiter"),
                Arguments.of("no final boundary", part("form-data; name=a", "1"), "the body ended before the final boundary"),
                Arguments.of("ends inside content", d + cd + "\r\n\r\nabc", "the body ended before the final boundary"),
                Arguments.of("ends inside headers", d + cd, "the body ended before the final boundary"),
                Arguments.of("ends after boundary", "--" + B, "the body ended before the final boundary"),
                Arguments.of("boundary prefix of a line", part("form-data; name=a", "1") + "--" + B + "X\r\n", "starts with the boundary but is not"),
                Arguments.of("single dash after boundary", "--" + B + "-x", "starts with the boundary but is not"),
                Arguments.of("CR without LF after boundary", "--" + B + "\rX", "a CR without LF after a boundary"),
                Arguments.of("header line without colon", d + cd + "\r\nNoColon\r\n\r\nv\r\n" + end(), "without a colon"),
                Arguments.of("bare LF in headers", d + cd + "\nX: y\r\n\r\nv\r\n" + end(), "an LF without CR"),
                Arguments.of("bare CR in headers", d + cd + "\rX: y\r\n\r\nv\r\n" + end(), "a CR without LF"),
                Arguments.of("obs-fold", d + cd + "\r\n X: y\r\n\r\nv\r\n" + end(), "obs-fold"),
                Arguments.of("control byte in a value", d + cd + "\r\nX: a\u0001b\r\n\r\nv\r\n" + end(), "a control character (0x1)"),
                Arguments.of("NUL in a name", d + "Content-Disposition: form-data; name=\"a\u0000b\"\r\n\r\nv\r\n" + end(), "a control character (0x0)"),
                Arguments.of("DEL in a header", d + cd + "\r\nX: \u007f\r\n\r\nv\r\n" + end(), "a control character (0x7f)"),
                Arguments.of("space in a header name", d + "Content Disposition: form-data; name=a\r\n\r\nv\r\n" + end(), "invalid name"),
                Arguments.of("no Content-Disposition", d + "Content-Type: text/plain\r\n\r\nv\r\n" + end(), "without Content-Disposition"),
                Arguments.of("no headers at all", d + "\r\nv\r\n" + end(), "without Content-Disposition"),
                Arguments.of("two Content-Dispositions", d + cd + "\r\n" + cd + "\r\n\r\nv\r\n" + end(), "two Content-Disposition"),
                Arguments.of("two Content-Types", d + cd + "\r\nContent-Type: a/b\r\ncontent-type: c/d\r\n\r\nv\r\n" + end(), "two Content-Type"),
                Arguments.of("not form-data", part("attachment; name=a", "1") + end(), "is not form-data"),
                Arguments.of("no name", part("form-data; filename=\"a.txt\"", "1") + end(), "without a name"),
                Arguments.of("two names", part("form-data; name=a; name=b", "1") + end(), "parameter name appears twice"),
                Arguments.of("unterminated quote", part("form-data; name=\"a", "1") + end(), "unterminated quoted-string"),
                Arguments.of("text after a quoted value", part("form-data; name=\"a\"x", "1") + end(), "expected ';'"),
                Arguments.of("parameter without =", part("form-data; name", "1") + end(), "without '='"),
                Arguments.of("non-UTF-8 headers", d + "Content-Disposition: form-data; name=\"\u00ff\"\r\n\r\nv\r\n" + end(), "not UTF-8"),
                Arguments.of("CRLF smuggled in filename*", part("form-data; name=a; filename*=UTF-8''a%0D%0Ab", "1") + end(), "a control character (0xd) in a part's filename"),
                Arguments.of("NUL in filename*", part("form-data; name=a; filename*=UTF-8''a%00.txt", "1") + end(), "a control character (0x0)"),
                Arguments.of("filename* without quotes", part("form-data; name=a; filename*=UTF-8%41", "1") + end(), "charset'language'value"),
                Arguments.of("filename* unknown charset", part("form-data; name=a; filename*=KOI8-R''%C1", "1") + end(), "other than UTF-8"),
                Arguments.of("filename* bad percent", part("form-data; name=a; filename*=UTF-8''%G1", "1") + end(), "malformed percent-encoding"),
                Arguments.of("filename* truncated percent", part("form-data; name=a; filename*=UTF-8''a%4", "1") + end(), "malformed percent-encoding"),
                Arguments.of("filename* raw space", part("form-data; name=a; filename*=\"UTF-8''a b\"", "1") + end(), "must be percent-encoded"),
                Arguments.of("filename* bad UTF-8", part("form-data; name=a; filename*=UTF-8''%C3%28", "1") + end(), "not valid UTF-8"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void malformed(String what, String body, String detail) {
        // the 0xff case must reach the parser as that one byte, not as UTF-8
        byte[] bytes = body.getBytes(what.equals("non-UTF-8 headers") ? StandardCharsets.ISO_8859_1 : StandardCharsets.UTF_8);
        for (int chunk : new int[] {0, 1, 3}) {
            try {
                Parsed.parse(B, bytes, Limits.DEFAULTS, chunk);
                throw new AssertionError(what + ": accepted with chunk " + chunk);
            } catch (ProblemException e) {
                assertThat(e.problem().status()).as(what).isEqualTo(400);
                assertThat(e.problem().detail()).as(what).hasValueSatisfying(v -> assertThat(v).contains(detail));
            }
        }
    }

    static Stream<Arguments> badBoundaries() {
        return Stream.of(
                Arguments.of("multipart/form-data", "without a boundary parameter"),
                Arguments.of("multipart/form-data; charset=utf-8", "without a boundary parameter"),
                Arguments.of("multipart/form-data; boundary=", "invalid value"),
                Arguments.of("multipart/form-data; boundary=\"\"", "invalid boundary parameter"),
                Arguments.of("multipart/form-data; boundary=" + "a".repeat(71), "invalid boundary parameter"),
                Arguments.of("multipart/form-data; boundary=\"ab \"", "invalid boundary parameter"),
                Arguments.of("multipart/form-data; boundary=a;b", "without '='"),
                Arguments.of("multipart/form-data; boundary=\"a\rb\"", "invalid boundary parameter"),
                Arguments.of("multipart/form-data; boundary=a@b", "invalid boundary parameter"),
                Arguments.of("multipart/form-data; boundary=\"é\"", "invalid boundary parameter"),
                Arguments.of("multipart/form-data; boundary=a; boundary=b", "appears twice"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void badBoundaries(String contentType, String detail) {
        assertThatThrownBy(() -> MultipartParser.forContentType(contentType, Limits.DEFAULTS, MultipartParserTest.noop()))
                .isInstanceOfSatisfying(ProblemException.class, e -> {
                    assertThat(e.problem().status()).isEqualTo(400);
                    assertThat(e.problem().detail()).hasValueSatisfying(v -> assertThat(v).contains(detail));
                });
    }
}
