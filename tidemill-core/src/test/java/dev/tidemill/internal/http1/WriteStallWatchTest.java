package dev.tidemill.internal.http1;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.internal.http1.WriteStallWatch.Verdict;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link WriteStallWatch} against a real {@link io.netty.channel.ChannelOutboundBuffer}. An
 * {@link EmbeddedChannel} stands in for the socket: a {@code write} without a flush stays in the
 * channel's outbound buffer, counted by {@code totalPendingWriteBytes()} exactly as bytes the kernel
 * has not taken would be (plus Netty's per-entry overhead), and with a 16-byte high-water mark one
 * such write makes the channel unwritable. A {@code flush} is the client reading: the embedded channel moves every flushed
 * message out of the buffer at once, so "the client took some bytes but not all" is a flush
 * followed by another unflushed write. The watch is told about every write with
 * {@link WriteStallWatch#enqueued}, as the connection does.
 */
class WriteStallWatchTest {
    private EmbeddedChannel ch;
    private final WriteStallWatch watch = new WriteStallWatch();

    @BeforeEach
    void setUp() {
        ch = new EmbeddedChannel();
        ch.config().setWriteBufferWaterMark(new WriteBufferWaterMark(8, 16));
    }

    @AfterEach
    void tearDown() {
        ch.finishAndReleaseAll();
    }

    @Test
    void clearWhenNothingWasWritten() {
        watch.start(ch);
        assertThat(watch.check(ch)).isEqualTo(Verdict.CLEAR);
    }

    @Test
    void clearWhenWritableAlthoughBytesArePending() {
        ch.config().setWriteBufferWaterMark(new WriteBufferWaterMark(1024, 4096));
        respond(20);
        watch.start(ch);
        assertThat(pending()).isPositive();
        assertThat(ch.isWritable()).isTrue();
        assertThat(watch.check(ch)).isEqualTo(Verdict.CLEAR);
    }

    @Test
    void clearWhenUnwritableWithNothingPending() {
        // unwritable for another reason than our bytes (a user-defined writability bit): nothing to watch
        ch.unsafe().outboundBuffer().setUserDefinedWritability(1, false);
        watch.start(ch);
        assertThat(ch.isWritable()).isFalse();
        assertThat(pending()).isZero();
        assertThat(watch.check(ch)).isEqualTo(Verdict.CLEAR);
    }

    @Test
    void clearOnceEverythingDrained() {
        respond(20);
        watch.start(ch);
        assertThat(ch.isWritable()).isFalse();
        ch.flush();
        assertThat(watch.check(ch)).isEqualTo(Verdict.CLEAR);
    }

    @Test
    void stalledWhenNotOneByteWasTaken() {
        respond(20);
        watch.start(ch);
        assertThat(ch.isWritable()).isFalse();
        assertThat(watch.check(ch)).isEqualTo(Verdict.STALLED);
    }

    @Test
    void stalledWhenMoreWasWrittenButNoneTaken() {
        respond(20);
        watch.start(ch);
        respond(30); // the connection keeps producing; the client still takes nothing
        assertThat(watch.check(ch)).isEqualTo(Verdict.STALLED);
    }

    @Test
    void readingWhenSomeBytesDrainedThoughStillUnwritable() {
        respond(20);
        watch.start(ch);
        ch.flush(); // the client takes those 20 bytes...
        respond(20); // ...and the next response is stuck again
        assertThat(ch.isWritable()).isFalse();
        assertThat(watch.check(ch)).isEqualTo(Verdict.READING);
    }

    @Test
    void eachPeriodStartsOver() {
        respond(20);
        watch.start(ch);
        ch.flush();
        respond(20);
        assertThat(watch.check(ch)).isEqualTo(Verdict.READING);
        watch.start(ch); // the connection starts the next period
        assertThat(watch.check(ch)).as("nothing taken in the new period").isEqualTo(Verdict.STALLED);
    }

    /**
     * Netty counts each pending write at its size plus an entry overhead (96 bytes by default,
     * {@code io.netty.transport.outboundBufferEntrySizeOverhead}), while the watch counts what it
     * was told: bytes only. So when more writes are queued in a period than the client drained
     * bytes, the difference shows up as "nothing drained". Here the client took 5 bytes and two
     * 5-byte writes were queued meanwhile: drained = (5 + 96) + 10 - 2 * (5 + 96) = -91.
     */
    @Test
    void readingWhenSomeBytesDrainedWhileSeveralWritesWereQueued() {
        respond(5);
        watch.start(ch);
        ch.flush(); // the client takes those 5 bytes
        respond(5);
        respond(5);
        assertThat(ch.isWritable()).isFalse();
        assertThat(watch.check(ch)).isEqualTo(Verdict.READING);
    }

    /**
     * A socket transport that writes part of a buffer reports it with
     * {@code ChannelOutboundBuffer.removeBytes}, which Netty counts as the entry's progress but
     * does not take off {@code totalPendingWriteBytes()} until the whole entry is out. So a client
     * that reads a large response buffer (a body over {@link ResponseEncoder#INLINE_BODY} is one
     * entry) slowly, but not all of it within one period, looks as if it took nothing. The test
     * makes the same call a transport makes after a partial write.
     */
    @Test
    void readingWhenPartOfOneLargeBufferWasTaken() {
        respond(100_000);
        watch.start(ch);
        ch.unsafe().outboundBuffer().addFlush();
        ch.unsafe().outboundBuffer().removeBytes(40_000); // the kernel took 40,000 of the 100,000 bytes
        assertThat(ch.isWritable()).isFalse();
        assertThat(watch.check(ch)).isEqualTo(Verdict.READING);
    }

    /** Writes a response of {@code bytes} the way the connection does: counted, handed to Netty, not flushed. */
    private void respond(int bytes) {
        ByteBuf buf = Unpooled.buffer(bytes).writeZero(bytes);
        watch.enqueued(bytes);
        ch.write(buf);
    }

    private long pending() {
        return ch.unsafe().outboundBuffer().totalPendingWriteBytes();
    }
}
