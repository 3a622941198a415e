package dev.tidemill.internal.exchange;

import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The calling platform thread's two clocks that tell a handler that waited from one that computed or
 * was preempted ({@link AutoMode}): its CPU time, and its run-queue delay, the time it was ready to
 * run but another thread had the CPU ({@code /proc/thread-self/schedstat}, second field, which the
 * kernel adds to when the thread gets the CPU back). Wall time less both is time spent waiting: a
 * lock, I/O, a sleep. Without the run-queue delay, a handler preempted for a scheduler slice (1.5 to
 * 3 ms on a busy CPU) would look like one that blocked.
 *
 * <p>Each read is a system call ({@code clock_gettime} of the thread's CPU clock, a positional read of
 * schedstat), where {@link System#nanoTime} is not; {@link AutoMode} reads them on a sample of calls.
 * The CPU field of schedstat is not used: it is the time as of the last scheduler tick, milliseconds
 * stale while the thread runs. One instance
 * per thread (the file names the thread that opened it); a virtual thread has neither clock of its
 * own and never asks.
 */
final class ThreadClocks {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final GarbageCollectorMXBean[] COLLECTORS = ManagementFactory.getGarbageCollectorMXBeans()
            .toArray(GarbageCollectorMXBean[]::new);
    private static final Path SCHEDSTAT = Path.of("/proc/thread-self/schedstat");
    /** Whether this system reports run-queue delay per thread (Linux with schedstat). */
    static final boolean RUN_DELAY = Files.isReadable(SCHEDSTAT);
    private static final ThreadLocal<ThreadClocks> MINE = ThreadLocal.withInitial(ThreadClocks::new);

    private final FileChannel schedstat;
    private final ByteBuffer buffer = ByteBuffer.allocate(96);
    private long lastRunDelay;
    private long lastCollections;

    private ThreadClocks() {
        FileChannel f = null;
        if (RUN_DELAY) {
            try {
                f = FileChannel.open(SCHEDSTAT.toRealPath(), StandardOpenOption.READ); // this thread's own file
            } catch (IOException | RuntimeException e) {
                f = null;
            }
        }
        schedstat = f;
        lastRunDelay = runDelay();
        lastCollections = collections();
    }

    /** @return the calling thread's clocks */
    static ThreadClocks mine() {
        return MINE.get();
    }

    /** @return the thread's CPU time, in nanoseconds */
    long cpu() {
        return THREADS.getCurrentThreadCpuTime();
    }

    /** @return the thread's run-queue delay so far, in nanoseconds; 0 where the system does not say */
    long runDelay() {
        if (schedstat == null) return 0;
        try {
            buffer.clear();
            schedstat.read(buffer, 0);
            long value = 0;
            int i = 0, limit = buffer.position();
            while (i < limit && buffer.get(i) != ' ') i++; // skip the CPU field
            for (i++; i < limit; i++) {
                byte b = buffer.get(i);
                if (b < '0' || b > '9') break;
                value = value * 10 + (b - '0');
            }
            lastRunDelay = value;
            return value;
        } catch (IOException e) {
            return lastRunDelay;
        }
    }

    /**
     * @return garbage collections so far, every collector: a call that saw one may
     *     have stood still in its pause, which is neither work nor a wait of its own
     */
    long collections() {
        long n = 0;
        for (GarbageCollectorMXBean c : COLLECTORS) n += Math.max(0, c.getCollectionCount());
        lastCollections = n;
        return n;
    }

    /**
     * @return the run-queue delay since this thread's clocks were last read: at least the delay within
     *     the call that just ended (more if the thread was preempted before it), in nanoseconds
     */
    long runDelaySinceLastRead() {
        long before = lastRunDelay;
        return Math.max(0, runDelay() - before);
    }

    /**
     * How long a call that ended now may have held the thread, from its wall time, counting against
     * it only what it surely did not spend preempted or in a collection's pause. Read only for a call
     * off the CPU 1 ms or more (rare), so the common call pays for neither file read nor collector
     * count; the price is that the run-queue delay is the thread's since its clocks were last read,
     * which may be more than the call's: a wait can be missed once, never invented.
     *
     * @param wall the call's wall time, in nanoseconds
     * @return wall time less the run-queue delay since these clocks were last read (at least the
     *     call's own), or -1 when a collection ran since then (a pause may explain it all)
     */
    long heldSinceLastRead(long wall) {
        long delay = lastRunDelay, gcs = lastCollections;
        long held = wall - Math.max(0, runDelay() - delay);
        return collections() != gcs ? -1 : held;
    }
}
