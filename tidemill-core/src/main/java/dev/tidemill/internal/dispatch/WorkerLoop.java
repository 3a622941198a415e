package dev.tidemill.internal.dispatch;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;
import java.util.ArrayList;
import java.util.concurrent.atomic.LongAdder;
import io.netty.util.concurrent.FastThreadLocalThread;
import java.util.concurrent.locks.LockSupport;
import org.jctools.queues.MpscArrayQueue;
import org.jctools.util.Pow2;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/*
 * Padding. The two fields every producer touches on every dispatch (load, notified) live alone on
 * their own cache lines: 128 bytes before, 128 after (two 64-byte lines, because Intel's adjacent
 * line prefetcher pulls lines in pairs). Without it, a LoopGroup allocates its loops back to back
 * and loop i's load can share a line with loop i+1's, so a release on one loop would invalidate the
 * line I/O threads are reading to scan the other. @Contended would do this, but it needs
 * --add-exports and -XX:-RestrictContended on every JVM we start, so we pad by hand.
 *
 * Why a class hierarchy and why bytes: the JVM reorders fields within a class but lays out a
 * superclass's fields before a subclass's. Byte-sized pad fields (the JCTools convention) leave no
 * holes the layout could backfill with a subclass field. Checked with field offsets on JDK 25:
 * load at 140, notified at 144, pad bytes 12..139 and 145..272, the loop's own fields after 272.
 */

/** 128 bytes that keep {@link WorkerLoopHotFields} off the line of whatever precedes the loop. */
abstract class WorkerLoopLeftPad {
    byte p000, p001, p002, p003, p004, p005, p006, p007, p008, p009, p010, p011, p012, p013, p014, p015;
    byte p016, p017, p018, p019, p020, p021, p022, p023, p024, p025, p026, p027, p028, p029, p030, p031;
    byte p032, p033, p034, p035, p036, p037, p038, p039, p040, p041, p042, p043, p044, p045, p046, p047;
    byte p048, p049, p050, p051, p052, p053, p054, p055, p056, p057, p058, p059, p060, p061, p062, p063;
    byte p064, p065, p066, p067, p068, p069, p070, p071, p072, p073, p074, p075, p076, p077, p078, p079;
    byte p080, p081, p082, p083, p084, p085, p086, p087, p088, p089, p090, p091, p092, p093, p094, p095;
    byte p096, p097, p098, p099, p100, p101, p102, p103, p104, p105, p106, p107, p108, p109, p110, p111;
    byte p112, p113, p114, p115, p116, p117, p118, p119, p120, p121, p122, p123, p124, p125, p126, p127;
}

/** The fields producers read and write on every dispatch. Accessed through VarHandles in WorkerLoop. */
abstract class WorkerLoopHotFields extends WorkerLoopLeftPad {
    /** Queued + in flight. Written by reserving I/O threads and by whoever releases. */
    volatile int load;
    /** True while the loop is awake or a wakeup is already on its way; producers then skip unpark. */
    volatile boolean notified;
}

/** 128 bytes that keep the loop's own mutable fields (and the next object) off the hot line. */
abstract class WorkerLoopRightPad extends WorkerLoopHotFields {
    byte q000, q001, q002, q003, q004, q005, q006, q007, q008, q009, q010, q011, q012, q013, q014, q015;
    byte q016, q017, q018, q019, q020, q021, q022, q023, q024, q025, q026, q027, q028, q029, q030, q031;
    byte q032, q033, q034, q035, q036, q037, q038, q039, q040, q041, q042, q043, q044, q045, q046, q047;
    byte q048, q049, q050, q051, q052, q053, q054, q055, q056, q057, q058, q059, q060, q061, q062, q063;
    byte q064, q065, q066, q067, q068, q069, q070, q071, q072, q073, q074, q075, q076, q077, q078, q079;
    byte q080, q081, q082, q083, q084, q085, q086, q087, q088, q089, q090, q091, q092, q093, q094, q095;
    byte q096, q097, q098, q099, q100, q101, q102, q103, q104, q105, q106, q107, q108, q109, q110, q111;
    byte q112, q113, q114, q115, q116, q117, q118, q119, q120, q121, q122, q123, q124, q125, q126, q127;
}

