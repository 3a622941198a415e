package dev.tidemill.internal.http1;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.internal.http1.ConnectionDeadlines.Kind;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.concurrent.AbstractEventExecutor;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.ScheduledFuture;
import io.netty.util.concurrent.Ticker;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link ConnectionDeadlines} on an {@link EmbeddedChannel}'s event loop with its time frozen:
 * the test moves time ({@code advanceTimeBy}) and runs what is due ({@code runScheduledPendingTasks}),
 * so no case waits for a clock. The executor handed to the class under test is the channel's loop
 * behind a thin wrapper that counts {@code schedule} calls and keeps the futures, which is how
 * "one timer" is observed: how many timers were ever scheduled, and how many are still live.
 */
class ConnectionDeadlinesTest {
    private static final long MS = 1_000_000;

    /** One call to {@link ConnectionDeadlines.Expiry#expired}. */
    private record Told(Kind kind, long now) {}

    private EmbeddedChannel ch;
    private Counting executor;
    private final List<Told> told = new ArrayList<>();
    private ConnectionDeadlines.Expiry then = (k, now) -> { };
    private ConnectionDeadlines deadlines;
    private long t0;

    @BeforeEach
    void setUp() {
        ch = new EmbeddedChannel();
        ch.freezeTime();
        executor = new Counting(ch.eventLoop());
        deadlines = new ConnectionDeadlines(executor, (kind, now) -> {
            told.add(new Told(kind, now));
            then.expired(kind, now);
        });
        t0 = deadlines.now();
    }

    @AfterEach
    void tearDown() {
        ch.finishAndReleaseAll();
    }

    @Test
    void nowIsTheEventLoopsTicker() {
        assertThat(deadlines.now()).isEqualTo(ch.eventLoop().ticker().nanoTime());
        ch.advanceTimeBy(7, TimeUnit.MILLISECONDS);
        assertThat(deadlines.now()).isEqualTo(t0 + 7 * MS);
    }

    @Test
    void oneTimerForEveryKind() {
        for (Kind k : Kind.values()) deadlines.set(k, t0 + (100 + k.ordinal()) * MS);
        assertThat(executor.scheduled).as("timers scheduled").isEqualTo(1);
        assertThat(executor.live()).isEqualTo(1);
        assertThat(nextTimerIn()).isEqualTo(100 * MS);
        for (Kind k : Kind.values()) assertThat(deadlines.running(k)).as(k.name()).isTrue();
    }

    @Test
    void aLaterOrEqualDeadlineDoesNotReschedule() {
        deadlines.set(Kind.IDLE, t0 + 100 * MS);
        deadlines.set(Kind.BODY_STALL, t0 + 300 * MS);
        deadlines.set(Kind.DRAIN, t0 + 100 * MS);
        deadlines.set(Kind.IDLE, t0 + 200 * MS); // moved later: the timer still fires at 100 and re-arms
        assertThat(executor.scheduled).isEqualTo(1);
        assertThat(nextTimerIn()).isEqualTo(100 * MS);
    }

    @Test
    void anEarlierDeadlineReschedulesAndCancelsTheOldTimer() {
        deadlines.set(Kind.IDLE, t0 + 200 * MS);
        deadlines.set(Kind.HEADER_READ, t0 + 50 * MS);
        assertThat(executor.scheduled).isEqualTo(2);
        assertThat(executor.live()).as("the timer at 200 is cancelled").isEqualTo(1);
        assertThat(nextTimerIn()).isEqualTo(50 * MS);

        deadlines.set(Kind.HEADER_READ, t0 + 20 * MS); // the same kind moving earlier also reschedules
        assertThat(executor.scheduled).isEqualTo(3);
        assertThat(executor.live()).isEqualTo(1);
        assertThat(nextTimerIn()).isEqualTo(20 * MS);
    }

    @Test
    void afterIsRelativeToNow() {
        ch.advanceTimeBy(5, TimeUnit.MILLISECONDS);
        deadlines.after(Kind.BODY_STALL, 30 * MS);
        assertThat(deadlines.get(Kind.BODY_STALL)).isEqualTo(t0 + 35 * MS);
        assertThat(nextTimerIn()).isEqualTo(30 * MS);
    }

