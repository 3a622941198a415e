package dev.tidemill.bench;

import dev.tidemill.bench.MemorySuite.LoopRow;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.ToLongFunction;

/**
 * The memory suite's loop ladder: Tidemill in LOOP mode started at each of
 * {@link MemorySuite#LOOPS} worker loops, its RSS, live heap and thread count read idle, and the
 * slope of each reading per extra loop.
 */
final class LoopLadder {
    private LoopLadder() {}

    /**
     * @param cpus where the server is pinned
     * @param work where each start's log goes
     * @param out progress
     * @return one row per loop count that started
     */
    static List<LoopRow> measure(CpuSets cpus, Path work, PrintStream out) {
        List<LoopRow> loops = new ArrayList<>();
        for (int n : MemorySuite.LOOPS) {
            Target t = TargetCatalog.tidemill("tidemill-loop-x" + n, Map.of("TIDEMILL_MODE", "loop"), n);
            try (RunningTarget running = RunningTarget.start(MemorySuite.withNmt(t), cpus, work.resolve("loops-" + n))) {
                MemorySuite.firstAnswer(running.port(), System.nanoTime() + TimeUnit.SECONDS.toNanos(30));
                MemorySuite.sleep(MemorySuite.SETTLE_MILLIS);
                long heap = JvmReadings.liveHeapKb(running.pid());
                LoopRow row = new LoopRow(n, JvmReadings.rssKb(running.pid()), heap, JvmReadings.threads(running.pid()));
                loops.add(row);
                out.printf(Locale.ROOT, "tidemill loop x%d: RSS %,d KiB, live heap %,d KiB, %d threads%n", n, row.rssKb(),
                        row.heapKb(), row.threads());
            } catch (RuntimeException e) {
                out.println("tidemill loop x" + n + " FAILED: " + e.getMessage());
            }
        }
        return loops;
    }

    /** Least-squares slope of a reading over the loop count (KiB per extra loop); NaN below two points. */
    static double slope(List<LoopRow> rows, ToLongFunction<LoopRow> reading) {
        List<LoopRow> ok = rows.stream().filter(r -> reading.applyAsLong(r) >= 0).toList();
        if (ok.size() < 2) return Double.NaN;
        double mx = ok.stream().mapToDouble(LoopRow::loops).average().orElse(0);
        double my = ok.stream().mapToDouble(reading::applyAsLong).average().orElse(0);
        double num = 0, den = 0;
        for (LoopRow r : ok) {
            num += (r.loops() - mx) * (reading.applyAsLong(r) - my);
            den += (r.loops() - mx) * (r.loops() - mx);
        }
        return den == 0 ? Double.NaN : num / den;
    }
}
