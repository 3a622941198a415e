package dev.tidemill.bench.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** The cluster suite's comparisons, goals and page ({@code <UTC>-cluster.md}, which {@code bench report} includes). */
final class ClusterReport {
    /** The goal rows: 1,000 subscribers at 100 messages/s and 100 at 1,000/s. */
    static final List<ClusterSettings.Load> GOAL_LOADS = List.of(new ClusterSettings.Load(1_000, 100), new ClusterSettings.Load(100, 1_000));
    /** Goal: p99 delivery latency across nodes below this, milliseconds. */
    static final double P99_GOAL_MS = 10;
    /** Goal: the Tidemill nodes' CPU per delivery at most this multiple of the relay nodes'. */
    static final double CPU_GOAL = 1.5;

    private ClusterReport() {}

    /**
     * Tidemill on Redis against the relay at one load.
     *
     * @param subscribers the load's subscribers
     * @param rate its messages per second
     * @param relayP50Ms the relay's median delivery latency
     * @param redisP50Ms Tidemill on Redis's
     * @param streamOrderMs the difference: what stream order (XADD, then each node's blocking XREAD) costs at the median
     * @param localP50Ms one Tidemill node with the topic in process, when measured
     * @param relayP99Ms the relay's p99
     * @param redisP99Ms Tidemill on Redis's p99
     * @param nodesCpuRatio Tidemill's two nodes' CPU per delivery over the relay's two
     * @param totalCpuRatio the same with each system's Redis CPU added
     * @param note empty when both rows kept up with their load unsaturated; else why the latency difference
     *     is not stream order alone
     */
    record Comparison(int subscribers, int rate, double relayP50Ms, double redisP50Ms, double streamOrderMs, Double localP50Ms,
                      double relayP99Ms, double redisP99Ms, double nodesCpuRatio, double totalCpuRatio, String note) {}

    /** @return whether a row was measured with the server CPUs saturated, or fell behind its load, or lost messages */
    static boolean overloaded(ClusterRows.Row r) {
        return r.notes().stream().anyMatch(n -> n.startsWith("server CPUs saturated")) || r.drainMs() > ClusterRows.BEHIND_MS || r.lost() > 0;
    }

    /** @return the rows ordered by load (subscribers, then rate), each load's systems in run order */
    static List<ClusterRows.Row> byLoad(List<ClusterRows.Row> rows) {
        List<ClusterRows.Row> out = new ArrayList<>(rows);
        out.sort(java.util.Comparator.comparingInt(ClusterRows.Row::subscribers).thenComparingInt(ClusterRows.Row::rate));
        return out;
    }

    /**
     * @param goal what was aimed at
     * @param reading what was measured
     * @param met whether it was met; null when not measured
     */
    record Goal(String goal, String reading, Boolean met) {}

    static Optional<ClusterRows.Row> find(List<ClusterRows.Row> rows, String target, int subscribers, int rate) {
        return rows.stream().filter(r -> r.target().equals(target) && r.subscribers() == subscribers && r.rate() == rate).findFirst();
    }

    static List<Comparison> comparisons(List<ClusterRows.Row> rows) {
        List<Comparison> out = new ArrayList<>();
        for (ClusterRows.Row relay : byLoad(rows).stream().filter(r -> r.target().equals(ClusterTargets.RELAY)).toList()) {
            find(rows, ClusterTargets.TIDEMILL_REDIS, relay.subscribers(), relay.rate()).ifPresent(t -> out.add(new Comparison(
                    relay.subscribers(), relay.rate(), relay.p50Ms(), t.p50Ms(), t.p50Ms() - relay.p50Ms(),
                    find(rows, ClusterTargets.TIDEMILL_LOCAL, relay.subscribers(), relay.rate()).map(ClusterRows.Row::p50Ms).orElse(null),
                    relay.p99Ms(), t.p99Ms(), t.nodesMsPer1000() / relay.nodesMsPer1000(), t.totalMsPer1000() / relay.totalMsPer1000(),
                    overloaded(relay) || overloaded(t) ? "overloaded (" + String.join(", ", java.util.stream.Stream.of(relay, t)
                            .filter(ClusterReport::overloaded).map(ClusterRows.Row::target).toList()) + "): the difference includes "
                            + "queueing, not stream order alone" : "")));
        }
        return out;
    }

