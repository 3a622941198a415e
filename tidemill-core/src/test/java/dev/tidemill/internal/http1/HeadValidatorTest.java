package dev.tidemill.internal.http1;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The byte-level head check, fed whole and byte by byte; the wire behaviour is in the hardening suite. */
class HeadValidatorTest {

    private static ByteBuf bytes(String s) {
        return Unpooled.copiedBuffer(s, StandardCharsets.ISO_8859_1);
    }

    @Test
    void aValidHeadIsMeasuredWholeAndInPieces() {
        String head = "\r\nGET /a?b=c HTTP/1.1\r\nHost: x\r\nX-A:\tv a l\u00e9\r\n\r\n";
        assertThat(new HeadValidator().feed(bytes(head + "BODY"))).isEqualTo(head.length());
        HeadValidator v = new HeadValidator();
        ByteBuf buf = Unpooled.buffer();
        int result = HeadValidator.INCOMPLETE;
        for (char c : head.toCharArray()) {
            assertThat(result).as("complete too early").isEqualTo(HeadValidator.INCOMPLETE);
            buf.writeByte(c);
            result = v.feed(buf);
        }
        assertThat(result).isEqualTo(head.length());
        assertThat(v.pending()).as("reset for the next head").isZero();
    }

    @Test
    void http10WithoutHeadersIsComplete() {
        assertThat(new HeadValidator().feed(bytes("GET / HTTP/1.0\r\n\r\n"))).isEqualTo(18);
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "GET / HTTP/1.1\nHost: x\r\n\r\n", "GET / HTTP/1.1\r\nHost: x\rY: z\r\n\r\n", "GET / HTTP/1.1\r\nX-A: a\u0000b\r\n\r\n",
            "GET / HTTP/1.1\r\nX-A: a\r\n b\r\n\r\n", "GET / HTTP/1.1\r\nX-A : b\r\n\r\n", "GET / HTTP/1.1\r\nX-A b\r\n\r\n",
            "GET / HTTP/1.1\r\n: b\r\n\r\n", "GET  / HTTP/1.1\r\n\r\n", " GET / HTTP/1.1\r\n\r\n", "GET / HTTP/1.1 \r\n\r\n",
            "GET / http/1.1\r\n\r\n", "GET / HTTP/1.10\r\n\r\n", "GET /#f HTTP/1.1\r\n\r\n", "GET /a\\b HTTP/1.1\r\n\r\n",
            "GE(T / HTTP/1.1\r\n\r\n", "GET /\r\n\r\n", "GET / HTTP/1.1\r\n X: y\r\n\r\n", "\r\r\r\r",
            "\r\n\r\n\r\n\r\n\r\n\r\n\r\n\r\n\r\nGET / HTTP/1.1\r\n\r\n", "GET / HTTP/1.1\r\nX-\u00e9: b\r\n\r\n"})
    void malformedHeadsAreRefusedWith400(String head) {
        assertThatThrownBy(() -> new HeadValidator().feed(bytes(head)))
                .isInstanceOfSatisfying(HeadValidator.MalformedHeadException.class, e -> {
                    assertThat(e.status()).isEqualTo(400);
                    assertThat(e.getMessage()).isNotBlank();
                });
    }

    @Test
    void aWellFormedUnsupportedVersionPassesForTheGateToAnswer505() {
        assertThat(new HeadValidator().feed(bytes("GET / HTTP/2.0\r\n\r\n"))).isEqualTo(18);
    }

    @Test
    void eightEmptyLinesAreTolerated() {
        assertThat(new HeadValidator().feed(bytes("\r\n".repeat(8) + "GET / HTTP/1.1\r\n\r\n"))).isEqualTo(16 + 18);
    }
}
