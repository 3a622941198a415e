package dev.tidemill.bench.cluster;

import static dev.tidemill.bench.Args.positive;
import static dev.tidemill.bench.Args.value;
import static dev.tidemill.bench.Args.words;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Options of {@code ./tidemill bench cluster}.
 *
 * @param quick a few seconds per row, 10 and 100 subscribers (the result is {@code cluster-quick}, which
 *     {@code bench report} ignores): to check the suite works end to end, not to quote
 * @param targets the systems measured, in order ({@link ClusterTargets#ALL})
 * @param loads the fan-out rows: subscribers on node B and messages per second published on node A
 * @param warmupSeconds per row, publishing before the measured window (nothing of it recorded)
 * @param durationSeconds per row, the measured window
 * @param jitSeconds per system, {@link #JIT_LOAD} before its first row, so the rows measure compiled code
 * @param fault whether to run the fault row (Redis killed under load)
 * @param faultSubscribers subscribers of the fault row
 * @param faultRate its messages per second
 * @param faultBeforeSeconds publishing before the kill
 * @param faultDownMillis from the kill to the restart
 * @param faultAfterSeconds publishing after Redis answers again
 * @param outDir where results go
 * @param repoRoot the repository root (where the runner's cluster class path is found)
 */
public record ClusterSettings(boolean quick, List<String> targets, List<Load> loads, int warmupSeconds, int durationSeconds,
                              int jitSeconds, boolean fault, int faultSubscribers, int faultRate, int faultBeforeSeconds,
                              int faultDownMillis, int faultAfterSeconds, Path outDir, Path repoRoot) {
    /** The load of the JIT warm-up: every publish and delivery path often enough to be compiled, without saturating. */
    public static final Load JIT_LOAD = new Load(10, 1_000);

    /** The options, for usage lines. */
    public static final String USAGE = "[--quick] [--targets a,b] [--loads SUBS@RATE,..] [--warmup S] [--duration S] [--jit S] "
            + "[--no-fault] [--out DIR]";

    /**
     * One fan-out row's load.
     *
     * @param subscribers SSE subscribers on node B
     * @param rate messages per second published on node A
     */
    public record Load(int subscribers, int rate) {
        /** @return deliveries per second the load asks for */
        public long deliveriesPerSecond() {
            return (long) subscribers * rate;
        }

        @Override
        public String toString() {
            return subscribers + "@" + rate;
        }
    }

    /** @return the suite name in result file names */
    public String suite() {
        return quick ? "cluster-quick" : "cluster";
    }

    /** @return the most connections a row opens at once (subscribers, and room for the publisher's) */
    public int maxConnections() {
        return Math.max(faultSubscribers, loads.stream().mapToInt(Load::subscribers).max().orElse(0)) + 256;
    }

    /**
     * @param args the arguments after {@code cluster}
     * @return the settings
     * @throws IllegalArgumentException on an unknown or malformed option
     */
    public static ClusterSettings parse(List<String> args) {
        boolean quick = args.contains("--quick");
        List<String> targets = ClusterTargets.ALL;
        // The goal rows are 1,000 subscribers at 100/s and 100 at 1,000/s, 100,000 deliveries/s each, which on one
        // server CPU is about all a loopback write per delivery leaves room for; the same fan-outs at a tenth of the
        // rate (10,000 deliveries/s) show the latency where nothing is saturated, and 10 at 1,000/s the cost of a
        // publish without much fan-out. Full: 3 systems x 5 rows x (5 + 15 s) plus starts and the fault row, about
        // 9 minutes after the preflight.
        List<Load> loads = quick ? List.of(new Load(10, 1_000), new Load(100, 1_000))
                : List.of(new Load(10, 1_000), new Load(100, 100), new Load(100, 1_000), new Load(1_000, 10), new Load(1_000, 100));
        int warmup = quick ? 1 : 5, duration = quick ? 3 : 15, jit = quick ? 2 : 10;
        boolean fault = true;
        // The fault row's load fits the server CPUs, so that the recovery it times is not a backlog's.
        int faultSubs = 100, faultRate = 100, faultBefore = quick ? 2 : 5, faultDown = 1_000, faultAfter = quick ? 3 : 8;
        Path out = Path.of("bench", "results");
        Path root = Path.of("");
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            switch (a) {
                case "--quick" -> { }
                case "--targets" -> targets = words(value(args, ++i, a));
                case "--loads" -> loads = loads(value(args, ++i, a));
                case "--warmup" -> warmup = Integer.parseInt(value(args, ++i, a));
                case "--duration" -> duration = positive(value(args, ++i, a), a);
                case "--jit" -> jit = Integer.parseInt(value(args, ++i, a));
                case "--no-fault" -> fault = false;
                case "--out" -> out = Path.of(value(args, ++i, a));
                case "--root" -> root = Path.of(value(args, ++i, a));
                default -> throw new IllegalArgumentException("unknown option " + a + " (cluster takes " + USAGE + ")");
            }
        }
        for (String t : targets) {
            if (!ClusterTargets.ALL.contains(t)) throw new IllegalArgumentException("unknown target " + t + "; known: " + ClusterTargets.ALL);
        }
        if (warmup < 0 || jit < 0) throw new IllegalArgumentException("--warmup and --jit must be >= 0");
        return new ClusterSettings(quick, List.copyOf(targets), loads, warmup, duration, jit, fault, faultSubs, faultRate, faultBefore,
                faultDown, faultAfter, out, root);
    }

    /** @return {@code 10@1000,100@1000} as loads */
    static List<Load> loads(String v) {
        List<Load> out = new ArrayList<>();
        for (String w : words(v)) {
            String[] p = w.split("@");
            if (p.length != 2) throw new IllegalArgumentException("--loads takes SUBSCRIBERS@RATE,.. (got " + w + ")");
            out.add(new Load(positive(p[0], "--loads subscribers"), positive(p[1], "--loads rate")));
        }
        if (out.isEmpty()) throw new IllegalArgumentException("--loads needs at least one SUBSCRIBERS@RATE");
        return List.copyOf(out);
    }
}
