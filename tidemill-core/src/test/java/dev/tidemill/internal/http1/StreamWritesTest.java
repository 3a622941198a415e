package dev.tidemill.internal.http1;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.internal.exchange.Exchange;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.channels.ClosedChannelException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link StreamWrites} writing through the context of a handler on an {@link EmbeddedChannel}, as
 * the connection's writer does. What it wrote is what reaches the channel's outbound side after a
 * {@code flush} (StreamWrites itself never flushes: the writer does, once per burst). Writability
 * is the channel's own: with a 1 KiB high-water mark a few small chunks leave it writable (Netty counts
 * each pending write at its size plus about 96 bytes of entry overhead), a chunk larger than 1 KiB,
 * not flushed, makes it unwritable, and a flush makes it writable again.
 */
class StreamWritesTest {
    /** 1,100 bytes (0x44c): more than the high-water mark, still one inline chunk buffer. */
    private static final String BIG = "0123456789".repeat(110);

    private final TestExchanges exchanges = new TestExchanges();
    private final List<ByteBuf> chunks = new ArrayList<>();
    private EmbeddedChannel ch;
    private StreamWrites streams;
    private Exchange a;
    private Exchange b;

    @BeforeEach
    void setUp() {
        ch = new EmbeddedChannel(new ChannelInboundHandlerAdapter());
        ch.config().setWriteBufferWaterMark(new WriteBufferWaterMark(512, 1024));
        ChannelHandlerContext ctx = ch.pipeline().firstContext();
        streams = new StreamWrites(ctx, new WriteStallWatch());
        a = exchanges.open(0);
        b = exchanges.open(1);
    }

    @AfterEach
    void tearDown() {
        ch.finishAndReleaseAll();
        for (ByteBuf c : chunks) assertThat(c.refCnt()).as("every chunk released").isZero();
        exchanges.close();
    }

    @Test
    void chunksBeforeStartAreHeldAndWrittenInOrderOnStart() {
        CompletableFuture<Void> one = new CompletableFuture<>();
        CompletableFuture<Void> two = new CompletableFuture<>();
        streams.chunk(a, chunk("one"), one);
        streams.chunk(a, chunk("three"), two);
        assertThat(wire()).as("nothing before the head").isEmpty();
        assertThat(one).isNotDone();
        assertThat(two).isNotDone();

        assertThat(streams.start(a, false)).as("not ended yet").isFalse();
        assertThat(streams.current()).isSameAs(a);
        assertThat(wire()).isEqualTo("3\r\none\r\n5\r\nthree\r\n");
        assertThat(one).isCompleted();
        assertThat(two).isCompleted();

        CompletableFuture<Void> three = new CompletableFuture<>();
        streams.chunk(a, chunk("now"), three);
        assertThat(wire()).as("the current stream is written at once").isEqualTo("3\r\nnow\r\n");
        assertThat(three).isCompleted();
    }

    @Test
    void chunksOfAStreamWaitingBehindAnotherAreKeptApart() {
        streams.start(a, false);
        streams.chunk(b, chunk("bee"), new CompletableFuture<>());
        streams.chunk(a, chunk("ay"), new CompletableFuture<>());
        assertThat(wire()).isEqualTo("2\r\nay\r\n");
        assertThat(streams.end(a, false)).isTrue();
        assertThat(streams.endCurrent()).isFalse();
        assertThat(streams.current()).isNull();
        assertThat(streams.start(b, false)).isFalse();
        assertThat(wire()).isEqualTo("0\r\n\r\n3\r\nbee\r\n");
    }

    @Test
    void startNoStreamWithNothingHeld() {
        assertThat(streams.start(a, false)).isFalse();
        assertThat(wire()).isEmpty();
    }

    @Test
    void anEndBeforeStartIsReportedByStart() {
        streams.chunk(a, chunk("x"), new CompletableFuture<>());
        assertThat(streams.end(a, false)).as("not the current stream").isFalse();
        assertThat(wire()).isEmpty();
        assertThat(streams.start(a, false)).as("it already ended").isTrue();
        assertThat(streams.endCurrent()).as("keep the connection").isFalse();
        assertThat(wire()).isEqualTo("1\r\nx\r\n0\r\n\r\n");
    }

    @Test
    void anAbortBeforeStartEndsWithoutTheLastChunk() {
        streams.chunk(a, chunk("partial"), new CompletableFuture<>());
        streams.end(a, true);
        assertThat(streams.start(a, false)).isTrue();
        assertThat(streams.endCurrent()).as("close: the peer must see a truncated body").isTrue();
        assertThat(wire()).isEqualTo("7\r\npartial\r\n");
    }

