package dev.tidemill.internal.http1;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidemill.internal.exchange.Exchange;
import dev.tidemill.internal.exchange.Reply;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link ReplyRing} with real {@link Exchange}s (routed to {@code GET /ok}, so they can expire) and
 * a sink that records what they send. Replies set by the test are plain buffers whose
 * {@code refCnt()} shows whether the ring released them.
 */
class ReplyRingTest {
    private final TestExchanges exchanges = new TestExchanges();
    private final List<ByteBuf> bodies = new ArrayList<>();

    @AfterEach
    void tearDown() {
        for (ByteBuf b : bodies) {
            if (b.refCnt() > 0) b.release(b.refCnt());
        }
        exchanges.close();
    }

    @Test
    void fullAtMaxPipelinedAndAddingPastItThrows() {
        ReplyRing ring = new ReplyRing(3);
        for (int i = 0; i < 3; i++) {
            assertThat(ring.full()).isFalse();
            add(ring);
        }
        assertThat(ring.full()).isTrue();
        assertThat(ring.outstanding()).isEqualTo(3);
        Exchange fourth = exchanges.open(ring.nextId());
        assertThatThrownBy(() -> ring.add(fourth, 0)).isInstanceOf(IllegalStateException.class).hasMessageContaining("3");
        assertThat(ring.outstanding()).as("the refused add changed nothing").isEqualTo(3);
        assertThat(ring.nextId()).isEqualTo(3);

        ring.finish();
        assertThat(ring.full()).isFalse();
        ring.add(fourth, 0);
        assertThat(ring.full()).isTrue();
    }

    @Test
    void oneAtATimeWithMaxPipelinedOne() {
        ReplyRing ring = new ReplyRing(1);
        Exchange a = add(ring);
        assertThat(ring.full()).isTrue();
        assertThatThrownBy(() -> ring.add(exchanges.open(1), 0)).isInstanceOf(IllegalStateException.class);
        ring.finish();
        Exchange b = add(ring);
        assertThat(ring.holds(a)).isFalse();
        assertThat(ring.holds(b)).isTrue();
    }

    @Test
    void anExchangeMustBeAddedUnderTheNextId() {
        ReplyRing ring = new ReplyRing(4);
        assertThatThrownBy(() -> ring.add(exchanges.open(1), 0)).isInstanceOf(IllegalStateException.class);
        assertThat(ring.outstanding()).isZero();
    }

