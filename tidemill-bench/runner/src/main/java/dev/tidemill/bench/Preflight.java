package dev.tidemill.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * Checks the machine is fit to measure on, each with its verdict and raw reading: CPU governor,
 * load per CPU, steal, file descriptors against the connections, the tools, and the server CPUs
 * idle. {@code --strict} refuses to measure when one fails.
 */
public final class Preflight {
    /** Steal above this share of CPU time spoils a measurement window (percent). */
    public static final double MAX_STEAL_PERCENT = 2.0;
    /** Load per CPU above this at a run's start marks the run untrustworthy. */
    public static final double MAX_LOAD_PER_CPU = 1.0;
    /** Server CPUs busier than this over the idle sample mean something else is running (percent). */
    public static final double MAX_IDLE_BUSY_PERCENT = 10.0;

    private Preflight() {}

    /**
     * @param cpus the CPU placement
     * @param maxConnections the most connections any scenario opens
     * @return every check
     */
    public static List<Check> run(CpuSets cpus, int maxConnections) {
        List<Check> checks = new ArrayList<>();
        checks.add(governor());
        // A run started right after another (a script of suites) finds the 1-minute average still carrying the
        // last one's load: wait for it to decay before judging the machine busy
        double load = settledLoadPerCpu(START_SETTLE_SECONDS);
        checks.add(new Check("load per CPU", Double.isNaN(load) ? "unknown" : load > MAX_LOAD_PER_CPU ? "fail" : "pass",
                Host.read("/proc/loadavg").orElse("unreadable") + " over " + Host.machineCpus()
                        + " CPUs = " + fmt(load), "1-minute load / CPUs <= " + MAX_LOAD_PER_CPU));
        CpuTimes a = CpuTimes.now();
        sleep(1000);
        CpuTimes b = CpuTimes.now();
        double steal = b.stealPercentSince(a);
        checks.add(new Check("steal", steal > MAX_STEAL_PERCENT ? "fail" : "pass", fmt(steal) + " % over 1 s",
                "<= " + MAX_STEAL_PERCENT + " %"));
        double idle = serverBusyPercent(cpus, 500);
        checks.add(new Check("server CPUs idle", idle > MAX_IDLE_BUSY_PERCENT ? "fail" : "pass",
                "CPUs " + cpus.serverList() + " " + fmt(idle) + " % busy over 0.5 s (after up to 5 s to settle)",
                "<= " + MAX_IDLE_BUSY_PERCENT + " % busy"));
        long fds = Host.openFilesLimit();
        long needed = maxConnections + 256L;
        checks.add(new Check("file descriptors", fds < 0 || fds >= needed ? "pass" : "fail",
                "soft limit " + (fds < 0 ? "unlimited" : fds) + " for " + maxConnections + " connections",
                ">= connections + 256"));
        for (String tool : LOAD_TOOLS) {
            checks.add(new Check(tool, Host.executable(tool).isPresent() ? "pass" : "fail",
                    Host.executable(tool).map(Path::toString).orElse("not on PATH"), "installed"));
        }
        checks.add(new Check("separate CPU sets", cpus.server().equals(cpus.client()) ? "fail" : "pass",
                "server " + cpus.serverList() + ", load generator " + cpus.clientList(), "disjoint"));
        return checks;
    }

    /**
     * Stops a run whose load generator or CPU pinning is missing: every window of it would fail, so
     * it would end in a result file with no measurement in it. Not left to {@code --strict}, which
     * is for a machine that is busy, not one that cannot measure at all.
     *
     * @param checks the preflight's checks
     * @throws IllegalStateException naming the missing programs and the command that installs them
     */
    public static void requireLoadGenerator(List<Check> checks) {
        List<String> missing = checks.stream()
                .filter(c -> LOAD_TOOLS.contains(c.name()) && c.failed()).map(Check::name).toList();
        if (!missing.isEmpty()) {
            throw new IllegalStateException(String.join(" and ", missing) + " not on PATH; nothing measured. "
                    + "Install with: apt-get install -y " + String.join(" ", missing.stream()
                            .map(t -> t.equals("taskset") ? "util-linux" : t).toList()));
        }
    }

    /** The programs every wrk-driven window runs. */
    private static final List<String> LOAD_TOOLS = List.of("wrk", "taskset");

    private static Check governor() {
        Path dir = Path.of("/sys/devices/system/cpu");
        Set<String> seen = new TreeSet<>();
        try (Stream<Path> s = Files.list(dir)) {
            s.filter(p -> p.getFileName().toString().matches("cpu\\d+"))
                    .forEach(p -> Host.read(p.resolve("cpufreq/scaling_governor").toString()).ifPresent(seen::add));
        } catch (IOException | RuntimeException e) {
            // no sysfs: recorded as unknown below
        }
        if (seen.isEmpty()) {
            return new Check("CPU governor", "unknown", "no cpufreq in sysfs (typical in a VM)", "not powersave");
        }
        return new Check("CPU governor", seen.contains("powersave") ? "fail" : "pass", String.join(",", seen), "not powersave");
    }

    /**
     * The 1-minute load per CPU, after waiting (at most {@code maxSeconds}) for it to
     * fall to {@link #MAX_LOAD_PER_CPU}. Back to back, the previous target and its load generator
     * kept every CPU busy, so the average starts near the limit; it decays with a one-minute time
     * constant and is refreshed every 5 s, so a short wait tells "still our own previous run"
     * from "something else is running on this machine".
     *
     * @param maxSeconds the longest wait ({@link #LOAD_SETTLE_SECONDS} in a full run)
     * @return the load per CPU when it settled or the wait ran out
     */
    public static double settledLoadPerCpu(int maxSeconds) {
        double load = Host.loadPerCpu();
        for (int i = 0; i < maxSeconds && load > MAX_LOAD_PER_CPU; i++) {
            sleep(1000);
            load = Host.loadPerCpu();
        }
        return load;
    }

    /**
     * Longest wait for the load average to settle before a run's preflight judges it (seconds). On
     * an idle machine the 1-minute average decays as e^(-t/60 s), so from L per CPU it falls to 1.0
     * in 60 ln(L) seconds: 42 s from 2.0, 97 s from 5.0.
     */
    static final int START_SETTLE_SECONDS = 180;

    /** Longest wait for the load average to settle before a target starts (seconds). */
    static final int LOAD_SETTLE_SECONDS = 30;

    /**
     * Samples the server CPUs for a short while before a target starts: on 2 CPUs the 1-minute load
     * never falls between back-to-back runs, so this is what tells an idle machine from a busy one.
     *
     * @param cpus the placement
     * @param millis how long to sample
     * @return the server CPUs' busy percentage over the sample
     */
    public static double serverBusyPercent(CpuSets cpus, long millis) {
        // The previous target's exit (or the runner's own start-up) can keep the CPUs busy for a
        // moment: give them up to ten samples to settle, and report the last.
        double busy = 100;
        for (int i = 0; i < 10 && busy > MAX_IDLE_BUSY_PERCENT; i++) {
            CpuTimes a = CpuTimes.now();
            sleep(millis);
            busy = CpuTimes.now().busyPercentSince(a, Set.copyOf(cpus.server()));
        }
        return busy;
    }

    static String fmt(double v) {
        return String.format(java.util.Locale.ROOT, "%.2f", v);
    }

    static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
