package dev.tidemill.internal.exchange;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidemill.Problem;
import dev.tidemill.ProblemException;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.Test;

/**
 * {@link RequestBodyQueue}'s whole-body path: a body that came with its head is queued as a view of the
 * read buffer, taken without a future, and copied out of that buffer only when its reader did not
 * take it at once. (Over sockets, {@code StreamedBodyTest} and {@code StreamedBodyMemoryTest} cover
 * the stream in every mode; this pins what they cannot see: which buffer a held body keeps alive.)
 * And the non-blocking reader's wait without a future ({@link RequestBodyQueue#takeOr}), and what a
 * full stream keeps of the read buffers its pieces are views of.
 */
class RequestBodyQueueTest {
    /** For a take that must not wait: the piece is there, or the body ended or failed. */
    private static final BiConsumer<ByteBuf, Throwable> NOT_CALLED = (piece, error) -> {
        throw new AssertionError("the waiter was told " + piece + ", " + error);
    };
    private final AtomicInteger demands = new AtomicInteger();
    private final LongAdder held = new LongAdder();
    private final RequestBodySource source = new RequestBodySource() {
        @Override
        public void demand() {
            demands.incrementAndGet();
        }

        @Override
        public void abandon() {}

        @Override
        public void taken(int bytes) {}

        @Override
        public boolean onTransportThread() {
            return true;
        }
    };

    /** A 1 KiB body as a view of a larger read buffer, the way the decoder hands it over. */
    private static ByteBuf readBuffer() {
        ByteBuf read = Unpooled.buffer(64 * 1024);
        read.writeBytes("head".getBytes(StandardCharsets.US_ASCII));
        read.writeBytes(new byte[1024]);
        return read;
    }

    @Test
    void aWholeBodyTakenAtOnceIsTheReadBufferItselfAndEndsWithoutAFutureOrADemand() {
        RequestBodyQueue stream = new RequestBodyQueue(source, ByteBufAllocator.DEFAULT, 1 << 20, held);
        ByteBuf read = readBuffer();
        stream.offerWhole(read.retainedSlice(4, 1024));
        assertThat(held.sum()).isEqualTo(1024);

        ByteBuf piece = stream.takeOr(NOT_CALLED);
        assertThat(piece.readableBytes()).isEqualTo(1024);
        assertThat(piece.unwrap()).as("no copy when taken during dispatch").isSameAs(read);
        piece.release();
        assertThat(stream.takeOr(NOT_CALLED)).isSameAs(RequestBodyQueue.END);
        stream.settle(); // nothing left to settle
        assertThat(demands).hasValue(0);
        assertThat(held.sum()).isZero();
        assertThat(read.refCnt()).isEqualTo(1);
        read.release();
    }

    @Test
    void aWholeBodyNotTakenAtOnceIsCopiedAndReleasesTheReadBuffer() {
        RequestBodyQueue stream = new RequestBodyQueue(source, ByteBufAllocator.DEFAULT, 1 << 20, held);
        ByteBuf read = readBuffer();
        read.setByte(4, 'x');
        stream.offerWhole(read.retainedSlice(4, 1024));
        assertThat(read.refCnt()).isEqualTo(2);

        stream.settle(); // the handler runs later (LOOP, VIRTUAL): the view must not pin the read buffer
        assertThat(read.refCnt()).as("the read buffer is no longer held by the stream").isEqualTo(1);
        read.release();

        ByteBuf piece = stream.takeOr(NOT_CALLED);
        assertThat(piece.readableBytes()).isEqualTo(1024);
        assertThat(piece.getByte(0)).isEqualTo((byte) 'x');
        piece.release();
        assertThat(stream.takeOr(NOT_CALLED)).isSameAs(RequestBodyQueue.END);
        assertThat(held.sum()).isZero();
    }

    @Test
    void anEmptyWholeBodyEndsAtOnce() {
        RequestBodyQueue stream = new RequestBodyQueue(source, ByteBufAllocator.DEFAULT, 1 << 20, held);
        stream.offerWhole(Unpooled.buffer(0));
        assertThat(stream.ended()).isTrue();
        assertThat(stream.takeOr(NOT_CALLED)).isSameAs(RequestBodyQueue.END);
        assertThat(stream.takeLater()).isCompletedWithValue(null);
    }

    @Test
    void takeOrThrowsTheBodysProblem() {
        RequestBodyQueue stream = new RequestBodyQueue(source, ByteBufAllocator.DEFAULT, 1 << 20, held);
                stream.fail(Problem.of(408, "Request Timeout", "the body stalled"));
        assertThatThrownBy(() -> stream.takeOr(NOT_CALLED)).isInstanceOf(ProblemException.class)
                .satisfies(e -> assertThat(((ProblemException) e).problem().status()).isEqualTo(408));
    }

    /** What a waiter was told, in order. */
    private static final class Told implements BiConsumer<ByteBuf, Throwable> {
        final List<Object> events = new ArrayList<>();

        @Override
        public void accept(ByteBuf piece, Throwable error) {
            events.add(error != null ? error : piece == null ? "end" : piece);
        }
    }

