package dev.tidemill.bench;

import static dev.tidemill.bench.Args.positive;
import static dev.tidemill.bench.Args.value;
import static dev.tidemill.bench.Args.words;

import java.nio.file.Path;
import java.util.List;

/**
 * Options of {@code ./tidemill bench hotpath}: server CPU, system calls and context switches per
 * request of Tidemill's IO and LOOP modes (on epoll and on io_uring), raw Netty and Vert.x core.
 *
 * @param quick short windows and one round (to check the suite end to end, not to compare)
 * @param targets target names ({@link HotPathSuite#TARGETS} by default)
 * @param scenarios scenario ids ({@code plaintext,json} by default)
 * @param rounds rounds, each running every target once in a rotated order (4)
 * @param warmupSeconds load before the first window of each target, alternating the scenarios (60)
 * @param durationSeconds each timed window, CPU per request (10)
 * @param countSeconds each counting window, traced, after the timed one (5)
 * @param connections wrk's connections ({@code -c}, 64)
 * @param tracer who counts the system calls ({@code perf} when it works here, else {@code strace})
 * @param outDir where results go ({@code bench/results})
 */
public record HotPathSettings(boolean quick, List<String> targets, List<String> scenarios, int rounds, int warmupSeconds,
                              int durationSeconds, int countSeconds, int connections, SyscallCounts.Tracer tracer, Path outDir) {
    /** The options, for usage lines. */
    public static final String USAGE = "[--quick] [--targets a,b] [--scenarios plaintext,json] [--rounds N] [--warmup S] "
            + "[--duration S] [--count S] [--connections N] [--tracer perf|strace] [--out DIR]";

    /** @return the suite name in result file names */
    public String suite() {
        return quick ? "hotpath-quick" : "hotpath";
    }

    /**
     * @param args the arguments after {@code hotpath}
     * @return the settings
     * @throws IllegalArgumentException on an unknown or malformed option
     */
    public static HotPathSettings parse(List<String> args) {
        boolean quick = args.contains("--quick");
        // Full: 6 targets x (60 s warm-up + 2 scenarios x (10 + 5) s) x 4 rounds, about 40 minutes. Quick: about 4 minutes.
        int rounds = quick ? 1 : 4, warmup = quick ? 10 : 60, duration = quick ? 5 : 10, count = quick ? 3 : 5, connections = 64;
        List<String> targets = HotPathSuite.TARGETS;
        List<String> scenarios = List.of("plaintext", "json");
        SyscallCounts.Tracer tracer = null;
        Path out = Path.of("bench", "results");
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            switch (a) {
                case "--quick" -> { }
                case "--targets" -> targets = words(value(args, ++i, a));
                case "--scenarios" -> scenarios = words(value(args, ++i, a));
                case "--rounds" -> rounds = positive(value(args, ++i, a), a);
                case "--warmup" -> warmup = Integer.parseInt(value(args, ++i, a));
                case "--duration" -> duration = positive(value(args, ++i, a), a);
                case "--count" -> count = positive(value(args, ++i, a), a);
                case "--connections" -> connections = positive(value(args, ++i, a), a);
                case "--tracer" -> tracer = SyscallCounts.Tracer.valueOf(value(args, ++i, a).toUpperCase(java.util.Locale.ROOT));
                case "--out" -> out = Path.of(value(args, ++i, a));
                default -> throw new IllegalArgumentException("unknown option " + a + " (hotpath takes " + USAGE + ")");
            }
        }
        if (warmup < 0) throw new IllegalArgumentException("--warmup must be >= 0");
        scenarios.forEach(ScenarioRun::byId);
        if (tracer == null) tracer = SyscallCounts.perfWorks() ? SyscallCounts.Tracer.PERF : SyscallCounts.Tracer.STRACE;
        return new HotPathSettings(quick, targets, scenarios, rounds, warmup, duration, count, connections, tracer, out);
    }
}
