package dev.tidemill.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * System calls of a process by name, and its context switches, counted over one wrk run by an
 * outside tracer: {@code perf stat -e 'syscalls:sys_enter_*,context-switches,cpu-migrations' -p PID
 * -- wrk ...} (every thread of the process, for exactly as long as wrk runs, so wrk's request count
 * is the window's), or {@code strace -c -f -p PID} stopped when wrk ends (which also counts the
 * calls that failed, such as reads that found nothing: {@code EAGAIN}). Tracing costs the server
 * CPU (strace a lot: every call stops the process), so the window is never the one CPU per request
 * is read from.
 */
public final class SyscallCounts {
    /** The tracers. */
    public enum Tracer {
        /** {@code perf stat} on the {@code syscalls:sys_enter_*} tracepoints: in-kernel counters, cheap. */
        PERF,
        /** {@code strace -c -f}: ptrace, slow, but counts errors per call. */
        STRACE
    }

    /**
     * One counted window.
     *
     * @param tracer who counted
     * @param command the tracer's command line
     * @param calls system calls by name over the window (the {@code sys_enter_} prefix dropped)
     * @param errors calls that returned an error, by name (strace only; empty for perf)
     * @param contextSwitches context switches of the process (perf's {@code context-switches}; -1 for strace)
     * @param migrations CPU migrations (perf; -1 for strace)
     * @param wrk what wrk measured over the same window
     */
    public record Window(Tracer tracer, List<String> command, Map<String, Long> calls, Map<String, Long> errors,
                         long contextSwitches, long migrations, WrkResult wrk) {
        /** @return every call over the window */
        public long total() {
            return calls.values().stream().mapToLong(Long::longValue).sum();
        }
    }

    private static final Pattern PERF_LINE = Pattern.compile("^\\s*(\\d+|<not counted>|<not supported>),[^,]*,([^,]+),");
    private static final Pattern STRACE_LINE = Pattern.compile(
            "^\\s*[\\d.]+\\s+[\\d.]+\\s+\\d+\\s+(\\d+)\\s+(\\d+)?\\s*([a-z_0-9]+)\\s*$");

    private SyscallCounts() {}

    /**
     * @return whether {@code perf stat} can count the syscall tracepoints here (it needs tracefs and
     *     {@code perf_event_paranoid} low enough, or root)
     */
    public static boolean perfWorks() {
        if (Host.executable("perf").isEmpty()) return false;
        return Host.output("perf", "stat", "-x,", "-e", "syscalls:sys_enter_getpid", "--", "true")
                .map(s -> PERF_LINE.matcher(s.strip()).find() && !s.contains("<not"))
                .orElse(false);
    }

    /**
     * Runs {@code wrk} while the tracer counts the process.
     *
     * @param tracer which tracer
     * @param pid the server process
     * @param wrk the wrk command line ({@link Wrk#command})
     * @param seconds wrk's duration
     * @param dir scratch directory for the tracer's output
     * @return the window
     */
    public static Window count(Tracer tracer, long pid, List<String> wrk, int seconds, Path dir) {
        try {
            Files.createDirectories(dir);
            Path file = Files.createTempFile(dir, tracer.name().toLowerCase(java.util.Locale.ROOT), ".txt");
            return tracer == Tracer.PERF ? perf(pid, wrk, seconds, file) : strace(pid, wrk, seconds, file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Window perf(long pid, List<String> wrk, int seconds, Path file) throws IOException {
        List<String> cmd = new ArrayList<>(List.of("perf", "stat", "-x,", "-o", file.toString(), "-e",
                "syscalls:sys_enter_*,context-switches,cpu-migrations", "-p", Long.toString(pid), "--"));
        cmd.addAll(wrk);
        WrkResult r = Wrk.run(cmd, seconds + 30);
        return parsePerf(Files.readAllLines(file, StandardCharsets.UTF_8), cmd, r);
    }

    /**
     * @param lines {@code perf stat -x,} output
     * @param cmd the command line that wrote it
     * @param r wrk's result over the window
     * @return the window
     */
    static Window parsePerf(List<String> lines, List<String> cmd, WrkResult r) {
        Map<String, Long> calls = new TreeMap<>();
        long[] cs = {-1, -1};
        for (String line : lines) {
            Matcher m = PERF_LINE.matcher(line);
            if (!m.find() || !Character.isDigit(m.group(1).charAt(0))) continue;
            long n = Long.parseLong(m.group(1));
            String event = m.group(2).strip();
            if (event.equals("context-switches")) cs[0] = n;
            else if (event.equals("cpu-migrations")) cs[1] = n;
            else if (event.startsWith("syscalls:sys_enter_") && n > 0) calls.put(event.substring("syscalls:sys_enter_".length()), n);
        }
        if (calls.isEmpty()) throw new IllegalStateException("perf counted no system call: " + String.join("\n", lines));
        return new Window(Tracer.PERF, cmd, calls, Map.of(), cs[0], cs[1], r);
    }

    private static Window strace(long pid, List<String> wrk, int seconds, Path file) throws IOException {
        List<String> cmd = List.of("strace", "-c", "-f", "-o", file.toString(), "-p", Long.toString(pid));
        Process tracer = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(file.resolveSibling(file.getFileName() + ".log").toFile()).start();
        try {
            Thread.sleep(500); // strace attaches to every thread before wrk starts
            WrkResult r = Wrk.run(wrk, seconds);
            tracer.destroy(); // SIGTERM: strace detaches and writes its summary
            if (!tracer.waitFor(30, TimeUnit.SECONDS)) {
                tracer.destroyForcibly();
                throw new IllegalStateException("strace did not stop");
            }
            return parseStrace(Files.readAllLines(file, StandardCharsets.UTF_8), cmd, r);
        } catch (InterruptedException e) {
            tracer.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /**
     * @param lines {@code strace -c} output
     * @param cmd the command line that wrote it
     * @param r wrk's result over the window
     * @return the window
     */
    static Window parseStrace(List<String> lines, List<String> cmd, WrkResult r) {
        Map<String, Long> calls = new TreeMap<>();
        Map<String, Long> errors = new TreeMap<>();
        for (String line : lines) {
            Matcher m = STRACE_LINE.matcher(line);
            if (!m.find() || m.group(3).equals("total")) continue;
            calls.put(m.group(3), Long.parseLong(m.group(1)));
            if (m.group(2) != null) errors.put(m.group(3), Long.parseLong(m.group(2)));
        }
        if (calls.isEmpty()) throw new IllegalStateException("strace counted no system call: " + String.join("\n", lines));
        return new Window(Tracer.STRACE, cmd, calls, errors, -1, -1, r);
    }
}
