package dev.tidemill.bench;

import static dev.tidemill.bench.Args.positive;
import static dev.tidemill.bench.Args.value;
import static dev.tidemill.bench.Args.words;

import dev.tidemill.bench.common.UploadContract;
import dev.tidemill.bench.loadgen.UploadRequest;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Options of {@code ./tidemill bench uploads}. A size at or above {@link #LARGE_BYTES} is run
 * for a fixed count of uploads per connection over {@code largeConnections}; a smaller one for a
 * warm-up and a measured window in seconds over {@code connections}.
 *
 * @param quick one start per target, short windows, 1 MiB and 100 MiB only (to check that
 *     everything works end to end, not to compare)
 * @param targets target names (empty: every target found)
 * @param endpoints endpoint names ({@link #ENDPOINTS})
 * @param sizes file bytes per upload
 * @param connections connections for a small size
 * @param largeConnections connections for a large size
 * @param warmupSeconds unrecorded load per small case before its window
 * @param durationSeconds the measured window of a small case
 * @param largeWarmup uploads per connection before a large case's measured ones
 * @param largeCount measured uploads per connection of a large case
 * @param framing how bodies are framed
 * @param restartPerCase start the server afresh for every case, so its peak RSS is that case's
 * @param rounds times every case is measured, each round running every target once in a rotated
 *     order; a row of the report is the median over rounds (default 3, quick 1)
 * @param outDir where results go
 * @param repoRoot where the peers are looked for
 */
public record UploadsSettings(boolean quick, List<String> targets, List<String> endpoints, List<Long> sizes, int connections,
                              int largeConnections, int warmupSeconds, int durationSeconds, int largeWarmup, int largeCount,
                              UploadRequest.Framing framing, boolean restartPerCase, int rounds, Path outDir, Path repoRoot) {
    /** A size at or above this is run for a count instead of a time: 16 MiB. */
    public static final long LARGE_BYTES = 16L * 1024 * 1024;
    /** 1 KiB, 1 MiB, 100 MiB: the sizes every target is measured at. */
    public static final List<Long> SIZES = List.of(1024L, 1024L * 1024, 100L * 1024 * 1024);

    /**
     * One endpoint of the contract.
     *
     * @param name its name in results
     * @param method {@code PUT} or {@code POST}
     * @param path its path
     * @param multipart whether the body is a multipart form
     */
    public record Endpoint(String name, String method, String path, boolean multipart) {}

    /** The four endpoints, in report order. */
    public static final List<Endpoint> ENDPOINTS = List.of(
            new Endpoint("raw-discard", "PUT", UploadContract.RAW_DISCARD, false),
            new Endpoint("raw-disk", "PUT", UploadContract.RAW_DISK, false),
            new Endpoint("multipart-discard", "POST", UploadContract.MULTIPART_DISCARD, true),
            new Endpoint("multipart-disk", "POST", UploadContract.MULTIPART_DISK, true));

    /** @return the suite name in result file names */
    public String suite() {
        return quick ? "uploads-quick" : "uploads";
    }

    /** @param name an endpoint name @return it */
    public static Endpoint endpoint(String name) {
        return ENDPOINTS.stream().filter(e -> e.name().equals(name)).findFirst().orElseThrow(() -> new IllegalArgumentException(
                "unknown endpoint " + name + "; known: " + String.join(",", ENDPOINTS.stream().map(Endpoint::name).toList())));
    }

    /** @param size file bytes @return whether it is run for a count */
    public static boolean large(long size) {
        return size >= LARGE_BYTES;
    }

    /** @param bytes a size @return it as {@code 1 KiB}, {@code 100 MiB} or bytes */
    public static String label(long bytes) {
        if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) == 0) return bytes / (1024 * 1024) + " MiB";
        if (bytes >= 1024 && bytes % 1024 == 0) return bytes / 1024 + " KiB";
        return bytes + " B";
    }

    /**
     * @param args the arguments after {@code uploads}
     * @return the settings
     */
    public static UploadsSettings parse(List<String> args) {
        boolean quick = args.contains("--quick");
        List<String> targets = List.of();
        List<String> endpoints = ENDPOINTS.stream().map(Endpoint::name).toList();
        List<Long> sizes = quick ? List.of(1024L * 1024, 100L * 1024 * 1024) : SIZES;
        int connections = 4, largeConnections = quick ? 1 : 2, warmup = quick ? 0 : 5, duration = quick ? 1 : 8;
        // 100 MiB cases: 3 uploads per connection first, so C2 has compiled the hot paths before the count
        // (with 1, the first full run's large rows carried the JIT's CPU: 100 MiB cost twice what 1 MiB did per byte).
        // Then 25 measured per connection: with 6, a window lasted under a second at 1.5 GB/s and the
        // same target's 100 MiB rows moved by a quarter between two runs (20261202T033015Z and T033753Z).
        int largeWarmup = quick ? 0 : 3, largeCount = quick ? 1 : 25;
        UploadRequest.Framing framing = UploadRequest.Framing.CONTENT_LENGTH;
        boolean restart = !quick;
        // Rounds: one run's 1 KiB rows moved by up to 2x between runs in the same hour on a 2-core VM
        // (docs/upload-benchmarks.md); a median over 3 rounds in rotated order is what the server suites do.
        int rounds = quick ? 1 : 3;
        Path out = Path.of("bench", "results");
        Path root = Path.of("");
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            switch (a) {
                case "--quick" -> { }
                case "--targets" -> targets = words(value(args, ++i, a));
                case "--endpoints" -> endpoints = words(value(args, ++i, a)).stream().map(n -> endpoint(n).name()).toList();
                case "--sizes" -> sizes = sizes(value(args, ++i, a));
                case "--connections" -> connections = positive(value(args, ++i, a), a);
                case "--large-connections" -> largeConnections = positive(value(args, ++i, a), a);
                case "--warmup" -> warmup = Integer.parseInt(value(args, ++i, a));
                case "--duration" -> duration = positive(value(args, ++i, a), a);
                case "--large-warmup" -> largeWarmup = Integer.parseInt(value(args, ++i, a));
                case "--large-count" -> largeCount = positive(value(args, ++i, a), a);
                case "--framing" -> framing = switch (value(args, ++i, a)) {
                    case "content-length" -> UploadRequest.Framing.CONTENT_LENGTH;
                    case "chunked" -> UploadRequest.Framing.CHUNKED;
                    default -> throw new IllegalArgumentException("--framing is content-length or chunked");
                };
                case "--restart" -> restart = switch (value(args, ++i, a)) {
                    case "case" -> true;
                    case "target" -> false;
                    default -> throw new IllegalArgumentException("--restart is case or target");
                };
                case "--rounds" -> rounds = positive(value(args, ++i, a), a);
                case "--out" -> out = Path.of(value(args, ++i, a));
                case "--root" -> root = Path.of(value(args, ++i, a));
                default -> throw new IllegalArgumentException("unknown option " + a + " (uploads takes " + USAGE + ")");
            }
        }
        if (warmup < 0 || largeWarmup < 0) throw new IllegalArgumentException("warm-ups must be >= 0");
        return new UploadsSettings(quick, targets, endpoints, sizes, connections, largeConnections, warmup, duration, largeWarmup,
                largeCount, framing, restart, rounds, out, root);
    }

    /** The options, for usage lines. */
    public static final String USAGE = "[--quick] [--targets a,b] [--endpoints raw-discard,raw-disk,multipart-discard,multipart-disk] "
            + "[--sizes 1KiB,1MiB,100MiB] [--connections N] [--large-connections N] [--warmup S] [--duration S] "
            + "[--large-warmup N] [--large-count N] [--framing content-length|chunked] [--restart case|target] [--rounds N] [--out DIR]";

    /** @param list sizes such as {@code 1KiB,1MiB,100MiB} or bytes @return them in bytes */
    static List<Long> sizes(String list) {
        List<Long> out = new ArrayList<>();
        for (String w : words(list)) {
            String s = w.toLowerCase(Locale.ROOT).replace(" ", "");
            long unit = s.endsWith("mib") ? 1024L * 1024 : s.endsWith("kib") ? 1024L : 1;
            long n = Long.parseLong(unit == 1 ? s : s.substring(0, s.length() - 3));
            if (n < 1) throw new IllegalArgumentException("--sizes must be >= 1 byte each");
            out.add(n * unit);
        }
        return List.copyOf(out);
    }
}
