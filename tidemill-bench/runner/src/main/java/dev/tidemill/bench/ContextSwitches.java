package dev.tidemill.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Context switches of a process, summed over its threads from {@code /proc/<pid>/task/<tid>/status}
 * ({@code voluntary_ctxt_switches}: the thread blocked or parked; {@code nonvoluntary_ctxt_switches}:
 * the scheduler took the CPU away). Unlike the CPU time of {@code /proc/<pid>/stat}, a thread that
 * exits takes its count with it; the JVM's compiler threads can come and go, so a difference over a
 * window can miss a few.
 *
 * @param voluntary voluntary switches so far
 * @param involuntary involuntary switches so far
 */
public record ContextSwitches(long voluntary, long involuntary) {
    private static final Pattern VOLUNTARY = Pattern.compile("(?m)^voluntary_ctxt_switches:\\s+(\\d+)");
    private static final Pattern INVOLUNTARY = Pattern.compile("(?m)^nonvoluntary_ctxt_switches:\\s+(\\d+)");

    /**
     * @param pid a process id
     * @return its threads' switches, summed
     * @throws UncheckedIOException if the process is gone
     */
    public static ContextSwitches of(long pid) {
        long v = 0, n = 0;
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/" + pid + "/task"))) {
            for (Path task : tasks) {
                String status;
                try {
                    status = Files.readString(task.resolve("status"));
                } catch (NoSuchFileException exited) {
                    continue; // the thread ended between the listing and the read
                }
                ContextSwitches s = parse(status);
                v += s.voluntary;
                n += s.involuntary;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new ContextSwitches(v, n);
    }

    /**
     * @param status one {@code /proc/.../status} file
     * @return its two counters (0 for a counter the file lacks)
     */
    public static ContextSwitches parse(String status) {
        return new ContextSwitches(field(VOLUNTARY, status), field(INVOLUNTARY, status));
    }

    private static long field(Pattern p, String status) {
        Matcher m = p.matcher(status);
        return m.find() ? Long.parseLong(m.group(1)) : 0;
    }

    /** @param earlier a reading before this one @return the switches in between */
    public ContextSwitches since(ContextSwitches earlier) {
        return new ContextSwitches(voluntary - earlier.voluntary, involuntary - earlier.involuntary);
    }
}