    static List<Goal> goals(List<ClusterRows.Row> rows, ClusterRows.Fault fault) {
        List<Goal> goals = new ArrayList<>();
        for (ClusterSettings.Load l : GOAL_LOADS) {
            String load = String.format(Locale.ROOT, "%,d subscribers on node B, %,d messages/s published on node A", l.subscribers(), l.rate());
            Optional<ClusterRows.Row> t = find(rows, ClusterTargets.TIDEMILL_REDIS, l.subscribers(), l.rate());
            Optional<ClusterRows.Row> relay = find(rows, ClusterTargets.RELAY, l.subscribers(), l.rate());
            String p99Goal = String.format(Locale.ROOT, "%s: p99 delivery latency below %.0f ms", load, P99_GOAL_MS);
            String floor = relay.map(r -> String.format(Locale.ROOT, "; the relay: p99 %.2f ms, p50 %.2f ms%s", r.p99Ms(), r.p50Ms(),
                    overloaded(r) ? ", itself overloaded" : "")).orElse("");
            goals.add(t.map(r -> new Goal(p99Goal, String.format(Locale.ROOT, "p99 %.2f ms (p50 %.2f ms)%s%s%s", r.p99Ms(), r.p50Ms(),
                    lossNote(r), overloaded(r) ? ", overloaded" : "", floor), r.p99Ms() < P99_GOAL_MS && r.lost() == 0))
                    .orElse(new Goal(p99Goal, "not measured", null)));
            String cpuGoal = String.format(Locale.ROOT, "%s: the two Tidemill nodes' CPU per delivery within %.1fx the two relays'", load, CPU_GOAL);
            if (t.isPresent() && relay.isPresent()) {
                double ratio = t.get().nodesMsPer1000() / relay.get().nodesMsPer1000();
                // A row that dropped messages or fell behind did not carry the load: its CPU per delivery is not a cost of it.
                boolean carried = t.get().lost() == 0 && t.get().drainMs() <= ClusterRows.BEHIND_MS;
                goals.add(new Goal(cpuGoal, String.format(Locale.ROOT, "%.2fx (%.1f against %.1f ms per 1,000 deliveries; with Redis's own "
                                + "CPU added %.1f against %.1f)%s", ratio, t.get().nodesMsPer1000(), relay.get().nodesMsPer1000(),
                        t.get().totalMsPer1000(), relay.get().totalMsPer1000(), carried ? "" : ", but Tidemill did not carry the load ("
                                + (t.get().lost() > 0 ? String.format(Locale.ROOT, "%,d acknowledged deliveries lost", t.get().lost())
                                : String.format(Locale.ROOT, "its last delivery %.1f s after the last publish", t.get().drainMs() / 1e3)) + ")"),
                        carried && ratio <= CPU_GOAL));
            } else {
                goals.add(new Goal(cpuGoal, "not measured", null));
            }
        }
        String faultGoal = "Redis killed (kill -9) under load and restarted: every acknowledged publish reaches every subscriber of node B, "
                + "none twice";
        goals.add(fault == null ? new Goal(faultGoal, "not measured", null) : new Goal(faultGoal, String.format(Locale.ROOT,
                "%,d acknowledged x %,d subscribers: %,d lost, %,d duplicates", fault.acked(), fault.subscribers(), fault.lost(),
                fault.duplicates()), fault.lost() == 0 && fault.duplicates() == 0));
        return goals;
    }

    private static String lossNote(ClusterRows.Row r) {
        return r.lost() == 0 ? "" : String.format(Locale.ROOT, ", but %,d acknowledged deliveries lost", r.lost());
    }