    /**
     * Held exchanges never share a slot, whatever {@code maxPipelined} is, over many cycles of
     * filling the ring and writing part of it back: each keeps its own reply and flags, and
     * {@link ReplyRing#next()} is always the oldest.
     */
    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5, 7, 16, 17, 100})
    void slotsNeverAliasOverManyCycles(int max) {
        ReplyRing ring = new ReplyRing(max);
        ArrayDeque<Exchange> held = new ArrayDeque<>();
        List<Reply> replies = new ArrayList<>();
        Random random = new Random(max);
        for (int cycle = 0; cycle < 400; cycle++) {
            while (!ring.full()) {
                Exchange ex = exchanges.open(ring.nextId());
                ring.add(ex, ex.id() % 2 == 0 ? ReplyRing.HTTP10 : ReplyRing.KEEP_ALIVE);
                if (ex.id() % 3 == 0) {
                    Reply r = reply(ex);
                    replies.add(r);
                    ring.reply(ex, r);
                }
                held.add(ex);
            }
            assertThat(ring.outstanding()).isEqualTo(max);
            for (Exchange ex : held) {
                assertThat(ring.holds(ex)).as("#%d held with max %d", ex.id(), max).isTrue();
                assertThat(ring.flag(ex, ReplyRing.HTTP10)).isEqualTo(ex.id() % 2 == 0);
                assertThat(ring.flag(ex, ReplyRing.KEEP_ALIVE)).isEqualTo(ex.id() % 2 != 0);
                Reply r = ring.reply(ex);
                if (ex.id() % 3 == 0) assertThat(r).isNotNull().extracting(Reply::exchange).isSameAs(ex);
                else assertThat(r).isNull();
            }
            for (int n = 1 + random.nextInt(max); n > 0; n--) {
                Exchange oldest = held.poll();
                assertThat(ring.next()).isSameAs(oldest);
                ring.finish();
                assertThat(ring.holds(oldest)).isFalse();
            }
        }
        assertThat(ring.nextId()).isGreaterThanOrEqualTo(400);
    }

    @Test
    void holdsIsFalseAfterFinish() {
        ReplyRing ring = new ReplyRing(2);
        Exchange a = add(ring);
        Exchange b = add(ring);
        assertThat(ring.next()).isSameAs(a);
        ring.finish();
        assertThat(ring.holds(a)).isFalse();
        assertThat(ring.holds(b)).isTrue();
        assertThat(ring.next()).isSameAs(b);
        ring.finish();
        assertThat(ring.holds(b)).isFalse();
        assertThat(ring.next()).isNull();
        assertThat(ring.outstanding()).isZero();
    }

    @Test
    void closeAllTellsEveryHeldExchangeAndReleasesUnwrittenReplies() {
        ReplyRing ring = new ReplyRing(5);
        add(ring);
        ring.finish(); // written before the close: not told
        Exchange a = add(ring);
        Exchange b = add(ring);
        Exchange c = add(ring);
        Reply ra = reply(a);
        ring.reply(a, ra);
        Reply rc = reply(c);
        ring.reply(c, rc);

        ring.closeAll();

        for (Exchange ex : List.of(a, b, c)) assertThat(ring.holds(ex)).isFalse();
        assertThat(ring.outstanding()).isZero();
        assertThat(ring.next()).isNull();
        assertThat(ring.full()).isFalse();
        assertThat(ra.body().refCnt()).isZero();
        assertThat(rc.body().refCnt()).isZero();
        // told the transport closed: a timeout afterwards no longer answers them
        assertThat(b.expire()).isFalse();
        assertThat(exchanges.sink.sent).isEmpty();
    }

    @Test
    void repliesAndFlagsBelongToTheirSlot() {
        ReplyRing ring = new ReplyRing(4);
        Exchange a = exchanges.open(0);
        ring.add(a, ReplyRing.HTTP10 | ReplyRing.KEEP_ALIVE);
        Exchange b = exchanges.open(1);
        ring.add(b, 0);
        assertThat(ring.flag(a, ReplyRing.HTTP10)).isTrue();
        assertThat(ring.flag(a, ReplyRing.KEEP_ALIVE)).isTrue();
        assertThat(ring.flag(a, ReplyRing.CONTINUE_PENDING)).isFalse();
        assertThat(ring.flag(b, ReplyRing.HTTP10 | ReplyRing.KEEP_ALIVE | ReplyRing.CONTINUE_PENDING)).isFalse();

        ring.setFlag(b, ReplyRing.CONTINUE_PENDING);
        assertThat(ring.flag(b, ReplyRing.CONTINUE_PENDING)).isTrue();
        assertThat(ring.flag(a, ReplyRing.CONTINUE_PENDING)).isFalse();
        ring.clearFlag(b, ReplyRing.CONTINUE_PENDING);
        assertThat(ring.flag(b, ReplyRing.CONTINUE_PENDING)).isFalse();
        ring.clearFlag(a, ReplyRing.KEEP_ALIVE);
        assertThat(ring.flag(a, ReplyRing.HTTP10)).as("other bits stay").isTrue();
        assertThat(ring.flag(a, ReplyRing.KEEP_ALIVE)).isFalse();

        Reply rb = reply(b);
        ring.reply(b, rb);
        assertThat(ring.reply(b)).isSameAs(rb);
        assertThat(ring.reply(a)).isNull();
    }

    @Test
    void aReusedSlotStartsWithoutTheOldReplyOrFlags() {
        ReplyRing ring = new ReplyRing(1); // two slots: #0 and #2 share one
        Exchange a = exchanges.open(0);
        ring.add(a, ReplyRing.HTTP10);
        ring.setFlag(a, ReplyRing.CONTINUE_PENDING);
        ring.deadline(a, 5);
        ring.finish();
        ring.add(exchanges.open(1), 0);
        ring.finish();
        Exchange c = exchanges.open(2);
        ring.add(c, ReplyRing.KEEP_ALIVE);
        assertThat(ring.reply(c)).isNull();
        assertThat(ring.flag(c, ReplyRing.HTTP10 | ReplyRing.CONTINUE_PENDING)).isFalse();
        assertThat(ring.flag(c, ReplyRing.KEEP_ALIVE)).isTrue();
        assertThat(ring.expire(1_000)).as("the old deadline did not stay with the slot").isEqualTo(ReplyRing.NONE);
        assertThat(exchanges.sink.sent).isEmpty();
    }

    @Test
    void expireExpiresOnlyDueExchangesWithoutAReply() {
        ReplyRing ring = new ReplyRing(8);
        Exchange due = add(ring);
        Exchange answered = add(ring); // due too, but its reply is in
        Exchange later = add(ring);
        Exchange exempt = add(ring); // no deadline (a started stream)
        Exchange alsoDue = add(ring);
        ring.deadline(due, 100);
        ring.deadline(answered, 50);
        ring.reply(answered, reply(answered));
        ring.deadline(later, 300);
        ring.deadline(exempt, ReplyRing.NONE);
        ring.deadline(alsoDue, 150);

        assertThat(ring.expire(150)).as("earliest remaining").isEqualTo(300);
        assertThat(exchanges.sink.sent).extracting(Reply::exchange).containsExactly(due, alsoDue);
        assertThat(exchanges.sink.statuses()).containsExactly(504, 504);

        assertThat(ring.expire(150)).as("not expired twice").isEqualTo(300);
        assertThat(exchanges.sink.sent).hasSize(2);

        assertThat(ring.expire(299)).isEqualTo(300);
        assertThat(exchanges.sink.sent).hasSize(2);
        assertThat(ring.expire(300)).isEqualTo(ReplyRing.NONE);
        assertThat(exchanges.sink.sent).extracting(Reply::exchange).containsExactly(due, alsoDue, later);
    }

    @Test
    void expireIgnoresAnAnsweredExchangesEarlierDeadlineWhenReportingTheNext() {
        ReplyRing ring = new ReplyRing(4);
        Exchange answered = add(ring);
        Exchange waiting = add(ring);
        ring.deadline(answered, 200);
        ring.reply(answered, reply(answered));
        ring.deadline(waiting, 400);
        assertThat(ring.expire(100)).isEqualTo(400);
        assertThat(exchanges.sink.sent).isEmpty();
    }

    @Test
    void expireSurvivesTheSinkWritingAndRemovingExchangesMeanwhile() {
        ReplyRing ring = new ReplyRing(4);
        Exchange a = add(ring);
        Exchange b = add(ring);
        Exchange c = add(ring);
        ring.deadline(a, 10);
        ring.deadline(b, 10);
        ring.deadline(c, 500);
        // as the HTTP/1.1 writer does on the event loop: the 504 goes into its slot, and every
        // reply at the head of the line is written and removed at once
        exchanges.sink.onSend = (ex, r) -> {
            ring.reply(ex, r);
            while (ring.next() != null && ring.reply(ring.next()) != null) ring.finish();
        };
        assertThat(ring.expire(10)).isEqualTo(500);
        assertThat(exchanges.sink.sent).extracting(Reply::exchange).containsExactly(a, b);
        assertThat(ring.next()).isSameAs(c);
        assertThat(ring.outstanding()).isEqualTo(1);
    }

    @Test
    void expireOnAnEmptyRing() {
        assertThat(new ReplyRing(3).expire(Long.MAX_VALUE - 1)).isEqualTo(ReplyRing.NONE);
    }

    private Exchange add(ReplyRing ring) {
        Exchange ex = exchanges.open(ring.nextId());
        ring.add(ex, ReplyRing.KEEP_ALIVE);
        return ex;
    }

    private Reply reply(Exchange ex) {
        ByteBuf body = Unpooled.buffer(2).writeByte('o').writeByte('k');
        bodies.add(body);
        return new Reply(ex, 200, List.of(), "text/plain", body, 2, null, false);
    }
}
