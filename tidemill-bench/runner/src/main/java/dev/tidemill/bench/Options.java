package dev.tidemill.bench;

import static dev.tidemill.bench.Args.positive;
import static dev.tidemill.bench.Args.value;
import static dev.tidemill.bench.Args.words;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * The command line of {@code ./tidemill bench}.
 *
 * @param quick shorter everything: one round, short windows
 * @param strict refuse to measure when a preflight check fails
 * @param targets target names (empty: all found)
 * @param scenarios the scenarios to measure
 * @param rounds rounds
 * @param durationSeconds measurement window per scenario
 * @param warmupSeconds warm-up per JVM target per round
 * @param connections default connections
 * @param wrkThreads wrk threads
 * @param outDir where results go
 * @param repoRoot the repository root (peers are found under it)
 * @param resume a checkpoint ({@code -partial.json}) whose complete rounds are kept; null for a new run
 * @param name the suite's name: {@code full} ({@code ./tidemill bench}) or {@code pages}
 *     ({@code ./tidemill bench pages}: the page and the two mixes, one short round)
 */
public record Options(boolean quick, boolean strict, List<String> targets, List<ScenarioRun> scenarios, int rounds,
                      int durationSeconds, int warmupSeconds, int connections, int wrkThreads, Path outDir, Path repoRoot,
                      Path resume, String name) {

    /** Scenarios of a quick run: one of each kind of work, so the whole run stays near 3 minutes. */
    static final List<ScenarioRun> QUICK_SCENARIOS = List.of(ScenarioRun.PLAINTEXT, ScenarioRun.JSON, ScenarioRun.PAGE, ScenarioRun.MIX);

    /** Scenarios of {@code bench pages}: the HTML page, the mix without and with a browser's Accept-Encoding. */
    static final List<ScenarioRun> PAGES_SCENARIOS = List.of(ScenarioRun.PAGE, ScenarioRun.MIX, ScenarioRun.BROWSER_MIX);

    /** The name of {@code bench metrics} runs: plaintext with metrics on and off ({@link MetricsCost}). */
    public static final String METRICS = MetricsCost.SUITE;

    /** The name of {@code bench pages} runs. */
    public static final String PAGES = "pages";

    /**
     * @param args the arguments after {@code bench} (and after a subcommand)
     * @return the options
     * @throws IllegalArgumentException on an unknown or malformed option
     */
    public static Options parse(List<String> args) {
        return parse(args, "full");
    }

    /**
     * {@code bench pages}: {@link #PAGES_SCENARIOS} over every target in one round of 6 s windows
     * after a 12 s warm-up (a few minutes for a dozen targets; {@code --rounds} and the rest as in
     * {@link #parse(List)}).
     *
     * @param args the arguments after {@code pages}
     * @return the options
     */
    public static Options parsePages(List<String> args) {
        return parse(args, PAGES);
    }

    /**
     * {@code bench metrics}: plaintext, {@link MetricsCost#ON} and {@link MetricsCost#OFF} (and the
     * baseline, as every run), 3 rounds of 6 s windows after a 12 s warm-up.
     *
     * @param args the arguments after {@code metrics}
     * @return the options
     */
    public static Options parseMetrics(List<String> args) {
        return parse(args, METRICS);
    }

    private static Options parse(List<String> args, String name) {
        boolean quick = args.contains("--quick");
        boolean metrics = name.equals(METRICS);
        boolean pages = name.equals(PAGES) || metrics;
        boolean strict = false;
        List<String> targets = metrics ? List.of(MetricsCost.ON, MetricsCost.OFF) : List.of();
        List<ScenarioRun> scenarios = metrics ? List.of(ScenarioRun.PLAINTEXT) : pages ? PAGES_SCENARIOS : quick ? QUICK_SCENARIOS : ScenarioRun.all();
        // Quick: one round, short windows (per target: settle, JVM start, warm-up, four windows).
        // How long that takes here: time ./tidemill bench --quick (a fresh clone has five targets;
        // the peers are built only with -Ppeers).
        // Metrics: five rounds and 30 s of warm-up. With three rounds and 12 s the two targets' CPU
        // per request differed by +3.8 % (bench/results/20261201T203222Z-metrics.json), and a
        // profile of the same warm-up showed C2 still compiling (about 7 % of samples); with these
        // settings the difference was +1.9 % (bench/results/20261201T210507Z-metrics.json).
        int rounds = quick || (pages && !metrics) ? 1 : metrics ? 5 : 3;
        int duration = quick ? 2 : pages ? 6 : 10;
        int warmup = quick ? 4 : metrics ? 30 : pages ? 12 : 60;
        int connections = 64;
        Path out = Path.of("bench", "results");
        Path root = Path.of("");
        Path resume = null;
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            switch (a) {
                case "--quick" -> { }
                case "--strict" -> strict = true;
                case "--targets" -> targets = words(value(args, ++i, a));
                case "--scenarios" -> scenarios = words(value(args, ++i, a)).stream().map(ScenarioRun::byId).toList();
                case "--rounds" -> rounds = positive(value(args, ++i, a), a);
                case "--duration" -> duration = positive(value(args, ++i, a), a);
                case "--warmup" -> warmup = Integer.parseInt(value(args, ++i, a));
                case "--connections" -> connections = positive(value(args, ++i, a), a);
                case "--out" -> out = Path.of(value(args, ++i, a));
                case "--root" -> root = Path.of(value(args, ++i, a));
                case "--resume" -> resume = Path.of(value(args, ++i, a));
                default -> throw new IllegalArgumentException("unknown option " + a);
            }
        }
        return new Options(quick, strict, targets, scenarios, rounds, duration, Math.max(0, warmup), connections, 1, out, root, resume,
                name);
    }




    /** @return the suite name in result file names */
    public String suite() {
        if (name.equals("full")) return quick ? "quick" : "full";
        return quick ? name + "-quick" : name;
    }

    /**
     * @return how long a target's start waits for the load to settle, seconds: 30 in a full run
     *     (whose ratios must hold across rounds), 5 in {@code pages} (one round, a dozen targets), 3 quick
     */
    public int settleSeconds() {
        return quick ? 3 : name.equals("full") ? Preflight.LOAD_SETTLE_SECONDS : 5;
    }

    /** @return the most connections any chosen scenario opens */
    public int maxConnections() {
        return scenarios.stream().mapToInt(s -> s.connections(connections)).max().orElse(connections);
    }
}
