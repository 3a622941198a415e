package dev.tidemill.internal.http1;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.internal.http1.BodyReader.Outcome;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultLastHttpContent;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.LastHttpContent;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link BodyReader} fed the pieces a decoder would deliver. Like the connection, the test owns
 * each piece it feeds and releases it right after {@code feed}/{@code skip}; so a piece whose
 * {@code refCnt()} is still above 0 afterwards is one the reader kept, and 0 means nothing holds it.
 */
class BodyReaderTest {
    private final ByteBufAllocator alloc = new UnpooledByteBufAllocator(false);
    private final BodyReader reader = new BodyReader();
    private final List<ByteBuf> fed = new ArrayList<>();

    @AfterEach
    void releaseWhatIsLeft() {
        reader.release();
        for (ByteBuf b : fed) {
            if (b.refCnt() > 0) b.release(b.refCnt());
        }
    }

    @Test
    void aBodyInPiecesCompletesWithItsBytes() {
        reader.read(100);
        assertThat(feed(piece("hel"))).isEqualTo(Outcome.MORE);
        assertThat(reader.lastPiece()).isEqualTo(3);
        assertThat(feed(piece("lo, "))).isEqualTo(Outcome.MORE);
        assertThat(feed(last("world"))).isEqualTo(Outcome.COMPLETE);
        assertThat(reader.lastPiece()).isEqualTo(5);
        assertThat(fed).as("kept by the reader until take()").allSatisfy(b -> assertThat(b.refCnt()).isEqualTo(1));
        assertThat(new String(reader.take(), StandardCharsets.US_ASCII)).isEqualTo("hello, world");
        assertThat(fed).allSatisfy(b -> assertThat(b.refCnt()).isZero());
        assertThat(reader.take()).as("taken once").isEmpty();
    }

    @Test
    void anEmptyBodyCompletesEmpty() {
        reader.read(0);
        assertThat(feed(LastHttpContent.EMPTY_LAST_CONTENT)).isEqualTo(Outcome.COMPLETE);
        assertThat(reader.lastPiece()).isZero();
        assertThat(reader.take()).isEmpty();
    }

    @Test
    void emptyPiecesAreNeitherKeptNorCountedAsBytes() {
        reader.read(10);
        ByteBuf empty = Unpooled.buffer(0);
        fed.add(empty);
        assertThat(feed(new DefaultHttpContent(empty))).isEqualTo(Outcome.MORE);
        assertThat(reader.lastPiece()).isZero();
        assertThat(empty.refCnt()).isZero();
        assertThat(feed(last("abc"))).isEqualTo(Outcome.COMPLETE);
        assertThat(new String(reader.take(), StandardCharsets.US_ASCII)).isEqualTo("abc");
    }

    @Test
    void aBodyOfExactlyTheLimitCompletes() {
        reader.read(6);
        assertThat(feed(piece("abc"))).isEqualTo(Outcome.MORE);
        assertThat(feed(last("def"))).isEqualTo(Outcome.COMPLETE);
        assertThat(reader.take()).hasSize(6);
    }

    @Test
    void pastTheLimitIsTooLargeAndNothingIsRetained() {
        reader.read(6);
        assertThat(feed(piece("abc"))).isEqualTo(Outcome.MORE);
        assertThat(feed(piece("de"))).isEqualTo(Outcome.MORE);
        assertThat(feed(piece("fg"))).isEqualTo(Outcome.TOO_LARGE);
        assertThat(fed).as("every piece, kept ones included, freed").allSatisfy(b -> assertThat(b.refCnt()).isZero());
        assertThat(reader.take()).isEmpty();
    }

    @Test
    void aFirstPiecePastTheLimitIsNotRetained() {
        reader.read(2);
        assertThat(feed(last("abc"))).isEqualTo(Outcome.TOO_LARGE);
        assertThat(fed.get(0).refCnt()).isZero();
    }

    @Test
    void discardCountsWithoutKeeping() {
        reader.discard(10);
        assertThat(skip(piece("abcd"))).isEqualTo(Outcome.MORE);
        assertThat(reader.lastPiece()).isEqualTo(4);
        assertThat(skip(piece("efgh"))).isEqualTo(Outcome.MORE);
        assertThat(skip(last("ij"))).isEqualTo(Outcome.COMPLETE);
        assertThat(fed).allSatisfy(b -> assertThat(b.refCnt()).isZero());
        assertThat(reader.take()).isEmpty();
    }

    @Test
    void discardPastTheDrainLimitIsTooLarge() {
        reader.discard(5);
        assertThat(skip(piece("abc"))).isEqualTo(Outcome.MORE);
        assertThat(skip(piece("def"))).isEqualTo(Outcome.TOO_LARGE);
        assertThat(fed).allSatisfy(b -> assertThat(b.refCnt()).isZero());
    }

    @Test
    void releaseAfterPartialReadsFreesEverything() {
        reader.read(100);
        feed(piece("abc"));
        feed(piece("def"));
        assertThat(fed).allSatisfy(b -> assertThat(b.refCnt()).isEqualTo(1));
        reader.release();
        assertThat(fed).allSatisfy(b -> assertThat(b.refCnt()).isZero());
        reader.release(); // twice: the connection may close after a refusal already released it
        assertThat(reader.take()).isEmpty();
    }

    @Test
    void readingAgainDropsTheUnfinishedBodyAndStartsCountingAfresh() {
        reader.read(5);
        feed(piece("abcd"));
        reader.read(5);
        assertThat(fed.get(0).refCnt()).isZero();
        assertThat(feed(piece("efgh"))).as("the count starts over").isEqualTo(Outcome.MORE);
        assertThat(feed(last("i"))).isEqualTo(Outcome.COMPLETE);
        assertThat(new String(reader.take(), StandardCharsets.US_ASCII)).isEqualTo("efghi");
    }

    @Test
    void manyPiecesAreAllKeptInOrder() {
        reader.read(10_000);
        StringBuilder expected = new StringBuilder();
        for (int i = 0; i < 2_000; i++) {
            String s = Integer.toString(i % 10);
            expected.append(s);
            assertThat(feed(piece(s))).isEqualTo(Outcome.MORE);
        }
        assertThat(feed(LastHttpContent.EMPTY_LAST_CONTENT)).isEqualTo(Outcome.COMPLETE);
        assertThat(new String(reader.take(), StandardCharsets.US_ASCII)).isEqualTo(expected.toString());
        assertThat(fed).allSatisfy(b -> assertThat(b.refCnt()).isZero());
    }

    /** Feeds as the connection does: the piece is released right after, whatever the outcome. */
    private Outcome feed(HttpContent content) {
        try {
            return reader.feed(content, alloc);
        } finally {
            content.release();
        }
    }

    private Outcome skip(HttpContent content) {
        try {
            return reader.skip(content);
        } finally {
            content.release();
        }
    }

    private HttpContent piece(String s) {
        return new DefaultHttpContent(buf(s));
    }

    private HttpContent last(String s) {
        return new DefaultLastHttpContent(buf(s));
    }

    private ByteBuf buf(String s) {
        ByteBuf b = alloc.buffer(s.length()).writeBytes(s.getBytes(StandardCharsets.US_ASCII));
        fed.add(b);
        return b;
    }
}
