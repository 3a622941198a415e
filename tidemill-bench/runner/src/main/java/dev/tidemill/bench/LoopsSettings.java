package dev.tidemill.bench;

import static dev.tidemill.bench.Args.positive;
import static dev.tidemill.bench.Args.value;
import static dev.tidemill.bench.Args.words;

import java.nio.file.Path;
import java.util.List;

/**
 * Options of {@code ./tidemill bench loops}, the event-loop matrix. Every cell (a row on an executor
 * or against a server) gets {@code primeSeconds} of unrecorded load (network rows; a JVM compiles
 * as it goes), {@code warmups} runs that are not counted, then {@code runs} timed runs, in one
 * process started for the cell. A second pass ({@code rerun}) measures every cell again after the
 * whole first pass and flags a median that moved more than {@link #RERUN_TOLERANCE_PERCENT}.
 *
 * @param quick counts divided by {@link LoopsRow#QUICK_DIVISOR}, fewer runs, {@link #QUICK_COLUMNS} only
 *     (to check that every row kind works end to end, not to compare)
 * @param rows the rows to run
 * @param executors the micro rows' columns ({@link LoopsExecutors#NAMES})
 * @param servers the network rows' columns ({@link LoopsTargets#names()})
 * @param warmups uncounted runs per cell, after priming
 * @param runs timed runs per cell (the median is over these)
 * @param primeSeconds unrecorded load of a network row before its warm-ups
 * @param rerun whether a second pass reproduces every median (always in the full form)
 * @param syscalls whether to count system calls with {@code strace -c -f} over one extra, untimed run per network cell
 * @param repoRoot where the peers are looked for
 * @param outDir where results go
 */
public record LoopsSettings(boolean quick, List<LoopsRow> rows, List<String> executors, List<String> servers, int warmups, int runs,
                            int primeSeconds, boolean rerun, boolean syscalls, Path repoRoot, Path outDir) {
    /** The reference's method: the median of seven runs after two warm-ups. */
    static final int RUNS = 7, WARMUPS = 2;
    /** Quick: the median of three after one. */
    static final int QUICK_RUNS = 3, QUICK_WARMUPS = 1;
    /** Seconds of priming per network cell: full, quick. */
    static final int PRIME_SECONDS = 5, QUICK_PRIME_SECONDS = 1;
    /** A second pass's median may differ from the first's by this much before the cell is flagged (percent). */
    static final double RERUN_TOLERANCE_PERCENT = 5.0;
    /**
     * The server columns of {@code --quick}: Tidemill in each mode on epoll and LOOP on io_uring (so the
     * auto rule has two transports to compare), raw Netty on epoll and on io_uring with buffer rings,
     * and each peer: every row kind against every kind of server in a few minutes.
     */
    static final List<String> QUICK_COLUMNS = List.of("tidemill-io-epoll", "tidemill-loop-epoll", "tidemill-loop-io_uring",
            "tidemill-virtual-epoll", "netty-epoll", "netty-io_uring-rings", "jdk", "helidon", "jetty", "vertx");

    /** The options, for usage lines. */
    public static final String USAGE = "[--quick] [--rows " + String.join(",", LoopsRow.ids()) + "] [--executors a,b] [--servers a,b] "
            + "[--runs N] [--warmups N] [--prime S] [--rerun] [--syscalls] [--root DIR] [--out DIR]";

    /** @return the suite name in result file names */
    public String suite() {
        return quick ? "loops-quick" : "loops";
    }

    /**
     * @param args the arguments after {@code loops}
     * @return the settings
     * @throws IllegalArgumentException on an unknown or malformed option
     */
    public static LoopsSettings parse(List<String> args) {
        boolean quick = args.contains("--quick");
        List<LoopsRow> rows = List.of(LoopsRow.values());
        List<String> executors = LoopsExecutors.NAMES;
        List<String> servers = quick ? QUICK_COLUMNS : LoopsTargets.names();
        int runs = quick ? QUICK_RUNS : RUNS, warmups = quick ? QUICK_WARMUPS : WARMUPS;
        int prime = quick ? QUICK_PRIME_SECONDS : PRIME_SECONDS;
        boolean rerun = !quick, syscalls = false;
        Path root = Path.of(""), out = Path.of("bench", "results");
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            switch (a) {
                case "--quick" -> { }
                case "--rows" -> rows = words(value(args, ++i, a)).stream().map(LoopsRow::of).toList();
                case "--executors" -> executors = known(words(value(args, ++i, a)), LoopsExecutors.NAMES, "executor");
                case "--servers" -> servers = known(words(value(args, ++i, a)), LoopsTargets.names(), "server");
                case "--runs" -> runs = positive(value(args, ++i, a), a);
                case "--warmups" -> warmups = Integer.parseInt(value(args, ++i, a));
                case "--prime" -> prime = Integer.parseInt(value(args, ++i, a));
                case "--rerun" -> rerun = true;
                case "--syscalls" -> syscalls = true;
                case "--root" -> root = Path.of(value(args, ++i, a));
                case "--out" -> out = Path.of(value(args, ++i, a));
                default -> throw new IllegalArgumentException("unknown option " + a + " (loops takes " + USAGE + ")");
            }
        }
        if (warmups < 0 || prime < 0) throw new IllegalArgumentException("--warmups and --prime must be >= 0");
        List<LoopsRow> ordered = java.util.Arrays.stream(LoopsRow.values()).filter(rows::contains).toList();
        return new LoopsSettings(quick, ordered, executors, servers, warmups, runs, prime, rerun, syscalls, root, out);
    }

    private static List<String> known(List<String> names, List<String> all, String what) {
        for (String n : names) {
            if (!all.contains(n)) throw new IllegalArgumentException("unknown " + what + " " + n + " (" + String.join(", ", all) + ")");
        }
        return all.stream().filter(names::contains).toList();
    }

    /** @return the passes: 2 with the rerun, else 1 */
    int passes() {
        return rerun ? 2 : 1;
    }
}