/**
 * One worker loop of {@link dev.tidemill.ExecutionMode#LOOP}: a platform thread named {@code
 * tidemill-loop-<index>} that runs tasks from a lock-free bounded multi-producer queue and parks
 * when the queue is empty.
 *
 * <p>Slots are explicit: a dispatcher {@link #tryReserve reserves} a slot, hands the task to {@link
 * #execute}, and whoever finishes the request calls {@link #release} exactly once. {@link #load}
 * is therefore queued + in flight, and it bounds the number of queued tasks, so the queue (sized
 * from the concurrency limit) can never overflow for reserved tasks. The loop never releases on
 * its own, not even when a task throws: finishing a request is the caller's business.
 *
 * <h2>No stranded push</h2>
 *
 * Producer ({@link #execute}): offer, which claims a queue index with a CAS on the producer index
 * (a full fence), then read {@code notified}; if false, CAS it to true and unpark. Loop: after a
 * drain, write {@code notified = false} (volatile), then drain again with {@code poll()}, which
 * reads the producer index. This is Dekker's pattern: both sides write one variable and then read
 * the other, all with sequentially consistent accesses, so at least one sees the other's write.
 * Either the loop's final poll sees the claimed index (and {@code poll()} spins until the element
 * is published, where {@code relaxedPoll()} would return null and strand it), or the producer
 * sees {@code notified == false} and unparks. An unpark that lands before the park is not lost:
 * LockSupport keeps it as a permit and the park returns at once. If the producer sees {@code true}
 * instead, either another producer's unpark is on its way or the loop is awake and will clear the
 * flag and drain again before it can park.
 */
