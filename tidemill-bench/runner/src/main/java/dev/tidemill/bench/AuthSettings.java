package dev.tidemill.bench;

import static dev.tidemill.bench.Args.positive;
import static dev.tidemill.bench.Args.value;
import static dev.tidemill.bench.Args.words;

import java.nio.file.Path;
import java.util.List;

/**
 * Options of {@code ./tidemill bench auth}: the JMH verification benchmark, then rounds of the server
 * cases on every target (rotated order; each case an unrecorded warm-up, then a measured window),
 * then one key rotation under load on Tidemill.
 *
 * @param quick short JMH iterations, one round, short windows (to check that everything works end to end, not to compare)
 * @param targets target names (empty: every target found)
 * @param rounds rounds of the server cases
 * @param warmupSeconds unrecorded load before each window
 * @param durationSeconds each measured window (the rotation's too: it switches keys half way)
 * @param connections wrk's connections ({@code -c})
 * @param jmhIterations JMH measured iterations per benchmark (warm-up iterations: the same)
 * @param jmhSeconds each JMH iteration
 * @param outDir where results go
 * @param repoRoot where the JMH module and the peers are looked for
 */
public record AuthSettings(boolean quick, List<String> targets, int rounds, int warmupSeconds, int durationSeconds, int connections,
                           int jmhIterations, int jmhSeconds, Path outDir, Path repoRoot) {
    /** The options, for usage lines. */
    public static final String USAGE = "[--quick] [--targets a,b] [--rounds N] [--warmup S] [--duration S] [--connections N] "
            + "[--jmh-iterations N] [--jmh-seconds S] [--out DIR]";

    /** @return the suite name in result file names */
    public String suite() {
        return quick ? "auth-quick" : "auth";
    }

    /** @return JMH's options: one fork per benchmark, as many warm-up as measured iterations */
    List<String> jmhOptions() {
        return List.of("-f", "1", "-wi", Integer.toString(jmhIterations), "-w", jmhSeconds + "s", "-i", Integer.toString(jmhIterations),
                "-r", jmhSeconds + "s");
    }

    /**
     * @param args the arguments after {@code auth}
     * @return the settings
     */
    public static AuthSettings parse(List<String> args) {
        boolean quick = args.contains("--quick");
        List<String> targets = List.of();
        // JMH 4 benchmarks x (5 + 5) x 2 s, then 3 rounds of 2 targets x 3 cases x (5 s + 10 s), then the rotation: about 10 minutes
        int rounds = quick ? 1 : 3, warmup = quick ? 1 : 5, duration = quick ? 3 : 10, connections = 64;
        int jmhIterations = quick ? 1 : 5, jmhSeconds = quick ? 1 : 2;
        Path out = Path.of("bench", "results");
        Path root = Path.of("");
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            switch (a) {
                case "--quick" -> { }
                case "--targets" -> targets = words(value(args, ++i, a));
                case "--rounds" -> rounds = positive(value(args, ++i, a), a);
                case "--warmup" -> warmup = Integer.parseInt(value(args, ++i, a));
                case "--duration" -> duration = positive(value(args, ++i, a), a);
                case "--connections" -> connections = positive(value(args, ++i, a), a);
                case "--jmh-iterations" -> jmhIterations = positive(value(args, ++i, a), a);
                case "--jmh-seconds" -> jmhSeconds = positive(value(args, ++i, a), a);
                case "--out" -> out = Path.of(value(args, ++i, a));
                case "--root" -> root = Path.of(value(args, ++i, a));
                default -> throw new IllegalArgumentException("unknown option " + a + " (auth takes " + USAGE + ")");
            }
        }
        if (warmup < 0) throw new IllegalArgumentException("--warmup must be >= 0");
        if (duration < 2) throw new IllegalArgumentException("--duration must be >= 2 (the rotation switches keys half way)");
        return new AuthSettings(quick, targets, rounds, warmup, duration, connections, jmhIterations, jmhSeconds, out, root);
    }
}
