package dev.tidemill.bench.streams;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The load client's response head, read off raw bytes. */
class ResponseHeadTest {
    private static ByteBuf bytes(String s) {
        return Unpooled.copiedBuffer(s, StandardCharsets.ISO_8859_1);
    }

    @Test
    void aCompleteHeadGivesItsStatusHeadersAndLength() {
        String head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n";
        ByteBuf b = bytes(head + "5\r\nhello");
        ResponseHead h = ResponseHead.parse(b).orElseThrow();
        assertThat(h.status()).isEqualTo(200);
        assertThat(h.header("CONTENT-TYPE")).isEqualTo("text/event-stream");
        assertThat(h.chunked()).isTrue();
        assertThat(h.length()).isEqualTo(head.length());
        assertThat(b.readerIndex()).isZero();
    }

    @Test
    void anIncompleteHeadIsNotYetAHead() {
        assertThat(ResponseHead.parse(bytes("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"))).isEmpty();
        assertThat(ResponseHead.parse(bytes("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n")).orElseThrow().chunked()).isFalse();
    }

    @Test
    void aHeadThatIsNotHttpFails() {
        assertThatThrownBy(() -> ResponseHead.parse(bytes("SSH-2.0-x\r\n\r\n"))).hasMessageContaining("status line");
        assertThatThrownBy(() -> ResponseHead.parse(bytes("HTTP/1.1 200 OK\r\nno colon\r\n\r\n"))).hasMessageContaining("header");
    }
}
