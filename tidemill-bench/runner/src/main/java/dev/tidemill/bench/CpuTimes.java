package dev.tidemill.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * A snapshot of {@code /proc/stat}'s CPU lines (the total and every CPU), to compute over a window
 * how busy given CPUs were and how much time the hypervisor stole.
 *
 * @param cpus per line name ({@code cpu}, {@code cpu0}, ...) its jiffy counters in /proc/stat order:
 *     user nice system idle iowait irq softirq steal guest guest_nice
 */
public record CpuTimes(Map<String, long[]> cpus) {
    private static final int IDLE = 3;
    private static final int IOWAIT = 4;
    private static final int STEAL = 7;

    /** @return the current counters */
    public static CpuTimes now() {
        try {
            return parse(Files.readString(Path.of("/proc/stat")));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * @param procStat the text of /proc/stat
     * @return its CPU lines
     */
    public static CpuTimes parse(String procStat) {
        Map<String, long[]> cpus = new LinkedHashMap<>();
        for (String line : procStat.split("\n")) {
            if (!line.startsWith("cpu")) continue;
            String[] f = line.trim().split("\\s+");
            long[] v = new long[10];
            // guest and guest_nice are already counted in user and nice; older kernels omit fields
            for (int i = 1; i < f.length && i <= 8; i++) v[i - 1] = Long.parseLong(f[i]);
            cpus.put(f[0], v);
        }
        return new CpuTimes(cpus);
    }

    private static long total(long[] v) {
        long t = 0;
        for (int i = 0; i < 8; i++) t += v[i];
        return t;
    }

    private long[] delta(CpuTimes earlier, String cpu) {
        long[] a = earlier.cpus.get(cpu);
        long[] b = cpus.get(cpu);
        if (a == null || b == null) return new long[10];
        long[] d = new long[10];
        for (int i = 0; i < 10; i++) d[i] = b[i] - a[i];
        return d;
    }

    /**
     * @param earlier a snapshot taken before this one
     * @return stolen time as a percentage of all CPU time since then, over all CPUs
     */
    public double stealPercentSince(CpuTimes earlier) {
        long[] d = delta(earlier, "cpu");
        long t = total(d);
        return t == 0 ? 0 : 100.0 * d[STEAL] / t;
    }

    /**
     * @param earlier a snapshot taken before this one
     * @param set CPU numbers
     * @return how busy those CPUs were since then (not idle, not iowait), in percent of their time
     */
    public double busyPercentSince(CpuTimes earlier, Set<Integer> set) {
        long busy = 0;
        long total = 0;
        for (int cpu : set) {
            long[] d = delta(earlier, "cpu" + cpu);
            long t = total(d);
            total += t;
            busy += t - d[IDLE] - d[IOWAIT];
        }
        return total == 0 ? 0 : 100.0 * busy / total;
    }
}
