package dev.tidemill.bench.streams;

import dev.tidemill.bench.Target;
import dev.tidemill.bench.TargetCatalog;
import dev.tidemill.bench.targets.BaselineStreams;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The servers the streams suite measures, each serving the same contract: {@code GET /sse/fanout}
 * (a lossless stream), {@code GET /sse/lossy} (a stream that drops for a subscriber that cannot
 * keep up), {@code POST <stream>/publish?events=E&rate=R} (answers 202, then publishes events
 * {@code 1..E}, each {@code id: <seq>} and {@code data: <seq> <System.nanoTime() at publish>},
 * R per second, or as fast as backpressure allows for R = 0), {@code GET <stream>/subscribers}
 * (how many are attached now) and {@code GET /ws/echo} (WebSocket echo). Tidemill's bench app,
 * the lean Netty {@link BaselineStreams}, and each peer's {@code StreamsMain} (a class of its
 * own, so the HTTP suites' peers are left exactly as they were). What a target does not serve is
 * found by probing and reported as not measured.
 */
final class StreamsTargets {
    /** Peers with a {@code StreamsMain}. */
    static final List<String> PEERS = List.of("vertx-core", "helidon", "jetty");

    private StreamsTargets() {}

    /**
     * @param repoRoot where peers are looked for
     * @param maxConnections the most connections a row opens
     * @return every target found, Tidemill first
     */
    static List<Target> all(Path repoRoot, int maxConnections) {
        List<Target> out = new ArrayList<>();
        Map<String, String> env = new LinkedHashMap<>();
        // A stream holds its connection and a concurrency slot for as long as it is open: both
        // limits (10,000 and 1,024 per loop by default) must exceed the largest row, with room
        // for the publish and subscriber-count requests.
        int room = maxConnections + 1_000;
        env.put("TIDEMILL_MAX_CONNECTIONS", Integer.toString(room));
        env.put("TIDEMILL_CONCURRENCY_PER_LOOP", Integer.toString(room));
        out.add(TargetCatalog.tidemill("tidemill", env, 1));
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String cp = System.getProperty("java.class.path");
        out.add(new Target(TargetCatalog.BASELINE, "baseline", true, false, (port, threads, dir) ->
                new Target.Command(jvm(java, cp, BaselineStreams.class.getName(), port, threads), Map.of())));
        for (String name : PEERS) {
            Path peer = repoRoot.resolve("tidemill-bench/peers").resolve(name);
            if (!Files.isRegularFile(peer.resolve("target/classpath.txt"))) continue;
            String peerCp = peer.resolve("target/classes") + ":" + read(peer.resolve("target/classpath.txt"));
            String main = "dev.tidemill.bench.peers." + name.replace("-", "") + ".StreamsMain";
            out.add(new Target(name, "peer", true, false, (port, threads, dir) ->
                    new Target.Command(jvm(java, peerCp, main, port, threads), Map.of())));
        }
        return out;
    }

    /**
     * @param all every target found
     * @param names the names asked for (empty: all)
     * @return those targets
     */
    static List<Target> select(List<Target> all, List<String> names) {
        if (names.isEmpty()) return all;
        List<Target> out = new ArrayList<>();
        for (String n : names) {
            out.add(all.stream().filter(t -> t.name().equals(n)).findFirst().orElseThrow(() -> new IllegalArgumentException(
                    "unknown target " + n + "; found: " + String.join(", ", all.stream().map(Target::name).toList()))));
        }
        return out;
    }

    private static List<String> jvm(String java, String cp, String main, int port, int threads) {
        List<String> cmd = new ArrayList<>();
        cmd.add(java);
        cmd.addAll(TargetCatalog.JVM_FLAGS);
        cmd.addAll(List.of("-cp", cp, main, Integer.toString(port), Integer.toString(threads)));
        return cmd;
    }

    private static String read(Path p) {
        try {
            return Files.readString(p).trim();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
