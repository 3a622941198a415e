package dev.tidemill.bench;

import dev.tidemill.Config;
import dev.tidemill.Server;
import dev.tidemill.Tidemill;
import io.netty.channel.epoll.Epoll;
import io.netty.util.Version;
import java.lang.management.ManagementFactory;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/** The host and software the numbers were measured on, recorded in every result file. */
public final class Fingerprint {
    private Fingerprint() {}

    /**
     * @param cpus the CPU placement
     * @return the fingerprint, in a stable order
     */
    public static Map<String, Object> take(CpuSets cpus) {
        Map<String, Object> f = new LinkedHashMap<>();
        String cpuinfo = Host.read("/proc/cpuinfo").orElse("");
        f.put("cpuModel", field(cpuinfo, "model name"));
        Set<String> sockets = new TreeSet<>();
        Set<String> cores = new TreeSet<>();
        String physical = "0";
        int threads = 0;
        for (String line : cpuinfo.split("\n")) {
            if (line.startsWith("processor")) threads++;
            if (line.startsWith("physical id")) { physical = value(line); sockets.add(physical); }
            if (line.startsWith("core id")) cores.add(physical + ":" + value(line));
        }
        f.put("sockets", Math.max(1, sockets.size()));
        f.put("cores", cores.isEmpty() ? threads : cores.size());
        f.put("threads", threads);
        f.put("availableProcessors", Runtime.getRuntime().availableProcessors());
        f.put("memory", field(Host.read("/proc/meminfo").orElse(""), "MemTotal"));
        f.put("hypervisorFlag", cpuinfo.contains(" hypervisor"));
        f.put("dmiVendor", Host.read("/sys/class/dmi/id/sys_vendor").orElse("unreadable"));
        f.put("dmiProduct", Host.read("/sys/class/dmi/id/product_name").orElse("unreadable"));
        f.put("systemdDetectVirt", Host.executable("systemd-detect-virt")
                .flatMap(p -> Host.command(p.toString())).orElse("not installed"));
        f.put("kernel", Host.read("/proc/sys/kernel/osrelease").orElse(System.getProperty("os.version")));
        f.put("cgroupCpuMax", Host.read("/sys/fs/cgroup/cpu.max").orElse("absent (no cgroup v2 CPU limit file)"));
        long fds = Host.openFilesLimit();
        f.put("fdLimit", fds < 0 ? "unlimited" : Long.toString(fds));
        f.put("serverCpus", cpus.serverList());
        f.put("loadGeneratorCpus", cpus.clientList());
        f.put("jdkVendor", System.getProperty("java.vendor"));
        f.put("jdkVersion", System.getProperty("java.runtime.version"));
        f.put("runnerJvmFlags", ManagementFactory.getRuntimeMXBean().getInputArguments());
        f.put("targetJvmFlags", TargetCatalog.JVM_FLAGS);
        Map<String, String> netty = new LinkedHashMap<>();
        Version.identify().forEach((k, v) -> { if (k.equals("netty-common") || k.equals("netty-transport-native-epoll")) netty.put(k, v.artifactVersion()); });
        f.put("netty", netty);
        f.put("epollAvailable", Epoll.isAvailable());
        f.put("wrk", Host.executable("wrk").flatMap(p -> Host.command(p.toString(), "--version")).orElse("not installed"));
        f.put("tidemillStartup", tidemillDetection(cpus));
        // which code was measured: the commit, and whether the working tree had changes on top of it
        f.put("gitCommit", Host.command("git", "rev-parse", "HEAD").orElse("unknown")
                + (Host.output("git", "status", "--porcelain", "--untracked-files=no").map(String::isBlank).orElse(true)
                        ? "" : " (with uncommitted changes)"));
        return f;
    }

    /** What Tidemill's transport and loop detection decide on this host (started on port 0, stopped). */
    private static List<String> tidemillDetection(CpuSets cpus) {
        try (Server s = Tidemill.create(Config.builder().port(0).build()).start()) {
            return s.startupReport();
        } catch (RuntimeException e) {
            return List.of("could not start: " + e);
        }
    }

    private static String field(String text, String key) {
        for (String line : text.split("\n")) if (line.startsWith(key)) return value(line);
        return "unknown";
    }

    private static String value(String line) {
        return line.substring(line.indexOf(':') + 1).trim();
    }
}
