package dev.tidemill.bench;

import static dev.tidemill.bench.Args.positive;
import static dev.tidemill.bench.Args.value;
import static dev.tidemill.bench.Args.words;

import java.nio.file.Path;
import java.util.List;

/**
 * Options of {@code ./tidemill bench tls}. Each case of each target gets an unrecorded warm-up and
 * then a measured window, every round; rounds run the targets in a rotated order.
 *
 * @param quick one round, short windows (to check that everything works end to end, not to compare)
 * @param targets target names (empty: every target found but the extra variants)
 * @param cases case ids ({@link TlsCase#ids()}); {@code h1} is always run, every ratio needs it
 * @param rounds rounds
 * @param warmupSeconds unrecorded load before each window
 * @param durationSeconds each measured window
 * @param connections wrk's connections ({@code -c}) for the HTTP/1.1 cases
 * @param h2Connections h2load's connections ({@code -c})
 * @param h2Streams h2load's streams in flight per connection ({@code -m})
 * @param handshakeClients parallel {@code openssl s_time} processes of the handshake cases
 * @param outDir where results go
 * @param repoRoot where the peers are looked for
 */
public record TlsSettings(boolean quick, List<String> targets, List<TlsCase> cases, int rounds, int warmupSeconds, int durationSeconds,
                          int connections, int h2Connections, int h2Streams, int handshakeClients, Path outDir, Path repoRoot) {
    /** The options, for usage lines. */
    public static final String USAGE = "[--quick] [--targets a,b] [--cases " + String.join(",", TlsCase.ids()) + "] [--rounds N] "
            + "[--warmup S] [--duration S] [--connections N] [--h2-connections N] [--streams N] [--handshake-clients N] [--out DIR]";

    /** @return the suite name in result file names */
    public String suite() {
        return quick ? "tls-quick" : "tls";
    }

    /**
     * @param args the arguments after {@code tls}
     * @return the settings
     */
    public static TlsSettings parse(List<String> args) {
        boolean quick = args.contains("--quick");
        List<String> targets = List.of();
        List<TlsCase> cases = List.of(TlsCase.values());
        // 2 rounds of 6 targets x 6 cases x (5 s + 8 s), plus two starts per target: about 18 minutes here
        int rounds = quick ? 1 : 2, warmup = quick ? 1 : 5, duration = quick ? 2 : 8;
        int connections = 64, h2Connections = 16, streams = 32, handshakeClients = 4;
        Path out = Path.of("bench", "results");
        Path root = Path.of("");
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            switch (a) {
                case "--quick" -> { }
                case "--targets" -> targets = words(value(args, ++i, a));
                case "--cases" -> cases = words(value(args, ++i, a)).stream().map(TlsCase::of).toList();
                case "--rounds" -> rounds = positive(value(args, ++i, a), a);
                case "--warmup" -> warmup = Integer.parseInt(value(args, ++i, a));
                case "--duration" -> duration = positive(value(args, ++i, a), a);
                case "--connections" -> connections = positive(value(args, ++i, a), a);
                case "--h2-connections" -> h2Connections = positive(value(args, ++i, a), a);
                case "--streams" -> streams = positive(value(args, ++i, a), a);
                case "--handshake-clients" -> handshakeClients = positive(value(args, ++i, a), a);
                case "--out" -> out = Path.of(value(args, ++i, a));
                case "--root" -> root = Path.of(value(args, ++i, a));
                default -> throw new IllegalArgumentException("unknown option " + a + " (tls takes " + USAGE + ")");
            }
        }
        if (warmup < 0) throw new IllegalArgumentException("--warmup must be >= 0");
        if (!cases.contains(TlsCase.H1)) {
            cases = java.util.stream.Stream.concat(java.util.stream.Stream.of(TlsCase.H1), cases.stream()).toList();
        }
        cases = java.util.Arrays.stream(TlsCase.values()).filter(cases::contains).toList(); // run order, no repeats
        return new TlsSettings(quick, targets, cases, rounds, warmup, duration, connections, h2Connections, streams, handshakeClients,
                out, root);
    }
}
