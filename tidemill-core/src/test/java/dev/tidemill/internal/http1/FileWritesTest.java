package dev.tidemill.internal.http1;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.internal.exchange.FileBody;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.embedded.EmbeddedChannel;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The read-piece-by-piece path of {@link FileWrites}, the one a channel that cannot take a
 * {@code FileRegion} gets (an embedded channel is not a socket): one piece per writable period,
 * the next only after the channel drained, every byte in order, a file cut short reported, and
 * nothing read ahead of the client.
 */
class FileWritesTest {
    @TempDir
    Path dir;
    private EmbeddedChannel ch;
    private FileWrites files;
    private FileSends counts;

    @BeforeEach
    void setUp() {
        ch = new EmbeddedChannel(new ChannelInboundHandlerAdapter());
        ch.config().setWriteBufferWaterMark(new WriteBufferWaterMark(512, 1024));
        ch.config().setMessageSizeEstimator(OutboundSizes.INSTANCE);
        ChannelHandlerContext ctx = ch.pipeline().firstContext();
        counts = new FileSends();
        files = new FileWrites(ctx, new WriteStallWatch(), counts);
    }

    @AfterEach
    void tearDown() {
        ch.finishAndReleaseAll();
    }

    @Test
    void piecesFollowWritabilityAndArriveInOrder() throws Exception {
        byte[] bytes = new byte[5 * FileWrites.PIECE_BYTES + 123];
        new Random(3).nextBytes(bytes);
        Path f = Files.write(dir.resolve("f.bin"), bytes);
        FileBody body = FileBody.open(f, 100, bytes.length - 100);

        assertThat(files.start(body)).isEqualTo(FileWrites.Progress.WAITING);
        assertThat(counts.read.sum()).isEqualTo(1);
        assertThat(counts.zeroCopy.sum()).isZero();
        assertThat(files.current()).isSameAs(body);
        assertThat(ch.isWritable()).as("one piece is over the high-water mark").isFalse();
        assertThat(files.writable()).as("still unwritable: nothing more is read").isEqualTo(FileWrites.Progress.WAITING);
        ByteArrayOutputStream got = new ByteArrayOutputStream();
        int rounds = 0;
        FileWrites.Progress p = FileWrites.Progress.WAITING;
        while (p == FileWrites.Progress.WAITING) {
            ch.flush();
            int pieces = drain(got);
            assertThat(pieces).as("one piece per writable period").isEqualTo(1);
            p = files.writable();
            rounds++;
        }
        ch.flush();
        drain(got);
        assertThat(p).isEqualTo(FileWrites.Progress.DONE);
        assertThat(rounds).isEqualTo(5);
        assertThat(files.current()).isNull();
        assertThat(got.toByteArray()).isEqualTo(Arrays.copyOfRange(bytes, 100, bytes.length));
    }

    @Test
    void aFileCutShortIsReportedNotPadded() throws Exception {
        Path f = Files.write(dir.resolve("short.bin"), new byte[1000]);
        FileBody body = FileBody.open(f, 0, 5000); // the file shrank after the reply was built
        assertThat(files.start(body)).isEqualTo(FileWrites.Progress.FAILED);
        assertThat(files.current()).isNull();
    }

    @Test
    void aZeroCopyRegionWeighsItsSize() throws Exception {
        Path f = Files.write(dir.resolve("r.bin"), new byte[10_000]);
        FileBody body = FileBody.open(f, 0, 10_000);
        ch.write(body.region(), ch.voidPromise());
        assertThat(ch.isWritable()).as("Netty's default estimator would count the region as 0 bytes").isFalse();
        ch.flush();
        assertThat(ch.isWritable()).isTrue();
    }

    private int drain(ByteArrayOutputStream to) {
        int n = 0;
        for (Object m; (m = ch.readOutbound()) != null; n++) {
            ByteBuf b = (ByteBuf) m;
            byte[] a = new byte[b.readableBytes()];
            b.readBytes(a);
            to.writeBytes(a);
            b.release();
        }
        return n;
    }
}
