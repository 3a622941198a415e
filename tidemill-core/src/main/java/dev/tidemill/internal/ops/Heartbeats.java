package dev.tidemill.internal.ops;

import dev.tidemill.internal.dispatch.WorkerLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.util.concurrent.EventExecutor;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * Liveness: is every worker loop and I/O event loop still taking work? A thread of its own (not
 * one of the loops, which is what it watches) submits a probe task to each loop every
 * {@link #INTERVAL} and notes when it ran. A loop whose probe has waited longer than
 * {@code stuckAfter} is stuck: it is running one task that does not end (a handler in an endless
 * loop, a deadlock, a blocking call on an event loop). A busy loop is not stuck: it runs the probe
 * between two tasks, however many are queued before it (each a request of at most its timeout).
 * Only one probe per loop is ever outstanding, so a stuck loop's queue gains one task, not one a
 * second. The time a probe waits is also the loop's wake latency ({@code tidemill.loop.wake.latency}).
 */
final class Heartbeats implements AutoCloseable {
    /** How often each loop is probed. Fixed: a probe costs one task per loop, and a second is finer than any threshold. */
    static final Duration INTERVAL = Duration.ofSeconds(1);

    /** One watched loop. {@code sentAt} is written by the heartbeat thread, {@code answered} and {@code wake} by the loop. */
    static final class Watched {
        final String name;
        final String kind;
        final Predicate<Runnable> submit;
        final LoopWait wake = new LoopWait();
        volatile long sentAt;
        volatile boolean answered = true;

        Watched(String name, String kind, Predicate<Runnable> submit) {
            this.name = name;
            this.kind = kind;
            this.submit = submit;
        }

        void probe() {
            if (!answered) return; // the last probe has not run yet: stuck, or about to run
            long sent = System.nanoTime();
            sentAt = sent;
            answered = false;
            if (!submit.test(() -> {
                wake.record(System.nanoTime() - sent);
                answered = true;
            })) {
                answered = true; // shut down: nothing to wait for
            }
        }
    }

    /** A loop that has not run its probe for longer than the threshold. */
    record Stuck(String loop, String kind, long unansweredMillis) {}

    private final long stuckAfterNanos;
    private final List<Watched> loops = new ArrayList<>();
    private ScheduledExecutorService timer;

    Heartbeats(Duration stuckAfter) {
        this.stuckAfterNanos = stuckAfter.toNanos();
    }

    /** Starts probing the loops of a server that is up. */
    synchronized void start(EventLoopGroup io, List<WorkerLoop> workers) {
        int i = 0;
        for (EventExecutor e : io) {
            String name = "tidemill-io-" + i++;
            loops.add(new Watched(name, "io", task -> {
                if (e.isShuttingDown()) return false;
                e.execute(task);
                return true;
            }));
        }
        for (WorkerLoop w : workers) {
            loops.add(new Watched(w.name(), "worker", w::probe));
        }
        timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "tidemill-heartbeat");
            t.setDaemon(true);
            return t;
        });
        timer.scheduleWithFixedDelay(this::probeAll, 0, INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void probeAll() {
        for (Watched w : loops) {
            try {
                w.probe();
            } catch (RuntimeException e) {
                w.answered = true; // a loop that refuses tasks is shutting down
            }
        }
    }

    /** @return the loops stuck now, empty when all are live (or the server is not up yet) */
    synchronized List<Stuck> stuck() {
        long now = System.nanoTime();
        List<Stuck> out = new ArrayList<>();
        for (Watched w : loops) {
            long waited = now - w.sentAt;
            if (!w.answered && waited > stuckAfterNanos) out.add(new Stuck(w.name, w.kind, waited / 1_000_000));
        }
        return out;
    }

    /** @return the watched loops, once started */
    synchronized List<Watched> watched() {
        return List.copyOf(loops);
    }

    /** @return the threshold, in milliseconds */
    long stuckAfterMillis() {
        return stuckAfterNanos / 1_000_000;
    }

    @Override
    public synchronized void close() {
        if (timer != null) timer.shutdownNow();
    }
}
