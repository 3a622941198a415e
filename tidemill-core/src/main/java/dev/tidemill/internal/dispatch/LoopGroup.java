package dev.tidemill.internal.dispatch;

import dev.tidemill.Assignment;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The worker loops of {@link dev.tidemill.ExecutionMode#LOOP} and the policy that picks one per
 * request.
 *
 * <p>{@link #reserve()} returns a loop with a slot already taken; the caller then calls {@link
 * WorkerLoop#execute} and, when the request is finished, {@link WorkerLoop#release} exactly once.
 * A null return means every loop is at {@link #limitPerLoop()}: answer 503.
 *
 * <p>Least-loaded: the load (queued + in flight) of each loop is read from a rotating start, the
 * scan stops at the first idle loop (load 0, nothing can beat it) and otherwise keeps the smallest.
 * A loop stuck in a CPU-bound handler cannot drain, its load stays high, and traffic routes around
 * it. Round-robin ignores load (except to skip full loops) and exists so a benchmark can show what
 * least-loaded is worth.
 *
 * <p>The rotating start is one shared {@link AtomicInteger} incremented per call. A per-caller
 * counter (thread-local per I/O thread) would avoid one contended cache line, but {@code reserve}
 * already reads every scanned loop's load line and CASes the chosen one, so the counter adds a
 * cost of the same kind, not a new one; in exchange rotation is exact (fair tie-breaking even with
 * one caller thread, and deterministic for tests) and the class needs no thread-local state.
 */
public final class LoopGroup implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LoopGroup.class);
    /** How long {@link #close()} waits for each loop to finish its queued tasks. */
    private static final Duration CLOSE_WAIT = Duration.ofSeconds(5);

    private final WorkerLoop[] loops;
    private final List<WorkerLoop> view;
    private final int limit;
    private final Assignment assignment;
    private final AtomicInteger cursor = new AtomicInteger();
    private final AtomicBoolean closed = new AtomicBoolean();

    /**
     * Starts {@code loops} worker loop threads named {@code tidemill-loop-0} onwards.
     *
     * @param loops number of worker loops, at least 1 (the server default is one per processor)
     * @param concurrencyPerLoop slots per loop, queued + in flight, 1 to 2^24 (server default 1,024)
     * @param assignment how {@link #reserve()} picks a loop
     */
    public LoopGroup(int loops, int concurrencyPerLoop, Assignment assignment) {
        if (loops < 1) {
            throw new IllegalArgumentException("loops must be >= 1: " + loops);
        }
        this.assignment = Objects.requireNonNull(assignment, "assignment");
        this.limit = concurrencyPerLoop;
        this.loops = new WorkerLoop[loops];
        try {
            for (int i = 0; i < loops; i++) {
                this.loops[i] = new WorkerLoop(i, concurrencyPerLoop);
            }
        } catch (RuntimeException | Error e) {
            // Do not leak the non-daemon threads already started.
            for (WorkerLoop loop : this.loops) {
                if (loop != null) {
                    loop.shutdown();
                }
            }
            throw e;
        }
        this.view = List.of(this.loops);
    }

    /**
     * Picks a loop per the {@link Assignment} and reserves one slot on it.
     *
     * @return the loop, with one slot reserved that the caller must {@link WorkerLoop#release}
     *     exactly once; null if every loop is full
     */
    public WorkerLoop reserve() {
        if (loops.length == 1) return loops[0].tryReserve(limit) ? loops[0] : null; // nothing to choose
        // floorMod: the counter wraps to negative after 2^31 calls; the rotation just continues.
        int start = Math.floorMod(cursor.getAndIncrement(), loops.length);
        return assignment == Assignment.LEAST_LOADED ? leastLoaded(start) : roundRobin(start);
    }

    private WorkerLoop leastLoaded(int start) {
        WorkerLoop[] all = loops;
        int n = all.length;
        int best = start;
        int bestLoad = Integer.MAX_VALUE;
        for (int i = 0, idx = start; i < n; i++, idx = next(idx, n)) {
            int load = all[idx].load();
            if (load < bestLoad) {
                best = idx;
                bestLoad = load;
                if (load == 0) {
                    break; // idle: nothing can beat it, stop reading other loops' lines
                }
            }
        }
        if (bestLoad < limit && all[best].tryReserve(limit)) {
            return all[best];
        }
        // Raced to full (or every loop looked full): try the rest in scan order before a 503.
        for (int i = 0, idx = start; i < n; i++, idx = next(idx, n)) {
            if (idx != best && all[idx].tryReserve(limit)) {
                return all[idx];
            }
        }
        return null;
    }

    private WorkerLoop roundRobin(int start) {
        WorkerLoop[] all = loops;
        int n = all.length;
        for (int i = 0, idx = start; i < n; i++, idx = next(idx, n)) {
            if (all[idx].tryReserve(limit)) {
                return all[idx];
            }
        }
        return null;
    }

    private static int next(int idx, int n) {
        return idx + 1 == n ? 0 : idx + 1;
    }

    /** @return the loops, in index order; unmodifiable */
    public List<WorkerLoop> loops() {
        return view;
    }

    /** @return number of loops */
    public int size() {
        return loops.length;
    }

    /** @return slots per loop (queued + in flight) past which a loop is full */
    public int limitPerLoop() {
        return limit;
    }

    /** @return sum of every loop's load; a racy snapshot, for metrics and tests */
    public int totalLoad() {
        int total = 0;
        for (WorkerLoop loop : loops) {
            total += loop.load();
        }
        return total;
    }

    /** @return loop threads still alive (0 once {@link #close()} has finished) */
    public int running() {
        int n = 0;
        for (WorkerLoop loop : loops) {
            if (loop.isAlive()) n++;
        }
        return n;
    }

    /** @return sum of every loop's {@link WorkerLoop#wakeups()} */
    public long wakeups() {
        long total = 0;
        for (WorkerLoop loop : loops) {
            total += loop.wakeups();
        }
        return total;
    }

    /**
     * Shuts every loop down (they finish what is queued) and waits up to 5 seconds for each.
     * Idempotent. A loop still running after that (a handler that never returns) is logged and left
     * behind. Called from a loop's own thread, does not wait for that loop. If interrupted, stops
     * waiting and keeps the interrupt flag set.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        for (WorkerLoop loop : loops) {
            loop.shutdown();
        }
        for (WorkerLoop loop : loops) {
            if (loop.inLoop()) {
                continue; // closed from a handler: this loop exits once the handler returns
            }
            try {
                if (!loop.awaitTermination(CLOSE_WAIT)) {
                    LOG.warn("tidemill-loop-{} did not stop within {}", loop.index(), CLOSE_WAIT);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
