package dev.tidemill.hardening;

import static org.awaitility.Awaitility.await;

import io.netty.buffer.ByteBuf;
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
 * instead of one in 128). The detector reports through a listener on the detector every allocator
 * uses; a report means a buffer's memory was lost to its pool.
 *
 * <p>A watch first leaks one buffer on purpose and waits until the detector reports it, so a test
 * that finds "no leaks" has proven the detector was listening.
 */
final class BufferLeaks implements AutoCloseable {
    private static final List<String> REPORTS = new CopyOnWriteArrayList<>();

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
        int before = REPORTS.size();
        leakOne();
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(200)).until(() -> {
            collect();
            return REPORTS.size() > before;
        });
        watch.baseline = REPORTS.size();
        return watch;
    }

    private static void leakOne() {
        ByteBuf b = PooledByteBufAllocator.DEFAULT.directBuffer(64);
        // a unique record, or the detector would de-duplicate this report against an earlier one
        b.touch("deliberate leak " + System.nanoTime());
    }

    /** Runs the collector and then allocates, because the detector only reports from allocations. */
    private static void collect() {
        System.gc();
        for (ByteBufAllocator a : List.of(PooledByteBufAllocator.DEFAULT, ByteBufAllocator.DEFAULT)) {
            for (int i = 0; i < 16; i++) a.directBuffer(32).release();
        }
    }

    /**
     * @return the leak reports since the watch opened or since the last call, after a few
     *     collections spaced 100 ms apart (the reference handler queues collected buffers
     *     asynchronously)
     */
    List<String> newLeaks() throws InterruptedException {
        for (int i = 0; i < 5; i++) {
            collect();
            Thread.sleep(100);
        }
        collect();
        int now = REPORTS.size();
        List<String> leaks = List.copyOf(REPORTS.subList(baseline, now));
        baseline = now;
        return leaks;
    }

    @Override
    public void close() {
        ResourceLeakDetector.setLevel(previous);
    }
}