    @Test
    void aClearedDeadlineIsNeverToldAndTheTimerIsNotRearmedForIt() {
        deadlines.set(Kind.IDLE, t0 + 100 * MS);
        deadlines.clear(Kind.IDLE);
        assertThat(deadlines.running(Kind.IDLE)).isFalse();
        assertThat(deadlines.get(Kind.IDLE)).isEqualTo(ConnectionDeadlines.NONE);
        advance(100);
        assertThat(told).isEmpty();
        assertThat(executor.live()).isZero();
        assertThat(nextTimerIn()).as("nothing scheduled").isEqualTo(-1);
    }

    @Test
    void aTimerFiringForAClearedDeadlineRearmsAtTheNextOne() {
        deadlines.set(Kind.IDLE, t0 + 100 * MS);
        deadlines.set(Kind.WRITE_STALL, t0 + 250 * MS);
        deadlines.clear(Kind.IDLE);
        advance(100);
        assertThat(told).isEmpty();
        assertThat(executor.live()).isEqualTo(1);
        assertThat(nextTimerIn()).isEqualTo(150 * MS);
        advance(150);
        assertThat(told).containsExactly(new Told(Kind.WRITE_STALL, t0 + 250 * MS));
    }

    @Test
    void nothingIsToldBeforeItsDeadline() {
        deadlines.set(Kind.DRAIN, t0 + 100 * MS);
        advance(99);
        assertThat(told).isEmpty();
        assertThat(deadlines.running(Kind.DRAIN)).isTrue();
        advance(1);
        assertThat(told).containsExactly(new Told(Kind.DRAIN, t0 + 100 * MS));
    }

    @Test
    void expiryTellsEachDueKindOnceAndRearmsAtTheNext() {
        deadlines.set(Kind.IDLE, t0 + 100 * MS);
        deadlines.set(Kind.REQUEST, t0 + 100 * MS);
        deadlines.set(Kind.HEADER_READ, t0 + 90 * MS);
        deadlines.set(Kind.BODY_STALL, t0 + 300 * MS);
        advance(100);
        // in Kind order, once each, with the time the timer read
        assertThat(told).containsExactly(new Told(Kind.IDLE, t0 + 100 * MS), new Told(Kind.HEADER_READ, t0 + 100 * MS),
                new Told(Kind.REQUEST, t0 + 100 * MS));
        assertThat(deadlines.running(Kind.IDLE)).isFalse();
        assertThat(deadlines.running(Kind.REQUEST)).isFalse();
        assertThat(deadlines.running(Kind.BODY_STALL)).isTrue();
        assertThat(executor.live()).isEqualTo(1);
        assertThat(nextTimerIn()).isEqualTo(200 * MS);

        told.clear();
        advance(200);
        assertThat(told).containsExactly(new Told(Kind.BODY_STALL, t0 + 300 * MS));
        assertThat(executor.live()).isZero();
        advance(10_000);
        assertThat(told).hasSize(1);
    }

    @Test
    void aLateTimerTellsEveryKindThatPassedInOneGo() {
        deadlines.set(Kind.IDLE, t0 + 10 * MS);
        deadlines.set(Kind.DRAIN, t0 + 20 * MS);
        deadlines.set(Kind.WRITE_STALL, t0 + 30 * MS);
        ch.advanceTimeBy(1, TimeUnit.SECONDS); // the loop was busy: all three passed before the timer ran
        ch.runScheduledPendingTasks();
        assertThat(told).extracting(Told::kind).containsExactly(Kind.IDLE, Kind.DRAIN, Kind.WRITE_STALL);
        assertThat(executor.scheduled).isEqualTo(1);
        assertThat(executor.live()).isZero();
    }

    @Test
    void anOwnerSettingADeadlineWhileToldGetsOneTimerAtIt() {
        deadlines.set(Kind.REQUEST, t0 + 100 * MS);
        then = (kind, now) -> {
            if (kind == Kind.REQUEST && now == t0 + 100 * MS) {
                deadlines.set(Kind.IDLE, now + 70 * MS);
                deadlines.set(Kind.REQUEST, now + 40 * MS); // the next request's timeout, earlier still
            }
        };
        advance(100);
        assertThat(told).containsExactly(new Told(Kind.REQUEST, t0 + 100 * MS));
        assertThat(executor.scheduled).as("no timer from inside the expiry, one re-arm after it").isEqualTo(2);
        assertThat(executor.live()).isEqualTo(1);
        assertThat(nextTimerIn()).isEqualTo(40 * MS);

        advance(40);
        assertThat(told).containsExactly(new Told(Kind.REQUEST, t0 + 100 * MS), new Told(Kind.REQUEST, t0 + 140 * MS));
        assertThat(nextTimerIn()).isEqualTo(30 * MS);
        advance(30);
        assertThat(told).extracting(Told::kind).containsExactly(Kind.REQUEST, Kind.REQUEST, Kind.IDLE);
        assertThat(executor.live()).isZero();
    }