    @Test
    void aReaderWaitingOnAnEmptyStreamIsHandedTheNextPieceAndThenTheEnd() {
        RequestBodyQueue stream = new RequestBodyQueue(source, ByteBufAllocator.DEFAULT, 1 << 20, held);
        Told told = new Told();
        assertThat(stream.takeOr(told)).as("nothing there yet: the waiter will be told").isNull();
        assertThat(told.events).as("never from inside takeOr").isEmpty();
        assertThat(demands).as("the transport asked to read").hasValue(1);
        assertThatThrownBy(() -> stream.takeOr(NOT_CALLED)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("already pending");

        ByteBuf piece = Unpooled.buffer(8 * 1024).writeZero(8 * 1024);
        assertThat(stream.offer(piece)).isTrue();
        assertThat(told.events).containsExactly(piece);
        assertThat(held.sum()).as("handed straight to the waiter, never queued").isZero();
        piece.release();

        Told second = new Told();
        assertThat(stream.takeOr(second)).isNull();
        stream.end();
        assertThat(second.events).containsExactly("end");
        assertThat(stream.takeOr(NOT_CALLED)).isSameAs(RequestBodyQueue.END);
    }

    @Test
    void aReaderWaitingWhenTheBodyFailsIsToldItsProblem() {
        RequestBodyQueue stream = new RequestBodyQueue(source, ByteBufAllocator.DEFAULT, 1 << 20, held);
        Told told = new Told();
        assertThat(stream.takeOr(told)).isNull();
        stream.fail(Problem.of(408, "Request Timeout", "the body stalled"));
        assertThat(told.events).singleElement().isInstanceOfSatisfying(ProblemException.class,
                p -> assertThat(p.problem().status()).isEqualTo(408));
        assertThat(stream.takeLater()).isCompletedExceptionally();
    }

    @Test
    void takeLaterIsAFutureOverTheSameWait() {
        RequestBodyQueue stream = new RequestBodyQueue(source, ByteBufAllocator.DEFAULT, 1 << 20, held);
        var later = stream.takeLater();
        assertThat(later).isNotDone();
        ByteBuf piece = Unpooled.buffer(8 * 1024).writeZero(8 * 1024);
        stream.offer(piece);
        assertThat(later).isCompletedWithValue(piece);
        piece.release();
        stream.end();
        assertThat(stream.takeLater()).isCompletedWithValue(null);
    }

    /** A read buffer of 64 KiB whose first {@code filled} bytes came off the socket, each byte its index's low bits plus {@code seed}. */
    private static ByteBuf read(int filled, int seed) {
        ByteBuf read = Unpooled.buffer(64 * 1024, 64 * 1024);
        for (int i = 0; i < filled; i++) read.writeByte(i + seed);
        return read;
    }

    @Test
    void whenTheStreamFillsUpPiecesThatFillLittleOfTheirReadBuffersAreCopiedTogetherAndTheBuffersReleased() {
        RequestBodyQueue stream = new RequestBodyQueue(source, ByteBufAllocator.DEFAULT, 128 * 1024, held);
        ByteBuf partial = read(29_696, 1), next = read(29_696, 4), full = read(64 * 1024, 2), last = read(29_696, 3);
        assertThat(stream.offer(partial.retainedSlice())).as("under the mark: reading goes on").isTrue();
        assertThat(stream.offer(next.retainedSlice())).isTrue();
        assertThat(stream.offer(full.retainedSlice())).isTrue();
        assertThat(partial.refCnt()).as("queued as it is while the stream is not full").isEqualTo(2);
        assertThat(stream.offer(last.retainedSlice())).as("the mark reached: the reads stop").isFalse();
        assertThat(held.sum()).as("the stream counts the same bytes").isEqualTo(3 * 29_696 + 65_536);
        for (ByteBuf b : List.of(partial, next, full, last)) b.release(); // the transport's own reference
        assertThat(List.of(partial, next, last)).as("pieces filling under 7/8 of their buffers are copied out of them")
                .allMatch(b -> b.refCnt() == 0);
        assertThat(full.refCnt()).as("a full buffer is kept as it is").isEqualTo(1);

        List<ByteBuf> taken = new ArrayList<>();
        for (int i = 0; i < 3; i++) taken.add(stream.takeOr(NOT_CALLED));
        assertThat(taken).extracting(ByteBuf::readableBytes).as("the two pieces in a row share one copy").containsExactly(59_392, 65_536, 29_696);
        assertThat(taken.get(1).unwrap()).isSameAs(full);
        for (int i = 0; i < 29_696; i++) {
            assertThat(taken.get(0).getByte(i)).isEqualTo((byte) (i + 1));
            assertThat(taken.get(0).getByte(29_696 + i)).isEqualTo((byte) (i + 4));
            assertThat(taken.get(2).getByte(i)).isEqualTo((byte) (i + 3));
        }
        taken.forEach(ByteBuf::release);
        assertThat(full.refCnt()).isZero();
        assertThat(held.sum()).isZero();
    }
}
