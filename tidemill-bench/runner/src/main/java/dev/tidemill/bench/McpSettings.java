package dev.tidemill.bench;

import static dev.tidemill.bench.Args.positive;
import static dev.tidemill.bench.Args.value;

import java.nio.file.Path;
import java.util.List;

/**
 * Options of {@code ./tidemill bench mcp}: the CPU of a tool call against the same route over plain
 * HTTP, the heap of idle sessions, and the sockets left after aborted calls.
 *
 * @param quick short windows, one round, fewer sessions and clients (to check that everything works end to end, not to compare)
 * @param rounds rounds of the two cases (alternating which goes first)
 * @param warmupSeconds unrecorded load of each case before the first round
 * @param durationSeconds each measured window
 * @param connections wrk's connections ({@code -c})
 * @param sessions idle sessions opened with {@code initialize}
 * @param aborted clients that send a call to the slow tool and close before its answer
 * @param concurrency aborted clients at a time
 * @param closeAfterMillis how long after sending its call a client closes (less than the slow route's sleep)
 * @param settleSeconds wait after the last aborted client before the sockets are counted
 * @param outDir where results go
 */
public record McpSettings(boolean quick, int rounds, int warmupSeconds, int durationSeconds, int connections, int sessions, int aborted,
                          int concurrency, int closeAfterMillis, int settleSeconds, Path outDir) {
    /** The options, for usage lines. */
    public static final String USAGE = "[--quick] [--rounds N] [--warmup S] [--duration S] [--connections N] [--sessions N] "
            + "[--aborted N] [--concurrency N] [--close-after MS] [--settle S] [--out DIR]";

    /** @return the suite name in result file names */
    public String suite() {
        return quick ? "mcp-quick" : "mcp";
    }

    /**
     * @param args the arguments after {@code mcp}
     * @return the settings
     * @throws IllegalArgumentException on an unknown or malformed option
     */
    public static McpSettings parse(List<String> args) {
        boolean quick = args.contains("--quick");
        // The tool call's path takes longer to compile than the plain route's: after 2 s of warm-up a call still cost about ten
        // times what it costs compiled, after 10 s it was close. Full: 2 x 15 s warm-up, 3 rounds x 2 cases x 10 s, 5,000
        // sessions, 10,000 aborted calls: about 3 minutes after the preflight. Quick: about 40 s.
        int rounds = quick ? 1 : 3, warmup = quick ? 5 : 15, duration = quick ? 3 : 10, connections = 64;
        int sessions = quick ? 500 : 5_000, aborted = quick ? 1_000 : 10_000, concurrency = 200, closeAfter = 50, settle = quick ? 3 : 5;
        Path out = Path.of("bench", "results");
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            switch (a) {
                case "--quick" -> { }
                case "--rounds" -> rounds = positive(value(args, ++i, a), a);
                case "--warmup" -> warmup = Integer.parseInt(value(args, ++i, a));
                case "--duration" -> duration = positive(value(args, ++i, a), a);
                case "--connections" -> connections = positive(value(args, ++i, a), a);
                case "--sessions" -> sessions = positive(value(args, ++i, a), a);
                case "--aborted" -> aborted = positive(value(args, ++i, a), a);
                case "--concurrency" -> concurrency = positive(value(args, ++i, a), a);
                case "--close-after" -> closeAfter = Integer.parseInt(value(args, ++i, a));
                case "--settle" -> settle = Integer.parseInt(value(args, ++i, a));
                case "--out" -> out = Path.of(value(args, ++i, a));
                default -> throw new IllegalArgumentException("unknown option " + a + " (mcp takes " + USAGE + ")");
            }
        }
        if (warmup < 0) throw new IllegalArgumentException("--warmup must be >= 0");
        if (settle < 0) throw new IllegalArgumentException("--settle must be >= 0");
        if (closeAfter < 0 || closeAfter >= dev.tidemill.bench.targets.TidemillMcpApp.SLOW_MILLIS) {
            throw new IllegalArgumentException("--close-after must be >= 0 and below the slow route's "
                    + dev.tidemill.bench.targets.TidemillMcpApp.SLOW_MILLIS + " ms");
        }
        return new McpSettings(quick, rounds, warmup, duration, connections, sessions, aborted, concurrency, closeAfter, settle, out);
    }
}