public final class WorkerLoop extends WorkerLoopRightPad {
    private static final Logger LOG = LoggerFactory.getLogger(WorkerLoop.class);
    private static final VarHandle LOAD;
    private static final VarHandle NOTIFIED;
    /** Largest supported concurrency limit; the queue array is sized from it. */
    static final int MAX_LIMIT = 1 << 24;
    /** Extra queue capacity beyond the limit. Not needed by the invariant; a margin only. */
    private static final int HEADROOM = 8;
    /** Tasks whose replies may wait for one event-loop wake at most. */
    private static final int REPLY_BATCH = 16;
    /** Tasks between two updates of {@link #completedTasks()} while a drain is running. */
    private static final int PUBLISH_EVERY = 256;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            LOAD = lookup.findVarHandle(WorkerLoopHotFields.class, "load", int.class);
            NOTIFIED = lookup.findVarHandle(WorkerLoopHotFields.class, "notified", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final int index;
    private final int limit;
    private final MpscArrayQueue<Runnable> queue;
    private final WorkerThread thread;
    /** Reply batchers the current drain submitted to: their drains are scheduled once, at its end. Loop thread only. */
    private final ArrayList<ResponseBatcher> deferredDrains = new ArrayList<>(2);
    private final LongAdder wakeups = new LongAdder();
    private volatile boolean running = true;
    /** Written by the loop thread only, in batches (not per task) to keep the line quiet. */
    private volatile long completed;

    /**
     * Creates the loop and starts its thread. The thread is not a daemon, like Netty's event loops:
     * a server keeps the JVM alive until it is closed, so {@link #shutdown} must be called.
     *
     * @param index position in the group, used in the thread name {@code tidemill-loop-<index>}
     * @param concurrencyLimit the largest limit {@link #tryReserve} will be called with, 1 to 2^24;
     *     the queue capacity is the next power of two at or above {@code concurrencyLimit + 8}
     */
    public WorkerLoop(int index, int concurrencyLimit) {
        if (index < 0) {
            throw new IllegalArgumentException("index must be >= 0: " + index);
        }
        if (concurrencyLimit < 1 || concurrencyLimit > MAX_LIMIT) {
            throw new IllegalArgumentException(
                    "concurrencyLimit must be 1.." + MAX_LIMIT + ": " + concurrencyLimit);
        }
        this.index = index;
        this.limit = concurrencyLimit;
        this.queue = new MpscArrayQueue<>(Pow2.roundToPowerOfTwo(concurrencyLimit + HEADROOM));
        // Awake at birth: producers skip the unpark until the loop first clears the flag.
        NOTIFIED.setVolatile(this, true);
        // A FastThreadLocalThread: Netty's pooled allocator gives such threads a cache, so bodies
        // encoded on the worker do not contend for an arena's lock with the event loops.
        this.thread = new WorkerThread(this, "tidemill-loop-" + index);
        // Daemon: a handler stuck in a loop forever must not keep the JVM alive after a graceful
        // stop has given up on it (the stop closes the loops; exit is then up to main).
        this.thread.setDaemon(true);
        // Last statement: Thread.start() happens-before the loop body, and the class is final, so
        // the loop never sees a partly constructed object.
        this.thread.start();
    }

    /** @return this loop's position in its group, from 0 */
    public int index() {
        return index;
    }

    /** @return queued + in-flight tasks: slots reserved and not yet released */
    public int load() {
        return load;
    }

    /**
     * Takes one slot if fewer than {@code limit} are taken.
     *
     * @param limit the concurrency limit for this loop, 1 to the constructor's {@code concurrencyLimit}
     * @return true if a slot was reserved (the caller must later {@link #release} it exactly once),
     *     false if the loop is full
     */
    public boolean tryReserve(int limit) {
        if (limit < 1 || limit > this.limit) {
            throw new IllegalArgumentException("limit must be 1.." + this.limit + ": " + limit);
        }
        int current;
        do {
            current = load;
            if (current >= limit) {
                return false;
            }
        } while (!LOAD.weakCompareAndSet(this, current, current + 1));
        return true;
    }

    /**
     * Gives back one slot taken by {@link #tryReserve}. Call exactly once per reservation, when the
     * request is finished, from any thread.
     *
     * @throws IllegalStateException if no slot is reserved: a double release, which is a bug
     */
    public void release() {
        int current;
        do {
            current = load;
            if (current <= 0) {
                // A CAS loop rather than getAndDecrement: a transient -1 would let a racing
                // tryReserve count it as a free slot before we could undo it.
                throw new IllegalStateException("release without reservation on " + thread.getName());
            }
        } while (!LOAD.weakCompareAndSet(this, current, current - 1));
    }

    /**
     * Queues a task for which a slot is already reserved and wakes the loop if it is parked or about
     * to park. At most one unpark per burst: while the loop is awake, producers skip it.
     *
     * @param task run once on the loop thread; exceptions are logged, the slot is not released
     * @throws RejectedExecutionException if {@link #shutdown} was called (release the slot)
     * @throws IllegalStateException if the queue is full, which the reservation makes impossible
     *     unless a slot was used twice
     */
    public void execute(Runnable task) {
        if (!running) {
            throw new RejectedExecutionException(thread.getName() + " is shut down");
        }
        if (!queue.offer(task)) {
            throw new IllegalStateException("queue full on " + thread.getName() + " with load " + load
                    + ": a task was executed without a reserved slot");
        }
        // Read before anything else: in a burst the loop is awake, the read sees true and we are done.
        // On an event loop the wake waits for the end of its iteration, so a read burst wakes once.
        if (!notified && !WakeBatch.defer(this)) wake();
    }

    /**
     * Queues a liveness probe without a reserved slot and wakes the loop: what {@code /livez} times
     * ({@code internal.ops.Heartbeats}). It uses the queue's headroom, so the caller must have at most
     * one probe outstanding per loop (it sends the next only after the last one ran); a loop that is
     * shut down is skipped.
     *
     * @param probe run once on the loop thread, between two tasks
     * @return whether it was queued
     */
    public boolean probe(Runnable probe) {
        if (!running || !queue.offer(probe)) return false;
        // Woken now (this is no event loop's iteration), and not counted in wakeups(): those are
        // what requests cost, which the benchmark divides by requests.
        if (!notified && NOTIFIED.compareAndSet(this, false, true)) LockSupport.unpark(thread);
        return true;
    }

    /** @return tasks waiting in the queue now (at most {@link #load()}); the rest of the load is in flight */
    public int queued() {
        return queue.size();
    }

    /** @return the loop thread's name, {@code tidemill-loop-<index>} */
    public String name() {
        return thread.getName();
    }

    /** Unparks the loop unless it is awake or a wakeup is already on its way; after a task was queued. */
    void wake() {
        if (!notified && NOTIFIED.compareAndSet(this, false, true)) {
            wakeups.increment();
            LockSupport.unpark(thread);
        }
    }

    /** @return the worker loop the calling thread runs, or null */
    static WorkerLoop current() {
        return Thread.currentThread() instanceof WorkerThread w ? w.loop : null;
    }

    /** A reply was queued on {@code batcher} from this loop: its drain is scheduled when this loop's drain ends. */
    void deferDrain(ResponseBatcher batcher) {
        for (int i = 0; i < deferredDrains.size(); i++) {
            if (deferredDrains.get(i) == batcher) return;
        }
        deferredDrains.add(batcher);
    }

    private void scheduleDeferredDrains() {
        for (int i = 0; i < deferredDrains.size(); i++) deferredDrains.get(i).scheduleDrain();
        deferredDrains.clear();
    }

    /** The loop's thread: a {@link FastThreadLocalThread} that knows its loop. */
    private static final class WorkerThread extends FastThreadLocalThread {
        final WorkerLoop loop;

        WorkerThread(WorkerLoop loop, String name) {
            super(loop::run, name);
            this.loop = loop;
        }
    }

    /** @return whether the loop's thread is still running */
    public boolean isAlive() {
        return thread.isAlive();
    }

    /** @return whether the calling thread is some worker loop's thread (where a handler must not block) */
    public static boolean onWorkerThread() {
        return Thread.currentThread() instanceof WorkerThread;
    }

    /** @return true if the calling thread is this loop's thread */
    public boolean inLoop() {
        return Thread.currentThread() == thread;
    }

    /**
     * @return tasks run so far, including ones that threw; published every 256 tasks and at the end
     *     of each drain, so it may lag by up to 255 while the loop is busy
     */
    public long completedTasks() {
        return completed;
    }

    /** @return unparks issued by producers: at most one per burst */
    public long wakeups() {
        return wakeups.sum();
    }

    /**
     * Stops accepting tasks and wakes the loop, which runs what is already queued and exits.
     * Idempotent. A task that races with this call may be stranded, so stop I/O first.
     */
    public void shutdown() {
        running = false;
        LockSupport.unpark(thread);
    }

    /**
     * Waits for the loop thread to exit after {@link #shutdown}.
     *
     * @param timeout how long to wait at most
     * @return true if the thread has exited
     * @throws InterruptedException if the caller is interrupted while waiting
     * @throws IllegalStateException if called from the loop itself, which would wait for itself
     */
    public boolean awaitTermination(Duration timeout) throws InterruptedException {
        if (inLoop()) {
            throw new IllegalStateException("awaitTermination called from " + thread.getName());
        }
        return thread.join(timeout);
    }

    private void run() {
        while (true) {
            drain();
            // Clear BEFORE the final drain: a push that races with it either is seen by the poll
            // below or sees false and unparks us (see the class comment).
            NOTIFIED.setVolatile(this, false);
            if (drain() > 0) {
                // Busy again: stop producers from paying for unparks until we next clear.
                NOTIFIED.setOpaque(this, true);
                continue;
            }
            if (!running) {
                return;
            }
            LockSupport.park(this);
            // A task may have interrupted us; a pending interrupt makes park return at once,
            // which would turn this loop into a spin.
            Thread.interrupted();
            // Woken by a producer (who already set true), by shutdown, or spuriously.
            NOTIFIED.setOpaque(this, true);
        }
    }

    /** Runs everything queued, including what arrives meanwhile; returns how many tasks ran. */
    private int drain() {
        int ran = 0;
        int unpublished = 0;
        Runnable task;
        while ((task = queue.poll()) != null) {
            ran++;
            try {
                task.run();
            } catch (Throwable t) {
                LOG.error("Task failed on {}", thread.getName(), t);
            }
            // Replies wait while more tasks are queued right behind (one event-loop wake for the
            // lot), but never for more than REPLY_BATCH tasks, so a slow handler does not hold back
            // the replies of the quick ones before it.
            if (!deferredDrains.isEmpty() && (ran % REPLY_BATCH == 0 || queue.isEmpty())) scheduleDeferredDrains();
            // Publish the count in batches: a volatile store per task would cost a fence each.
            if (++unpublished == PUBLISH_EVERY) {
                completed = completed + unpublished; // single writer: the loop thread
                unpublished = 0;
            }
        }
        if (unpublished > 0) {
            completed = completed + unpublished;
        }
        if (!deferredDrains.isEmpty()) scheduleDeferredDrains();
        return ran;
    }
}
