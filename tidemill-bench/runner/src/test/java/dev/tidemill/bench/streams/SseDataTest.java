package dev.tidemill.bench.streams;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class SseDataTest {
    private static long[] parse(String line) {
        ByteBuf b = Unpooled.copiedBuffer(line, StandardCharsets.US_ASCII);
        return SseData.parse(b, "data:".length(), b.writerIndex());
    }

    @Test
    void readsSequenceAndPublishTime() {
        assertThat(parse("data: 42 123456789012")).containsExactly(42, 123456789012L);
        assertThat(parse("data: 1 -5")).containsExactly(1, -5);
    }

    @Test
    void anythingElseIsNotAFanOutEvent() {
        assertThat(parse("data: 3 dropped: this client fell behind")).isNull();
        assertThat(parse("data: 42")).isNull();
        assertThat(parse("data: ")).isNull();
        assertThat(parse("data: x 1")).isNull();
        assertThat(parse("data: 1 99999999999999999999")).isNull();
    }
}
