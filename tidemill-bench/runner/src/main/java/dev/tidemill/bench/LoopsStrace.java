package dev.tidemill.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * System calls of a server over one run of a row, with {@code strace -c -f -p <pid>} attached to
 * every thread of the process for that run only. strace stops each thread at every call, so the
 * server runs several times slower meanwhile: the run is an extra one, never a timed one, and only
 * its counts are kept.
 */
final class LoopsStrace {
    /** The most frequent calls kept per cell. */
    static final int TOP = 5;
    /** How long strace may take to attach to every thread before the run starts anyway (seconds). */
    private static final int ATTACH_SECONDS = 10;

    private LoopsStrace() {}

    /**
     * What strace counted.
     *
     * @param total calls in all
     * @param top the {@link #TOP} most frequent, with their counts
     */
    record Counts(long total, Map<String, Long> top) {}

    /**
     * @param pid the server
     * @param clientCpus where strace runs (off the server's CPUs)
     * @param work the run to count
     * @param scratch where strace writes its summary
     * @return the counts
     * @throws IllegalStateException when strace cannot attach or writes no summary
     */
    static Counts count(long pid, String clientCpus, Runnable work, Path scratch) {
        Path summary = scratch.resolve("strace-" + pid + "-" + System.nanoTime() + ".txt");
        try {
            Files.createDirectories(scratch);
            Process p = new ProcessBuilder("taskset", "-c", clientCpus, "strace", "-c", "-f", "-p", Long.toString(pid), "-o", summary.toString())
                    .redirectErrorStream(true).start();
            BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            // strace says "Process N attached with M threads" once every thread is stopped and traced
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(ATTACH_SECONDS);
            String line;
            StringBuilder said = new StringBuilder();
            while (System.nanoTime() < deadline && (line = out.readLine()) != null) {
                said.append(line).append('\n');
                if (line.contains("attached")) break;
            }
            if (!p.isAlive()) throw new IllegalStateException("strace exited " + p.exitValue() + ": " + said.toString().strip());
            work.run();
            p.destroy(); // SIGTERM: strace detaches and writes the summary
            if (!p.waitFor(30, TimeUnit.SECONDS)) p.destroyForcibly();
            return parse(Files.readString(summary));
        } catch (IOException e) {
            throw new IllegalStateException("strace: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /**
     * Parses strace's {@code -c} table: {@code % time, seconds, usecs/call, calls, [errors], syscall},
     * then a {@code total} line.
     *
     * @param table the summary strace wrote
     * @return the total and the most frequent calls
     * @throws IllegalStateException when there is no total line
     */
    static Counts parse(String table) {
        long total = -1;
        List<Map.Entry<String, Long>> calls = new ArrayList<>();
        for (String l : table.lines().toList()) {
            String[] f = l.trim().split("\\s+");
            if (f.length < 5 || !f[0].matches("[0-9.]+") || !f[3].matches("\\d+")) continue;
            String name = f[f.length - 1];
            long n = Long.parseLong(f[3]);
            if (name.equals("total")) total = n;
            else calls.add(Map.entry(name, n));
        }
        if (total < 0) throw new IllegalStateException("strace wrote no summary: " + table.strip());
        calls.sort(Map.Entry.<String, Long>comparingByValue().reversed());
        Map<String, Long> top = new LinkedHashMap<>();
        calls.stream().limit(TOP).forEach(e -> top.put(e.getKey(), e.getValue()));
        return new Counts(total, top);
    }
}