    /**
     * @param r the result
     * @return the page: title, method, tables, comparisons, the fault row, goals, host
     */
    static String page(ClusterSuite.Result r) {
        Map<String, Object> c = r.configuration();
        StringBuilder b = new StringBuilder("# Cluster: SSE fan-out across two nodes through Redis" + (r.quick() ? " (quick)" : "") + ", "
                + r.startedUtc() + "\n\n");
        b.append("Command: `").append(r.command()).append("`, run ").append(r.startedUtc()).append(" to ").append(r.finishedUtc()).append(".\n\n");
        b.append("The runner publishes on node A (`POST /publish`, body `<seq> <System.nanoTime()>` stamped as it writes the request) at a "
                        + "fixed rate and reads the SSE stream (`GET /events`) of every subscriber on node B, so both ends of a delivery are "
                        + "timed by the same process's clock: latency is the arrival on a subscriber minus the stamp, and includes the POST, "
                        + "the store and the fan-out. Per system and load the subscribers connect, the runner waits until node B counts them, ")
                .append("then publishes ").append(c.get("warmupSeconds")).append(" s unrecorded and ").append(c.get("durationSeconds"))
                .append(" s measured; each system first runs ").append(c.get("jitSeconds")).append(" s of ").append(c.get("jitLoad"))
                .append(" (subscribers@rate), unrecorded. Server CPU is utime + stime of each process (`/proc/<pid>/stat`) from the window's first publish to "
                        + "its last delivery, per 1,000 deliveries of the window's messages. Lost counts, for every publish answered 2xx, "
                        + "each subscriber that did not get it.\n\n");
        b.append("- Systems: ");
        @SuppressWarnings("unchecked")
        Map<String, String> systems = (Map<String, String>) c.get("systems");
        systems.forEach((k, v) -> b.append("**").append(k).append("**: ").append(v).append("; "));
        b.setLength(b.length() - 2);
        b.append(".\n- Placement: every server process (the nodes and redis-server) pinned with `taskset` to CPUs ").append(c.get("serverCpus"))
                .append(" (").append(c.get("serverIoThreads")).append(" I/O thread(s) per node); Redis shares them with the nodes, so its "
                        + "work counts against the same CPUs. The client (").append(c.get("client")).append(") runs on CPUs ")
                .append(c.get("clientCpus")).append(".\n- Redis: ").append(c.get("redis")).append(".\n\n");
        b.append("### Fan-out\n\n| subscribers | rate | system | deliveries/s | p50 ms | p90 ms | p99 ms | p99.9 ms | max ms | publish p50 / p99 ms "
                + "| CPU ms / 1,000 deliveries: node A | node B | Redis | nodes | nodes + Redis | server CPU | client loop | lost "
                + "| notes |\n|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
        for (ClusterRows.Row x : byLoad(r.rows())) {
            b.append(String.format(Locale.ROOT, "| %,d | %,d/s | %s | %,.0f | %s | %s | %s | %s | %s | %s / %s | %s | %s | %s | %s | %s "
                            + "| %.0f %% | %.0f %% | %,d | %s |%n",
                    x.subscribers(), x.rate(), x.target(), x.deliveriesPerSec(), num(x.p50Ms()), num(x.p90Ms()), num(x.p99Ms()),
                    num(x.p999Ms()), num(x.maxMs()), num(x.publishP50Ms()), num(x.publishP99Ms()), num(x.nodeAMsPer1000()),
                    num(x.nodeBMsPer1000()), num(x.redisMsPer1000()), num(x.nodesMsPer1000()), num(x.totalMsPer1000()),
                    x.serverProcessesPercent(), x.subscriberLoopPercent(), x.lost(), String.join("; ", x.notes())));
        }
        b.append("\nFor one node (tidemill-local) node A is the node, publishing and serving. Server CPU is the nodes' and Redis's "
                        + "own CPU time together over the window, % of one CPU. The share of CPUs ").append(c.get("serverCpus"))
                .append(" busy by `/proc/stat`, everything on them counted, is in the result file too (`serverCpusBusyPercent`); on a "
                        + "virtual machine it can read well below the processes' own time, which is why the table shows theirs. At ")
                .append(String.format(Locale.ROOT, "%.0f", ClusterRows.SATURATED_PERCENT)).append(" % or more by either the row is marked "
                        + "saturated, and its latencies include waiting for the CPU. Such a load sits at a knee: a few per cent more "
                        + "CPU per delivery decides between keeping up and falling behind, so saturated rows vary from run to run more "
                        + "than the others. Client loop is the client's subscriber thread, % of "
                        + "one CPU: it reads every delivery, so a burst to 1,000 subscribers takes it a while, the same for every system. "
                        + "Every row's counts (published, acknowledged, expected and delivered, duplicates, out of order, the time from "
                        + "the last publish to the last delivery) are in the result file.\n");
        if (!r.comparisons().isEmpty()) {
            b.append("\n### What stream order costs\n\nTidemill on Redis against the pub/sub relay at the same load. A Redis topic is a "
                    + "stream: node A's publish is an XADD, which Redis appends to its append-only file and fsyncs before it answers "
                    + "(`appendfsync always`), and node B's reader gets the entry with its next blocking XREAD; the relay's PUBLISH is "
                    + "pushed to the subscribed relay at once and written nowhere. The difference of the medians is what stream order "
                    + "(and the durability that comes with it) costs in latency, where neither system was overloaded.\n\n| subscribers "
                    + "| rate | relay p50 ms | tidemill-redis p50 ms | stream order costs, ms at p50 | tidemill-local p50 ms | relay p99 ms "
                    + "| tidemill-redis p99 ms | CPU tidemill-redis / relay, nodes | with Redis | note |\n"
                    + "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
            for (Comparison x : r.comparisons()) {
                b.append(String.format(Locale.ROOT, "| %,d | %,d/s | %s | %s | %+.2f | %s | %s | %s | %.2fx | %.2fx | %s |%n", x.subscribers(),
                        x.rate(), num(x.relayP50Ms()), num(x.redisP50Ms()), x.streamOrderMs(), num(x.localP50Ms()), num(x.relayP99Ms()),
                        num(x.redisP99Ms()), x.nodesCpuRatio(), x.totalCpuRatio(), x.note()));
            }
        }
        b.append(faultSection(r.fault()));
        b.append("\n### Goals\n\n");
        for (Goal g : r.goals()) {
            b.append("- ").append(g.met() == null ? "not measured" : g.met() ? "met" : "NOT met").append(": ").append(g.goal()).append(": ")
                    .append(g.reading()).append('\n');
        }
        if (!r.notMeasured().isEmpty() || !r.failures().isEmpty()) {
            b.append("\n### Not measured\n\n");
            r.failures().forEach(f -> b.append("- failed: ").append(f).append('\n'));
            r.notMeasured().forEach(n -> b.append("- ").append(n).append('\n'));
        }
        b.append("\n| host | |\n|---|---|\n");
        for (String k : List.of("cpuModel", "cores", "memory", "kernel", "jdkVersion", "gitCommit")) {
            Object v = r.fingerprint() == null ? null : r.fingerprint().get(k);
            if (v != null) b.append("| ").append(k).append(" | ").append(String.valueOf(v).replace("|", "\\|")).append(" |\n");
        }
        return b.toString();
    }

    private static String faultSection(ClusterRows.Fault f) {
        if (f == null) return "";
        return String.format(Locale.ROOT, "%n### Redis killed under load%n%nTwo Tidemill nodes on Redis (%s), %,d subscribers on node B, %,d messages/s published on "
                        + "node A throughout. Redis is killed with `kill -9`, started again %.0f ms later on the same port and directory "
                        + "(it answered PING %.0f ms after that, having read its append-only file back), and the publishing goes on. "
                        + "Publishes made while Redis is down fail at once with 503, as they should.%n%n"
                        + "| published | 2xx | 503 | other failures | PONG to first 2xx publish | PONG to first live delivery on B | PONG "
                        + "until every subscriber had one | expected deliveries | lost | duplicates | out of order | delivered though not "
                        + "acknowledged | notes |%n|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|%n"
                        + "| %,d | %,d | %,d | %,d | %s ms | %s ms | %s ms | %,d | %,d | %,d | %,d | %,d | %s |%n%n"
                        + "A live delivery is one of a message published after Redis answered PING again.%n",
                ClusterTargets.TIDEMILL_REDIS, f.subscribers(), f.rate(), f.downMs(), f.restartToPingMs(), f.published(), f.acked(),
                f.unavailable(), f.otherFailures(), num(f.pingToFirstAckMs()), num(f.pingToFirstLiveMs()), num(f.pingToAllLiveMs()),
                f.expected(), f.lost(), f.duplicates(), f.outOfOrder(), f.deliveredUnacked(), String.join("; ", f.notes()));
    }

    /** @return two decimals, or "-" for nothing */
    static String num(Double v) {
        return v == null || v.isNaN() ? "-" : String.format(Locale.ROOT, "%.2f", v);
    }

    /** @return the table the runner prints at the end */
    static String console(ClusterSuite.Result r) {
        StringBuilder b = new StringBuilder();
        for (ClusterRows.Row x : byLoad(r.rows())) b.append(line(x)).append('\n');
        for (Comparison x : r.comparisons()) {
            b.append(String.format(Locale.ROOT, "stream order at %d@%d: p50 %s ms on Redis against %s ms relayed (%+.2f ms); CPU %.2fx the relay's (nodes)%n",
                    x.subscribers(), x.rate(), num(x.redisP50Ms()), num(x.relayP50Ms()), x.streamOrderMs(), x.nodesCpuRatio()));
        }
        ClusterRows.Fault f = r.fault();
        if (f != null) {
            b.append(String.format(Locale.ROOT, "fault: %d published, %d 2xx, %d 503; PONG -> first 2xx %s ms, first live delivery %s ms, all %s ms; "
                    + "lost %d, duplicates %d%n", f.published(), f.acked(), f.unavailable(), num(f.pingToFirstAckMs()),
                    num(f.pingToFirstLiveMs()), num(f.pingToAllLiveMs()), f.lost(), f.duplicates()));
        }
        for (Goal g : r.goals()) b.append(g.met() == null ? "not measured" : g.met() ? "met" : "NOT met").append(": ").append(g.goal())
                .append(": ").append(g.reading()).append('\n');
        return b.toString();
    }

    /** @return one row as the runner prints it while it runs */
    static String line(ClusterRows.Row x) {
        return String.format(Locale.ROOT, "  %-14s %5d subs @ %5d/s: %,9.0f deliveries/s  p50 %6s p99 %6s max %7s ms  CPU ms/1k A %s B %s "
                        + "Redis %s (server CPU %.0f %%)  lost %d%s", x.target(), x.subscribers(), x.rate(), x.deliveriesPerSec(),
                num(x.p50Ms()), num(x.p99Ms()), num(x.maxMs()), num(x.nodeAMsPer1000()), num(x.nodeBMsPer1000()), num(x.redisMsPer1000()),
                x.serverProcessesPercent(), x.lost(), x.notes().isEmpty() ? "" : "  " + String.join("; ", x.notes()));
    }
}
