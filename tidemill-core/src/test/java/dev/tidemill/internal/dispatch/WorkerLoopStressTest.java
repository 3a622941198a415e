package dev.tidemill.internal.dispatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Many producers into one loop: nothing lost, nothing duplicated, no lost wakeup. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class WorkerLoopStressTest {
    private static final Duration GENEROUS = Duration.ofSeconds(60);

    private WorkerLoop loop;

    @AfterEach
    void stop() throws InterruptedException {
        if (loop != null) {
            loop.shutdown();
            assertThat(loop.awaitTermination(GENEROUS)).isTrue();
        }
    }

    @Test
    void everyTaskFromEightProducersRunsExactlyOnce() throws Exception {
        int producers = 8;
        int perProducer = 200_000;
        int total = producers * perProducer;
        int limit = 1_024;
        loop = new WorkerLoop(0, limit);
        AtomicIntegerArray runs = new AtomicIntegerArray(total);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        CyclicBarrier go = new CyclicBarrier(producers);
        List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            int first = p * perProducer;
            Thread t = new Thread(() -> {
                try {
                    go.await();
                    for (int id = first; id < first + perProducer; id++) {
                        while (!loop.tryReserve(limit)) {
                            Thread.yield(); // full: let the loop (and other producers) run
                        }
                        int taskId = id;
                        loop.execute(() -> {
                            runs.incrementAndGet(taskId);
                            loop.release();
                        });
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            }, "producer-" + p);
            threads.add(t);
            t.start();
        }
        for (Thread t : threads) {
            t.join(GENEROUS);
            assertThat(t.isAlive()).as("%s finished", t.getName()).isFalse();
        }
        assertThat(failure.get()).isNull();

        await().atMost(GENEROUS).until(() -> loop.completedTasks() == total);
        assertThat(loop.load()).isZero();
        List<Integer> wrong = new ArrayList<>();
        for (int id = 0; id < total && wrong.size() < 10; id++) {
            if (runs.get(id) != 1) {
                wrong.add(id);
            }
        }
        assertThat(wrong).as("task ids not run exactly once").isEmpty();
        long wakeups = loop.wakeups();
        System.out.printf("WorkerLoopStressTest: %d tasks, %d wakeups, ratio %.6f%n",
                total, wakeups, (double) wakeups / total);
        assertThat(wakeups).as("wakeups coalesce per burst").isPositive().isLessThan(total);
    }

    @Test
    void singlePushRacingThePark_isNeverStranded() {
        int rounds = 20_000;
        loop = new WorkerLoop(0, 4);
        AtomicInteger done = new AtomicInteger();
        for (int round = 0; round < rounds; round++) {
            // A per-round bound, not a performance budget: a stranded push never completes at all.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            assertThat(loop.tryReserve(4)).isTrue();
            loop.execute(() -> {
                loop.release();
                done.incrementAndGet();
            });
            // Spin rather than block: the next push then lands within nanoseconds of the task's end,
            // while the loop is clearing its flag, doing the final drain or parking. The varying
            // extra spin sweeps that window. A stranded push never completes and fails here.
            int target = round + 1;
            int spins = 0;
            while (done.get() < target) {
                if (System.nanoTime() - deadline > 0) {
                    fail("round %d of %d never ran: a push was stranded (nothing ran for 10 s)", round, rounds);
                }
                if (++spins > 1_000) {
                    Thread.yield(); // on a busy machine let the loop thread have the CPU
                } else {
                    Thread.onSpinWait();
                }
            }
            for (int spin = round % 64; spin > 0; spin--) {
                Thread.onSpinWait();
            }
        }
        await().atMost(GENEROUS).until(() -> loop.completedTasks() == rounds);
        assertThat(loop.load()).isZero();
        assertThat(loop.wakeups()).isLessThanOrEqualTo(rounds);
        System.out.printf("no-lost-wakeup: %d rounds, %d wakeups%n", rounds, loop.wakeups());
    }

    @Test
    void taskThatThrowsDoesNotKillTheLoop() {
        loop = new WorkerLoop(3, 8);
        CountDownLatch after = new CountDownLatch(1);
        assertThat(loop.tryReserve(8)).isTrue();
        loop.execute(() -> {
            loop.release();
            throw new IllegalStateException("boom (expected by the test)");
        });
        AtomicReference<String> threadName = new AtomicReference<>();
        AtomicReference<Boolean> inLoop = new AtomicReference<>();
        assertThat(loop.tryReserve(8)).isTrue();
        loop.execute(() -> {
            threadName.set(Thread.currentThread().getName());
            inLoop.set(loop.inLoop());
            loop.release();
            after.countDown();
        });
        await().atMost(GENEROUS).until(() -> after.getCount() == 0);
        assertThat(threadName.get()).isEqualTo("tidemill-loop-3");
        assertThat(inLoop.get()).isTrue();
        assertThat(loop.inLoop()).isFalse();
        assertThat(loop.load()).isZero();
        await().atMost(GENEROUS).until(() -> loop.completedTasks() == 2);
    }

    @Test
    void reservationIsBoundedAndReleaseNeverUnderflows() {
        loop = new WorkerLoop(0, 3);
        assertThat(loop.tryReserve(3)).isTrue();
        assertThat(loop.tryReserve(3)).isTrue();
        assertThat(loop.tryReserve(3)).isTrue();
        assertThat(loop.tryReserve(3)).isFalse();
        assertThat(loop.load()).isEqualTo(3);
        loop.release();
        loop.release();
        loop.release();
        assertThat(loop.load()).isZero();
        assertThatThrownBy(loop::release).isInstanceOf(IllegalStateException.class);
        assertThat(loop.load()).isZero();
        assertThatThrownBy(() -> loop.tryReserve(4)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shutdownRunsWhatIsQueuedThenRejects() throws InterruptedException {
        loop = new WorkerLoop(0, 16);
        CountDownLatch gate = new CountDownLatch(1);
        AtomicIntegerArray ran = new AtomicIntegerArray(10);
        assertThat(loop.tryReserve(16)).isTrue();
        loop.execute(() -> {
            awaitQuietly(gate);
            loop.release();
        });
        for (int i = 0; i < 10; i++) {
            int id = i;
            assertThat(loop.tryReserve(16)).isTrue();
            loop.execute(() -> {
                ran.incrementAndGet(id);
                loop.release();
            });
        }
        loop.shutdown();
        gate.countDown();
        assertThat(loop.awaitTermination(GENEROUS)).isTrue();
        for (int i = 0; i < 10; i++) {
            assertThat(ran.get(i)).as("queued task %d ran before exit", i).isEqualTo(1);
        }
        assertThat(loop.load()).isZero();
        assertThatThrownBy(() -> loop.execute(() -> {})).isInstanceOf(RejectedExecutionException.class);
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            // The result is ignored on purpose: a timeout shows up as the test's own failure.
            latch.await(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
