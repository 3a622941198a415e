package dev.tidemill.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * CPU time of a process from {@code /proc/<pid>/stat}: utime + stime, which the kernel sums over
 * all of the process's threads (including threads that have exited), in clock ticks.
 */
public final class ProcessCpu {
    /** Clock ticks per second ({@code getconf CLK_TCK}); 100 on every Linux we run on. */
    public static final long TICKS_PER_SECOND = clockTicks();

    private ProcessCpu() {}

    /**
     * @param pid a process id
     * @return its utime + stime in ticks
     * @throws IOException if the process is gone
     */
    public static long ticks(long pid) throws IOException {
        return parseTicks(Files.readString(Path.of("/proc/" + pid + "/stat")));
    }

    /**
     * Parses a {@code /proc/<pid>/stat} line. The command name (field 2) is in parentheses and may
     * hold spaces and parentheses itself, so fields are counted from the last {@code ')'}.
     *
     * @param stat the file's content
     * @return utime (field 14) + stime (field 15)
     */
    public static long parseTicks(String stat) {
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split("\\s+");
        // f[0] is field 3 (state), so field n is f[n - 3]
        return Long.parseLong(f[11]) + Long.parseLong(f[12]);
    }

    /**
     * @param ticks clock ticks
     * @return microseconds
     */
    public static double micros(long ticks) {
        return ticks * 1e6 / TICKS_PER_SECOND;
    }

    private static long clockTicks() {
        try {
            Process p = new ProcessBuilder("getconf", "CLK_TCK").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes()).trim();
            p.waitFor();
            return Long.parseLong(out);
        } catch (IOException | RuntimeException e) {
            return 100;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 100;
        }
    }
}
