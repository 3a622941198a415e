package dev.tidemill.tests.hardening;

import static org.awaitility.Awaitility.await;

import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.util.ResourceLeakDetector;
import java.lang.reflect.Field;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Counts Netty buffers that were garbage-collected without being released, using Netty's own leak
 * detector switched to {@code PARANOID} (every buffer allocated while a watch is open is tracked,
 * instead of a sample of them, see Netty's {@code io.netty.leakDetection.samplingInterval}). The detector reports through a listener on the detector every allocator
 * uses; a report means a buffer's memory was lost to its pool.
 *
 * <p>A watch first leaks one buffer on purpose and waits until the detector reports it, so a test
 * that finds "no leaks" has proven the detector was listening. Every check waits for a report in
 * the same way instead of sleeping for the collector.
 */
final class BufferLeaks implements AutoCloseable {
    private static final List<String> REPORTS = new CopyOnWriteArrayList<>();
    /** The start of the record every deliberate leak carries. */
    private static final String SENTINEL = "deliberate leak ";

    static {
        try {
            // The detector is a package-private static of AbstractByteBuf; there is no public handle.
            Field f = Class.forName("io.netty.buffer.AbstractByteBuf").getDeclaredField("leakDetector");
            f.setAccessible(true);
            ResourceLeakDetector<?> detector = (ResourceLeakDetector<?>) f.get(null);
            detector.setLeakListener((type, records) -> REPORTS.add(type + ": " + records));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final ResourceLeakDetector.Level previous = ResourceLeakDetector.getLevel();
    private int baseline;

    private BufferLeaks() {
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);
    }

    /** Opens a watch after proving the detector reports a deliberate leak. */
    static BufferLeaks watch() {
        BufferLeaks watch = new BufferLeaks();
        awaitReported(leakOne());
        watch.baseline = REPORTS.size();
        return watch;
    }

    /**
     * Leaks one tracked buffer whose record is unique (or the detector would de-duplicate its report
     * against an earlier one).
     *
     * @return the record, which the leak report will contain
     */
    private static String leakOne() {
        String marker = SENTINEL + System.nanoTime();
        PooledByteBufAllocator.DEFAULT.directBuffer(64).touch(marker);
        return marker;
    }

    /** Collects and allocates until a report containing {@code marker} arrives (generous bound). */
    private static void awaitReported(String marker) {
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50))
                .until(() -> {
                    collect();
                    return REPORTS.stream().anyMatch(r -> r.contains(marker));
                });
    }

    /** Runs the collector and then allocates, because the detector only reports from allocations. */
    private static void collect() {
        System.gc();
        for (ByteBufAllocator a : List.of(PooledByteBufAllocator.DEFAULT, ByteBufAllocator.DEFAULT)) {
            for (int i = 0; i < 16; i++) a.directBuffer(32).release();
        }
    }

    /**
     * Waits until every buffer that was unreachable at the call has been collected and reported,
     * then returns the reports since the watch opened or since the last call (the deliberate leaks
     * of the watch itself left out).
     *
     * <p>The signal is two sentinel leaks, one after the other: the second is created only once the
     * first was reported, so a collection after the call has found every buffer that was already
     * garbage, and the reference handler, which enqueues one collection's references before the
     * next one's, has queued them all before the second sentinel; the detector drains its whole
     * queue on the allocation that reports the sentinel.
     *
     * @return the leak reports of buffers the code under test dropped without releasing them
     */
    List<String> newLeaks() {
        awaitReported(leakOne());
        awaitReported(leakOne());
        int now = REPORTS.size();
        List<String> leaks = REPORTS.subList(baseline, now).stream().filter(r -> !r.contains(SENTINEL)).toList();
        baseline = now;
        return leaks;
    }

    @Override
    public void close() {
        ResourceLeakDetector.setLevel(previous);
    }
}
