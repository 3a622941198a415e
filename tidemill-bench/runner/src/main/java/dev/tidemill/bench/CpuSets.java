package dev.tidemill.bench;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Where servers and the load generator run, derived from the CPUs available: the server gets the
 * first half (at least one), wrk the rest. On 2 CPUs: server on CPU 0, wrk on CPU 1. A machine
 * with more CPUs gets larger sets (and more server I/O threads) automatically.
 *
 * @param server the server's CPUs
 * @param client the load generator's CPUs
 */
public record CpuSets(List<Integer> server, List<Integer> client) {

    /**
     * @return the split of the CPUs this process was allowed when it first asked; remembered,
     *     because the runner then pins itself to the client set and would otherwise see only that
     */
    public static CpuSets derive() {
        return AtStart.SETS;
    }

    private static final class AtStart {
        static final CpuSets SETS = split(Host.onlineCpus());
    }

    /**
     * @param cpus the available CPU numbers
     * @return the split; a single CPU is shared (and the run will be client-bound by design)
     */
    public static CpuSets split(List<Integer> cpus) {
        if (cpus.size() < 2) return new CpuSets(cpus, cpus);
        int half = cpus.size() / 2;
        return new CpuSets(List.copyOf(cpus.subList(0, half)), List.copyOf(cpus.subList(half, cpus.size())));
    }

    /** @return the server set in taskset's list syntax */
    public String serverList() { return join(server); }

    /** @return the client set in taskset's list syntax */
    public String clientList() { return join(client); }

    private static String join(List<Integer> cpus) {
        return cpus.stream().map(String::valueOf).collect(Collectors.joining(","));
    }

    /**
     * @param list a CPU list such as {@code 0-3,6}
     * @return the CPU numbers
     */
    public static List<Integer> parseList(String list) {
        Set<Integer> out = new LinkedHashSet<>();
        for (String part : list.split(",")) {
            part = part.trim();
            if (part.isEmpty()) continue;
            int dash = part.indexOf('-');
            if (dash < 0) {
                out.add(Integer.parseInt(part));
            } else {
                for (int i = Integer.parseInt(part.substring(0, dash)); i <= Integer.parseInt(part.substring(dash + 1)); i++) out.add(i);
            }
        }
        return new ArrayList<>(out);
    }
}
