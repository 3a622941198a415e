package dev.tidemill.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/** Small readings of the host shared by {@link Preflight} and {@link Fingerprint}. */
final class Host {
    private Host() {}

    /** @return the file's trimmed content, if it exists and is readable */
    static Optional<String> read(String path) {
        try {
            return Optional.of(Files.readString(Path.of(path)).trim());
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** @return the 1-minute load average, from {@code /proc/loadavg} text */
    static double parseLoad1(String loadavg) {
        return Double.parseDouble(loadavg.trim().split("\\s+")[0]);
    }

    /**
     * @return the 1-minute load average divided by the machine's online CPUs. The load average
     *     counts every runnable task on the machine, so it is divided by every CPU, not by the ones
     *     this process may use: the runner pins itself to the load generator's set, and dividing by
     *     that (one CPU of two) doubled the reading and failed the check on an idle machine
     */
    static double loadPerCpu() {
        return read("/proc/loadavg").map(Host::parseLoad1).orElse(Double.NaN) / machineCpus();
    }

    /** @return the machine's online CPUs, from {@code /sys/devices/system/cpu/online}, whatever this process is pinned to */
    static int machineCpus() {
        return read("/sys/devices/system/cpu/online").map(list -> {
            try {
                return CpuSets.parseList(list).size();
            } catch (RuntimeException e) {
                return 0;
            }
        }).filter(n -> n > 0).orElse(CpuSets.derive().server().size() + CpuSets.derive().client().size()
                - (CpuSets.derive().server().equals(CpuSets.derive().client()) ? CpuSets.derive().server().size() : 0));
    }

    /**
     * @param limits the text of /proc/self/limits
     * @return the soft limit on open files, or -1 for unlimited
     */
    static long parseOpenFilesLimit(String limits) {
        for (String line : limits.split("\n")) {
            if (line.startsWith("Max open files")) {
                String soft = line.substring("Max open files".length()).trim().split("\\s+")[0];
                return soft.equals("unlimited") ? -1 : Long.parseLong(soft);
            }
        }
        throw new IllegalArgumentException("no 'Max open files' line");
    }

    /** @return this process's soft fd limit (children inherit it) */
    static long openFilesLimit() {
        return read("/proc/self/limits").map(Host::parseOpenFilesLimit).orElse(-1L);
    }

    /** @return the first line of a command's output, if it ran */
    static Optional<String> command(String... cmd) {
        return output(cmd).map(out -> out.isEmpty() ? "(no output)" : out.lines().findFirst().orElse(""));
    }

    /** @return everything the command printed (stdout and stderr), or empty if it could not run or took over 5 s */
    static Optional<String> output(String... cmd) {
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes()).trim();
            if (!p.waitFor(5, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return Optional.empty();
            }
            return Optional.of(out);
        } catch (IOException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    /** @return whether an executable of that name is on the PATH (or in /usr/sbin, where nginx lives) */
    static Optional<Path> executable(String name) {
        String path = System.getenv().getOrDefault("PATH", "") + ":/usr/sbin:/sbin";
        for (String dir : path.split(":")) {
            if (dir.isEmpty()) continue;
            Path p = Path.of(dir, name);
            if (Files.isExecutable(p)) return Optional.of(p);
        }
        return Optional.empty();
    }

    /** @return the CPU numbers this process may run on */
    static List<Integer> onlineCpus() {
        int n = Runtime.getRuntime().availableProcessors();
        Optional<String> allowed = read("/proc/self/status").flatMap(s -> s.lines()
                .filter(l -> l.startsWith("Cpus_allowed_list:")).findFirst())
                .map(l -> l.substring(l.indexOf(':') + 1).trim());
        if (allowed.isPresent()) {
            try {
                return CpuSets.parseList(allowed.get());
            } catch (RuntimeException ignored) {
                // fall through to 0..n-1
            }
        }
        return java.util.stream.IntStream.range(0, n).boxed().toList();
    }
}