    @Test
    void anOwnerClearingADueKindWhileToldKeepsItFromBeingTold() {
        deadlines.set(Kind.IDLE, t0 + 100 * MS);
        deadlines.set(Kind.HEADER_READ, t0 + 100 * MS);
        then = (kind, now) -> {
            if (kind == Kind.IDLE) deadlines.clear(Kind.HEADER_READ);
        };
        advance(100);
        assertThat(told).extracting(Told::kind).containsExactly(Kind.IDLE);
        assertThat(executor.live()).isZero();
    }

    @Test
    void cancelStopsTheTimerAndEveryLaterSetting() {
        deadlines.set(Kind.IDLE, t0 + 100 * MS);
        deadlines.set(Kind.BODY_STALL, t0 + 50 * MS);
        deadlines.cancel();
        assertThat(executor.live()).isZero();
        deadlines.set(Kind.DRAIN, t0 + 10 * MS);
        deadlines.after(Kind.HEADER_READ, 1);
        assertThat(executor.live()).isZero();
        assertThat(nextTimerIn()).isEqualTo(-1);
        advance(1_000);
        assertThat(told).isEmpty();
    }

    @Test
    void cancelWhileToldStopsTheRestOfThatExpiry() {
        deadlines.set(Kind.IDLE, t0 + 100 * MS);
        deadlines.set(Kind.DRAIN, t0 + 100 * MS);
        deadlines.set(Kind.REQUEST, t0 + 500 * MS);
        then = (kind, now) -> deadlines.cancel(); // the owner closed the connection
        advance(100);
        assertThat(told).extracting(Told::kind).containsExactly(Kind.IDLE);
        assertThat(executor.live()).as("not re-armed for REQUEST").isZero();
        advance(1_000);
        assertThat(told).hasSize(1);
    }

    private void advance(long millis) {
        ch.advanceTimeBy(millis, TimeUnit.MILLISECONDS);
        ch.runScheduledPendingTasks();
    }

    /** @return nanos until the loop's next scheduled task, -1 if none */
    private long nextTimerIn() {
        return ch.runScheduledPendingTasks();
    }

    /** The channel's event loop, counting the timers scheduled on it. */
    private static final class Counting extends AbstractEventExecutor {
        private final EventExecutor loop;
        private final List<ScheduledFuture<?>> futures = new ArrayList<>();
        int scheduled;

        Counting(EventExecutor loop) {
            this.loop = loop;
        }

        /** @return timers neither run nor cancelled */
        int live() {
            return (int) futures.stream().filter(f -> !f.isDone()).count();
        }

        @Override
        public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
            scheduled++;
            ScheduledFuture<?> f = loop.schedule(command, delay, unit);
            futures.add(f);
            return f;
        }

        @Override
        public Ticker ticker() {
            return loop.ticker();
        }

        @Override
        public boolean inEventLoop(Thread thread) {
            return loop.inEventLoop(thread);
        }

        @Override
        public void execute(Runnable command) {
            loop.execute(command);
        }

        @Override
        public boolean isShuttingDown() {
            return loop.isShuttingDown();
        }

        @Override
        public Future<?> shutdownGracefully(long quietPeriod, long timeout, TimeUnit unit) {
            return loop.shutdownGracefully(quietPeriod, timeout, unit);
        }

        @Override
        public Future<?> terminationFuture() {
            return loop.terminationFuture();
        }

        @Override
        @Deprecated
        public void shutdown() {
            loop.shutdown();
        }

        @Override
        public boolean isShutdown() {
            return loop.isShutdown();
        }

        @Override
        public boolean isTerminated() {
            return loop.isTerminated();
        }

        @Override
        public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
            return loop.awaitTermination(timeout, unit);
        }
    }
}
