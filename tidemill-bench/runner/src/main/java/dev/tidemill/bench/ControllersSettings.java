package dev.tidemill.bench;

import static dev.tidemill.bench.Args.positive;
import static dev.tidemill.bench.Args.value;
import static dev.tidemill.bench.Args.words;

import java.nio.file.Path;
import java.util.List;

/**
 * Options of {@code ./tidemill bench controllers}: a controller route against the identical DSL
 * route, the start-up cost of generated controllers' routes, and what the processor adds to javac.
 *
 * @param quick short windows, one round, fewer fresh JVMs and javac runs (to check that everything works end to end, not to compare)
 * @param parts the parts to run, of {@link #PARTS}
 * @param rounds rounds of the request cases (rotating which form goes first)
 * @param warmupSeconds unrecorded load of each case before the first round
 * @param durationSeconds each measured window
 * @param connections wrk's connections ({@code -c})
 * @param startRuns fresh JVMs per start-up variant and JVM kind ({@link ControllersStartup#VARIANTS} x {@link ControllersStartup#JVMS})
 * @param startControllers generated controllers the start-up part registers
 * @param javacRuns fresh javac processes with and without the processor, alternating
 * @param javacControllers generated controllers the javac part compiles
 * @param repoRoot the repository root (where the processor's class path file is)
 * @param outDir where results go
 */
public record ControllersSettings(boolean quick, List<String> parts, int rounds, int warmupSeconds, int durationSeconds, int connections,
                                  int startRuns, int startControllers, int javacRuns, int javacControllers, Path repoRoot, Path outDir) {
    /** The parts, in the order they run. */
    public static final List<String> PARTS = List.of("requests", "start", "javac");

    /** The options, for usage lines. */
    public static final String USAGE = "[--quick] [--parts requests,start,javac] [--rounds N] [--warmup S] [--duration S] "
            + "[--connections N] [--start-runs N] [--start-controllers N] [--javac-runs N] [--javac-controllers N] [--root DIR] [--out DIR]";

    /** @return the suite name in result file names */
    public String suite() {
        return quick ? "controllers-quick" : "controllers";
    }

    /**
     * @param args the arguments after {@code controllers}
     * @return the settings
     * @throws IllegalArgumentException on an unknown or malformed option
     */
    public static ControllersSettings parse(List<String> args) {
        boolean quick = args.contains("--quick");
        // Full: 6 cases x 10 s warm-up, 5 rounds x 6 cases x 10 s, 3 AOT training runs (about 10 s each) and 12 x 5 fresh JVMs
        // for start-up (2 to 4 s each), 3 x 5 javac runs of 200 controllers (5 to 20 s each): about 13 minutes after the
        // preflight. Quick: about a minute, with fewer controllers (to check the pipeline, not to compare).
        int rounds = quick ? 1 : 5, warmup = quick ? 2 : 10, duration = quick ? 2 : 10, connections = 64;
        int startRuns = quick ? 1 : 5, startControllers = quick ? 20 : 100, javacRuns = quick ? 1 : 5, javacControllers = quick ? 50 : 200;
        List<String> parts = PARTS;
        Path root = Path.of(""), out = Path.of("bench", "results");
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            switch (a) {
                case "--quick" -> { }
                case "--parts" -> {
                    parts = words(value(args, ++i, a));
                    for (String p : parts) {
                        if (!PARTS.contains(p)) throw new IllegalArgumentException("unknown part " + p + " (parts: " + String.join(",", PARTS) + ")");
                    }
                    if (parts.isEmpty()) throw new IllegalArgumentException("--parts names none");
                }
                case "--rounds" -> rounds = positive(value(args, ++i, a), a);
                case "--warmup" -> warmup = Integer.parseInt(value(args, ++i, a));
                case "--duration" -> duration = positive(value(args, ++i, a), a);
                case "--connections" -> connections = positive(value(args, ++i, a), a);
                case "--start-runs" -> startRuns = positive(value(args, ++i, a), a);
                case "--start-controllers" -> startControllers = positive(value(args, ++i, a), a);
                case "--javac-runs" -> javacRuns = positive(value(args, ++i, a), a);
                case "--javac-controllers" -> javacControllers = positive(value(args, ++i, a), a);
                case "--root" -> root = Path.of(value(args, ++i, a));
                case "--out" -> out = Path.of(value(args, ++i, a));
                default -> throw new IllegalArgumentException("unknown option " + a + " (controllers takes " + USAGE + ")");
            }
        }
        if (warmup < 0) throw new IllegalArgumentException("--warmup must be >= 0");
        if (startControllers > 1000 || javacControllers > 1000) throw new IllegalArgumentException("at most 1000 generated controllers");
        List<String> ordered = PARTS.stream().filter(parts::contains).toList();
        return new ControllersSettings(quick, ordered, rounds, warmup, duration, connections, startRuns, startControllers, javacRuns,
                javacControllers, root, out);
    }
}
