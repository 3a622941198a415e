package dev.tidemill.internal.http1;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.Config;
import dev.tidemill.ExecutionMode;
import dev.tidemill.StaticAssets;
import dev.tidemill.Tidemill;
import dev.tidemill.internal.codec.JacksonCodec;
import dev.tidemill.internal.exchange.ExchangeContext;
import dev.tidemill.internal.exchange.AppSnapshot;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.util.concurrent.ImmediateEventExecutor;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A file body on a channel that cannot take a {@code FileRegion} (an embedded channel is not a
 * socket), through the whole HTTP/1.1 path: the head, then the file read piece by piece as the
 * channel drains (no stack frame per piece when every flush drains at once), then the pipelined
 * reply behind it, in order.
 */
class FileBodyPipelineTest {

    @Test
    void aFileIsReadPieceByPieceAndTheNextReplyWaitsForIt(@TempDir Path dir) throws Exception {
        byte[] bytes = new byte[40 * FileWrites.PIECE_BYTES + 7]; // 2.5 MiB: forty pieces
        new Random(5).nextBytes(bytes);
        Files.write(dir.resolve("big.bin"), bytes);
        StaticAssets assets = StaticAssets.builder().directory(dir).maxInMemoryBytes(0).build();
        Tidemill app = Tidemill.create(Config.builder().executionMode(ExecutionMode.IO).workerLoops(1).build());
        app.assets("/a", assets);
        app.get("/ok", req -> "ok");
        AppSnapshot snapshot = new AppSnapshot(app.config(), app.routes(), List.of(), Map.of(), new JacksonCodec());
        ExchangeContext server = new ExchangeContext(snapshot, UnpooledByteBufAllocator.DEFAULT, dev.tidemill.internal.protocol.Protocols.WEB_SOCKET);
        EmbeddedChannel ch = new EmbeddedChannel();
        PipelineInitializer pipeline = new PipelineInitializer(server, new DefaultChannelGroup(ImmediateEventExecutor.INSTANCE));
        try {
            pipeline.configure(ch);
            ch.pipeline().fireChannelActive();
            String req = "GET " + assets.href("big.bin") + " HTTP/1.1\r\nHost: a\r\n\r\nGET /ok HTTP/1.1\r\nHost: a\r\n\r\n";
            ch.writeInbound(Unpooled.copiedBuffer(req, StandardCharsets.US_ASCII));
            ByteArrayOutputStream wire = new ByteArrayOutputStream();
            for (int i = 0; i < 1000 && !contains(wire, "\r\n\r\nok"); i++) {
                ch.runPendingTasks();
                for (Object o; (o = ch.readOutbound()) != null; ) {
                    ByteBuf b = (ByteBuf) o;
                    byte[] a = new byte[b.readableBytes()];
                    b.readBytes(a);
                    wire.writeBytes(a);
                    b.release();
                }
            }
            ch.checkException();
            byte[] all = wire.toByteArray();
            String text = new String(all, StandardCharsets.ISO_8859_1);
            assertThat(text).startsWith("HTTP/1.1 200 OK\r\n").contains("Content-Length: " + bytes.length + "\r\n");
            int bodyAt = text.indexOf("\r\n\r\n") + 4;
            assertThat(Arrays.copyOfRange(all, bodyAt, bodyAt + bytes.length)).isEqualTo(bytes);
            String after = text.substring(bodyAt + bytes.length);
            assertThat(after).startsWith("HTTP/1.1 200 OK\r\n").endsWith("\r\n\r\nok");
            assertThat(pipeline.filesRead()).isEqualTo(1);
            assertThat(pipeline.filesZeroCopy()).isZero();
        } finally {
            ch.finishAndReleaseAll();
            server.close();
        }
    }

    private static boolean contains(ByteArrayOutputStream out, String s) {
        return out.size() > 0 && out.toString(StandardCharsets.ISO_8859_1).endsWith(s);
    }
}
