package dev.tidemill.internal.dispatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemill.Assignment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Which loop {@link LoopGroup#reserve()} picks, and when it gives up. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class LeastLoadedDispatchTest {
    private static final Duration GENEROUS = Duration.ofSeconds(60);

    private LoopGroup group;
    private final CountDownLatch unblock = new CountDownLatch(1);

    @AfterEach
    void close() {
        unblock.countDown();
        if (group != null) {
            group.close();
        }
    }

    /** Parks {@code loop}'s thread inside a task until {@link #unblock}; holds one slot meanwhile. */
    private void block(WorkerLoop loop) {
        CountDownLatch inside = new CountDownLatch(1);
        assertThat(loop.tryReserve(group.limitPerLoop())).isTrue();
        loop.execute(() -> {
            inside.countDown();
            try {
                unblock.await(60, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            loop.release();
        });
        await().atMost(GENEROUS).until(() -> inside.getCount() == 0);
    }

    private static void queueReleasingTask(WorkerLoop loop) {
        loop.execute(loop::release);
    }

    @Test
    void leastLoaded_routesAroundALoopStuckInAHandler() {
        group = new LoopGroup(4, 100, Assignment.LEAST_LOADED);
        WorkerLoop stuck = group.loops().get(1);
        block(stuck);
        for (int i = 0; i < 9; i++) { // 9 more queued behind the blocked one: load 10
            assertThat(stuck.tryReserve(100)).isTrue();
            queueReleasingTask(stuck);
        }
        assertThat(stuck.load()).isEqualTo(10);

        // Static: hold slots. The three others fill up to 9 each before the stuck loop is a candidate.
        List<WorkerLoop> held = new ArrayList<>();
        for (int i = 0; i < 27; i++) {
            WorkerLoop chosen = group.reserve();
            assertThat(chosen).as("reserve %d", i).isNotNull().isNotSameAs(stuck);
            held.add(chosen);
        }
        for (WorkerLoop loop : group.loops()) {
            assertThat(loop.load()).isEqualTo(loop == stuck ? 10 : 9);
        }
        held.forEach(WorkerLoop::release);

        // Dynamic: real tasks, at most 8 outstanding, so every other loop stays below the stuck one's 10.
        Semaphore outstanding = new Semaphore(8);
        long stuckCompleted = stuck.completedTasks();
        int stuckPicks = 0;
        for (int i = 0; i < 10_000; i++) {
            outstanding.acquireUninterruptibly();
            WorkerLoop chosen = group.reserve();
            assertThat(chosen).isNotNull();
            if (chosen == stuck) {
                stuckPicks++;
            }
            chosen.execute(() -> {
                chosen.release(); // before the permit: load never exceeds the outstanding count
                outstanding.release();
            });
        }
        assertThat(stuckPicks).as("requests sent to the stuck loop").isZero();
        assertThat(stuck.completedTasks()).isEqualTo(stuckCompleted);

        unblock.countDown();
        await().atMost(GENEROUS).until(() -> group.totalLoad() == 0);
    }

    @Test
    void leastLoaded_takesTheFirstIdleLoopFromARotatingStart() {
        group = new LoopGroup(4, 10, Assignment.LEAST_LOADED);
        List<WorkerLoop> loops = group.loops();
        reserveOn(loops.get(0), 2);
        reserveOn(loops.get(2), 3);
        // Loads [2, 0, 3, 0]. The start rotates 0, 1, 2, 3, 0 and the scan stops at the first idle
        // loop: from start 0 that is loop 1 even though loop 3 is idle too, from start 2 it is loop 3.
        assertThat(pickAndRelease(5)).containsExactly(1, 1, 3, 3, 1);

        reserveOn(loops.get(1), 1);
        reserveOn(loops.get(3), 4);
        // Loads [2, 1, 3, 4]: no idle loop, the minimum wins from every start.
        assertThat(pickAndRelease(4)).containsExactly(1, 1, 1, 1);
    }

    @ParameterizedTest
    @EnumSource(Assignment.class)
    void fullEverywhere_returnsNullUntilASlotIsReleased(Assignment assignment) {
        group = new LoopGroup(2, 3, assignment);
        List<WorkerLoop> held = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            WorkerLoop chosen = group.reserve();
            assertThat(chosen).as("reserve %d of 6", i).isNotNull();
            held.add(chosen);
        }
        assertThat(group.loops()).allSatisfy(loop -> assertThat(loop.load()).isEqualTo(3));
        assertThat(group.reserve()).as("7th reserve").isNull();
        assertThat(group.totalLoad()).isEqualTo(6);

        WorkerLoop freed = held.remove(0);
        freed.release();
        assertThat(group.reserve()).isSameAs(freed);
        assertThat(group.reserve()).isNull();
        freed.release();
        held.forEach(WorkerLoop::release);
        assertThat(group.totalLoad()).isZero();
    }

    @Test
    void roundRobin_picksInTurnAndKeepsFeedingTheStuckLoop() {
        group = new LoopGroup(4, 100, Assignment.ROUND_ROBIN);
        WorkerLoop stuck = group.loops().get(1);
        block(stuck); // uses no reserve(), so the rotation still starts at 0
        List<Integer> picks = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            WorkerLoop chosen = group.reserve();
            picks.add(chosen.index());
            queueReleasingTask(chosen);
        }
        List<Integer> expected = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            expected.add(i % 4);
        }
        assertThat(picks).isEqualTo(expected);
        // That is the cost least-loaded avoids: 10 requests wait behind the stuck handler.
        assertThat(stuck.load()).isEqualTo(11);
        unblock.countDown();
        await().atMost(GENEROUS).until(() -> group.totalLoad() == 0);
    }

    @ParameterizedTest
    @EnumSource(Assignment.class)
    void concurrentDispatch_neverExceedsTheLimitAndRunsEverythingOnce(Assignment assignment) throws Exception {
        int limit = 64;
        int producers = 4;
        int perProducer = 50_000;
        int total = producers * perProducer;
        group = new LoopGroup(4, limit, assignment);
        AtomicIntegerArray runs = new AtomicIntegerArray(total);
        AtomicReference<String> violation = new AtomicReference<>();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            int first = p * perProducer;
            Thread t = new Thread(() -> {
                try {
                    for (int id = first; id < first + perProducer; id++) {
                        WorkerLoop chosen;
                        while ((chosen = group.reserve()) == null) {
                            Thread.yield(); // the caller would answer 503; here we retry
                        }
                        int taskId = id;
                        WorkerLoop loop = chosen;
                        loop.execute(() -> {
                            int load = loop.load();
                            if (load > limit || load < 1) {
                                violation.compareAndSet(null, "load " + load + " on loop " + loop.index());
                            }
                            runs.incrementAndGet(taskId);
                            loop.release();
                        });
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            }, "io-" + p);
            threads.add(t);
            t.start();
        }
        for (Thread t : threads) {
            t.join(GENEROUS);
            assertThat(t.isAlive()).as("%s finished", t.getName()).isFalse();
        }
        assertThat(failure.get()).isNull();
        await().atMost(GENEROUS).until(() -> group.totalLoad() == 0);
        assertThat(violation.get()).isNull();
        int wrong = 0;
        for (int id = 0; id < total; id++) {
            if (runs.get(id) != 1) {
                wrong++;
            }
        }
        assertThat(wrong).as("tasks not run exactly once").isZero();
        await().atMost(GENEROUS).until(
                () -> group.loops().stream().mapToLong(WorkerLoop::completedTasks).sum() == total);
        System.out.printf("%s: %d tasks over %d loops, %d wakeups%n",
                assignment, total, group.size(), group.wakeups());
    }

    private static void reserveOn(WorkerLoop loop, int slots) {
        for (int i = 0; i < slots; i++) {
            assertThat(loop.tryReserve(10)).isTrue();
        }
    }

    private List<Integer> pickAndRelease(int times) {
        List<Integer> picks = new ArrayList<>();
        for (int i = 0; i < times; i++) {
            WorkerLoop chosen = group.reserve();
            picks.add(chosen.index());
            chosen.release();
        }
        return picks;
    }
}