    @Test
    void endCurrentWritesTheLastChunk() {
        streams.start(a, false);
        assertThat(streams.end(a, false)).as("the current stream").isTrue();
        assertThat(streams.endCurrent()).isFalse();
        assertThat(wire()).isEqualTo("0\r\n\r\n");
        assertThat(streams.current()).isNull();
    }

    @Test
    void endCurrentAfterAnAbortWritesNoLastChunkAndCloses() {
        streams.start(a, false);
        streams.chunk(a, chunk("ab"), new CompletableFuture<>());
        assertThat(streams.end(a, true)).isTrue();
        assertThat(streams.endCurrent()).isTrue();
        assertThat(wire()).isEqualTo("2\r\nab\r\n");
    }

    @Test
    void anAbortDoesNotCarryOverToTheNextStream() {
        streams.end(a, true);
        streams.start(a, false);
        assertThat(streams.endCurrent()).isTrue();
        streams.start(b, false);
        streams.end(b, false);
        assertThat(streams.endCurrent()).isFalse();
        assertThat(wire()).isEqualTo("0\r\n\r\n");
    }

    @Test
    void http10WritesRawBytesAndEndsByClosing() {
        streams.chunk(a, chunk("early "), new CompletableFuture<>());
        streams.start(a, true);
        streams.chunk(a, chunk("late"), new CompletableFuture<>());
        assertThat(streams.end(a, false)).isTrue();
        assertThat(streams.endCurrent()).as("HTTP/1.0: the body ends with the connection").isTrue();
        assertThat(wire()).isEqualTo("early late");
    }

    @Test
    void aWriteWhileUnwritableCompletesOnlyOnceWritable() {
        streams.start(a, false);
        CompletableFuture<Void> first = new CompletableFuture<>();
        streams.chunk(a, chunk(BIG), first); // past the high-water mark
        assertThat(ch.isWritable()).isFalse();
        assertThat(first).as("the producer waits").isNotDone();

        CompletableFuture<Void> second = new CompletableFuture<>();
        streams.chunk(a, chunk("more"), second);
        assertThat(second).isNotDone();

        assertThat(wire()).isEqualTo("44c\r\n" + BIG + "\r\n4\r\nmore\r\n"); // the client reads: writable again
        assertThat(ch.isWritable()).isTrue();
        assertThat(first).as("not before the connection says so").isNotDone();
        streams.writable();
        assertThat(first).isCompleted();
        assertThat(second).isCompleted();
        streams.writable(); // nobody waiting: nothing happens
    }

    @Test
    void closeAllFailsWaitingProducersAndReleasesHeldChunks() {
        streams.start(a, false);
        CompletableFuture<Void> waiting = new CompletableFuture<>();
        streams.chunk(a, chunk(BIG), waiting);
        assertThat(waiting).isNotDone();
        ByteBuf held1 = chunk("held");
        ByteBuf held2 = chunk("too");
        CompletableFuture<Void> h1 = new CompletableFuture<>();
        CompletableFuture<Void> h2 = new CompletableFuture<>();
        streams.chunk(b, held1, h1);
        streams.chunk(b, held2, h2);
        streams.end(b, false);

        streams.closeAll();

        assertThat(held1.refCnt()).isZero();
        assertThat(held2.refCnt()).isZero();
        for (CompletableFuture<Void> f : List.of(waiting, h1, h2)) {
            assertThat(f).isCompletedExceptionally();
            assertThat(f.exceptionNow()).isInstanceOf(ClosedChannelException.class);
        }
        assertThat(streams.current()).isNull();
        assertThat(streams.start(b, false)).as("nothing kept for b").isFalse();
        assertThat(wire()).as("only what was written before the close").isEqualTo("44c\r\n" + BIG + "\r\n");
    }

    private ByteBuf chunk(String s) {
        ByteBuf c = Unpooled.buffer(s.length()).writeBytes(s.getBytes(StandardCharsets.US_ASCII));
        chunks.add(c);
        return c;
    }

    /** @return what reached the wire since the last call (flushes, then reads and releases it) */
    private String wire() {
        ch.flush();
        StringBuilder sb = new StringBuilder();
        for (ByteBuf o; (o = ch.readOutbound()) != null; ) {
            sb.append(o.toString(StandardCharsets.US_ASCII));
            o.release();
        }
        return sb.toString();
    }
}
