package dev.tidemill.internal.dispatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.netty.channel.Channel;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.EventLoop;
import io.netty.channel.embedded.EmbeddedChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The round trip with both hops batched, under load: event loops queue tasks on worker loops
 * with the wake deferred to the end of their iteration ({@link WakeBatch}), and the workers send
 * replies back through each event loop's {@link ResponseBatcher} with the drain deferred to the
 * end of their own drain. Every task must run exactly once and every reply arrive exactly once:
 * a stranded task or reply would hang the count below its total.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class DeferredWakeStressTest {
    private static final Duration GENEROUS = Duration.ofSeconds(60);

    @Test
    void everyTaskRunsOnceAndEveryReplyArrivesOnce() throws Exception {
        int eventLoops = 3;
        int perLoop = 60_000;
        int burst = 32; // tasks queued per event-loop task: one iteration's worth of reads
        int limit = 256;
        int total = eventLoops * perLoop;
        // I/O event loops, as a server runs: they run the deferred wakes at the end of each iteration
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(eventLoops, NioIoHandler.newFactory());
        List<WorkerLoop> workers = List.of(new WorkerLoop(0, limit), new WorkerLoop(1, limit));
        try {
            AtomicIntegerArray ran = new AtomicIntegerArray(total);
            AtomicIntegerArray replied = new AtomicIntegerArray(total);
            AtomicLong replies = new AtomicLong();
            List<EventLoop> loops = new ArrayList<>();
            for (int i = 0; i < eventLoops; i++) loops.add(group.next());
            for (int l = 0; l < eventLoops; l++) {
                EventLoop loop = loops.get(l);
                ResponseBatcher batcher = new ResponseBatcher(loop);
                Channel flushTarget = new EmbeddedChannel(); // flushing it is a no-op
                int first = l * perLoop;
                loop.execute(new Runnable() {
                    int next = first;

                    @Override
                    public void run() {
                        // One "iteration": queue a burst, then let the loop run its tail tasks (the wakes).
                        for (int k = 0; k < burst && next < first + perLoop; k++) {
                            WorkerLoop w = workers.get(next % workers.size());
                            if (!w.tryReserve(limit)) break; // full: retry in the next iteration
                            int id = next++;
                            w.execute(() -> {
                                ran.incrementAndGet(id);
                                w.release();
                                batcher.submit(new ResponseBatcher.Delivery() {
                                    @Override
                                    public Channel channel() {
                                        return flushTarget;
                                    }

                                    @Override
                                    public void deliver() {
                                        assertThat(loop.inEventLoop()).isTrue();
                                        replied.incrementAndGet(id);
                                        replies.incrementAndGet();
                                    }
                                });
                            });
                        }
                        // Like reads, the next burst comes with a later iteration: a task that re-queued
                        // itself at once would keep the loop in its task phase, and deferred wakes wait
                        // for the end of that phase.
                        if (next < first + perLoop) loop.schedule(this, 20, TimeUnit.MICROSECONDS);
                    }
                });
            }
            try {
                await().atMost(GENEROUS).until(() -> replies.get() == total);
            } catch (org.awaitility.core.ConditionTimeoutException e) {
                int ranCount = 0;
                for (int i = 0; i < total; i++) ranCount += ran.get(i);
                throw new AssertionError("stranded: " + ranCount + " of " + total + " tasks ran, " + replies.get()
                        + " replies arrived; worker loads " + workers.get(0).load() + ", " + workers.get(1).load()
                        + "; deferred wake batches " + WakeBatch.deferredSoFar(), e);
            }
            for (int i = 0; i < total; i++) {
                assertThat(ran.get(i)).as("task %d ran", i).isEqualTo(1);
                assertThat(replied.get(i)).as("reply %d arrived", i).isEqualTo(1);
            }
            assertThat(WakeBatch.deferredSoFar()).as("the deferred path was taken").isPositive();
            long wakeups = workers.stream().mapToLong(WorkerLoop::wakeups).sum();
            assertThat(wakeups).as("wakeups are batched: fewer than one per task").isLessThan(total);
        } finally {
            for (WorkerLoop w : workers) w.shutdown();
            for (WorkerLoop w : workers) assertThat(w.awaitTermination(GENEROUS)).isTrue();
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }
}
