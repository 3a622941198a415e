package dev.tidemill.bench.streams;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.ContinuationWebSocketFrame;
import io.netty.handler.codec.http.websocketx.PingWebSocketFrame;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocket08FrameDecoder;
import io.netty.handler.codec.http.websocketx.WebSocket08FrameEncoder;
import io.netty.handler.codec.http.websocketx.WebSocketDecoderConfig;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The echo client's frame reading and its pre-masked frame, against Netty's own WebSocket codec. */
class WsFrameReaderTest {
    private record Message(int opcode, long length, long stamp, boolean stamped) {}

    private final List<Message> messages = new ArrayList<>();
    private final List<Integer> controls = new ArrayList<>();
    private final WsFrameReader reader = new WsFrameReader(1 << 20, new WsFrameReader.Messages() {
        @Override
        public void message(int opcode, long length, long stamp, boolean stamped) {
            messages.add(new Message(opcode, length, stamp, stamped));
        }

        @Override
        public void control(int opcode) {
            controls.add(opcode);
        }
    });

    /** @return the bytes a server (Netty's encoder, unmasked) sends for these frames */
    private static byte[] serverBytes(WebSocketFrame... frames) {
        EmbeddedChannel server = new EmbeddedChannel(new WebSocket08FrameEncoder(false));
        for (WebSocketFrame f : frames) server.writeOutbound(f);
        ByteBuf all = Unpooled.buffer();
        for (ByteBuf b; (b = server.readOutbound()) != null; b.release()) all.writeBytes(b);
        byte[] out = new byte[all.readableBytes()];
        all.readBytes(out);
        return out;
    }

    private static BinaryWebSocketFrame binary(int size, long stamp) {
        ByteBuf b = Unpooled.buffer(size);
        b.writeLong(stamp).writeZero(size - Long.BYTES);
        return new BinaryWebSocketFrame(b);
    }

    /** Feeds the bytes in pieces of {@code step} (the last one shorter). */
    private void feed(byte[] bytes, int step) {
        for (int i = 0; i < bytes.length; i += step) {
            ByteBuf piece = Unpooled.wrappedBuffer(bytes, i, Math.min(step, bytes.length - i));
            reader.read(piece);
            assertThat(piece.isReadable()).isFalse();
        }
    }

    @Test
    void everyLengthFormIsReadWhereverTheBuffersEnd() {
        // 125: the 7-bit form's largest; 126 and 65,535: the 16-bit form; 65,536: the 64-bit form.
        int[] sizes = {8, 125, 126, 1_024, 65_535, 65_536, 70_000};
        for (int step : new int[] {1, 3, 7, 64, 1 << 20}) {
            messages.clear();
            for (int size : sizes) feed(serverBytes(binary(size, 0x0102030405060708L + size)), step);
            assertThat(messages).as("in pieces of %d bytes", step).hasSize(sizes.length);
            for (int i = 0; i < sizes.length; i++) {
                assertThat(messages.get(i)).isEqualTo(new Message(2, sizes[i], 0x0102030405060708L + sizes[i], true));
            }
        }
    }

    @Test
    void theHeaderLengthFormsAreTheOnesTheRfcNames() {
        assertThat(serverBytes(binary(125, 1))[1]).isEqualTo((byte) 125);
        assertThat(serverBytes(binary(126, 1))[1]).isEqualTo((byte) 126);
        assertThat(serverBytes(binary(65_536, 1))[1]).isEqualTo((byte) 127);
    }

    @Test
    void fragmentsMakeOneMessageAndAPingBetweenThemIsAControlFrame() {
        ByteBuf first = Unpooled.buffer().writeInt(0x11223344);
        ByteBuf second = Unpooled.buffer().writeInt(0x55667788).writeZero(200);
        byte[] bytes = serverBytes(new BinaryWebSocketFrame(false, 0, first),
                new PingWebSocketFrame(Unpooled.wrappedBuffer(new byte[] {9, 9, 9})),
                new ContinuationWebSocketFrame(true, 0, second));
        for (int step : new int[] {1, 5, bytes.length}) {
            messages.clear();
            controls.clear();
            feed(bytes, step);
            assertThat(controls).containsExactly(9);
            assertThat(messages).containsExactly(new Message(2, 208, 0x1122334455667788L, true));
        }
    }

    @Test
    void aShortOrTextMessageIsReportedAsItCame() {
        feed(serverBytes(new BinaryWebSocketFrame(Unpooled.wrappedBuffer(new byte[] {1, 2, 3})), new TextWebSocketFrame("hello, world")), 2);
        assertThat(messages).containsExactly(new Message(2, 3, 0, false), new Message(1, 12, 0x68656c6c6f2c2077L, true));
    }

    @Test
    void aMaskedServerFrameFailsTheConnection() {
        ByteBuf masked = WsEchoClient.frame(32, 0x12345678, ByteBufAllocator.DEFAULT);
        try {
            assertThatThrownBy(() -> reader.read(masked)).hasMessageContaining("masked");
        } finally {
            masked.release();
        }
    }

    @Test
    void aMessageAboveTheMaximumFailsTheConnection() {
        WsFrameReader small = new WsFrameReader(100, new WsFrameReader.Messages() {
            @Override
            public void message(int opcode, long length, long stamp, boolean stamped) {}

            @Override
            public void control(int opcode) {}
        });
        assertThatThrownBy(() -> small.read(Unpooled.wrappedBuffer(serverBytes(binary(101, 1))))).hasMessageContaining("above 100");
    }

    @Test
    void theClientsPremaskedFrameIsWhatAServerDecodesWithItsSendTimeAndZeros() {
        for (int size : new int[] {32, 125, 126, 1_024, 16_384, 65_536}) {
            ByteBuf frame = WsEchoClient.frame(size, 0x9e3779b9, ByteBufAllocator.DEFAULT);
            long mask = 0x9e3779b9L << 32 | 0x9e3779b9L;
            frame.setLong(WsEchoClient.payloadOffset(size), 0x0a0b0c0d0e0f1011L ^ mask);
            EmbeddedChannel server = new EmbeddedChannel(new WebSocket08FrameDecoder(
                    WebSocketDecoderConfig.newBuilder().expectMaskedFrames(true).maxFramePayloadLength(1 << 20).build()));
            server.writeInbound(frame);
            BinaryWebSocketFrame got = server.readInbound();
            try {
                assertThat(got.isFinalFragment()).isTrue();
                assertThat(got.content().readableBytes()).as("payload of %d", size).isEqualTo(size);
                assertThat(got.content().readLong()).isEqualTo(0x0a0b0c0d0e0f1011L);
                while (got.content().isReadable()) assertThat(got.content().readByte()).isZero();
            } finally {
                got.release();
            }
        }
    }

    @Test
    void theAcceptValueIsTheRfcExample() {
        assertThat(WsEchoClient.acceptOf("dGhlIHNhbXBsZSBub25jZQ==")).isEqualTo("s3pPLMBiTxaQ9kYGzzhZRbK+xOo="); // RFC 6455 1.3
    }
}
