package dev.tidemill.bench;

import dev.tidemill.bench.targets.BaselineNetty;
import dev.tidemill.bench.targets.TidemillApp;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Every target this machine can run: Tidemill in its three modes (the page from a baked template),
 * {@code tidemill-builder} (the default mode, the page from the HTML builder), the Netty baseline,
 * nginx when installed, and the peers found under
 * {@code tidemill-bench/peers/<name>/target/classpath.txt}.
 */
public final class TargetCatalog {
    /** Name of the target every ratio is computed against. */
    public static final String BASELINE = "baseline";

    /**
     * JVM flags every JVM target gets: fixed heap, one GC for all, pre-touch off, and the Netty/JDK
     * 25 flags (a flag Tidemill gets, its peers get too: the Unsafe flag alone moved raw Netty
     * 1.18-1.28x here).
     */
    public static final List<String> JVM_FLAGS = List.of("-Xms1g", "-Xmx1g", "-XX:+UseParallelGC",
            "-XX:-AlwaysPreTouch", "--sun-misc-unsafe-memory-access=allow", "--enable-native-access=ALL-UNNAMED");

    private final List<Target> targets = new ArrayList<>();

    /**
     * @param repoRoot the repository root (where peers are looked for)
     * @param classPath the class path holding the runner's own targets
     */
    public TargetCatalog(Path repoRoot, String classPath) {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        for (String mode : List.of("io", "loop", "virtual")) {
            targets.add(new Target("tidemill-" + mode, "tidemill", true, false, (port, threads, dir) ->
                    new Target.Command(jvm(java, classPath, TidemillApp.class.getName()),
                            Map.of("TIDEMILL_MODE", mode, "TIDEMILL_PORT", Integer.toString(port),
                                    "TIDEMILL_IO_THREADS", Integer.toString(threads),
                                    "TIDEMILL_LOOPS", Integer.toString(threads)))));
        }
        // The builder's page next to the baked one: the default mode, the page built on every request.
        targets.add(new Target("tidemill-builder", "tidemill", true, false, (port, threads, dir) ->
                new Target.Command(jvm(java, classPath, TidemillApp.class.getName(), TidemillApp.BUILDER_PAGE),
                        Map.of("TIDEMILL_PORT", Integer.toString(port), "TIDEMILL_IO_THREADS", Integer.toString(threads),
                                "TIDEMILL_LOOPS", Integer.toString(threads)))));
        // The default mode with metrics off: what recording them costs (./tidemill bench metrics).
        targets.add(new Target(MetricsCost.OFF, "tidemill", true, false, (port, threads, dir) ->
                new Target.Command(jvm(java, classPath, TidemillApp.class.getName()),
                        Map.of("TIDEMILL_MODE", "loop", "TIDEMILL_METRICS", "false", "TIDEMILL_PORT", Integer.toString(port),
                                "TIDEMILL_IO_THREADS", Integer.toString(threads), "TIDEMILL_LOOPS", Integer.toString(threads)))));
        targets.add(new Target(BASELINE, "baseline", true, false, (port, threads, dir) ->
                new Target.Command(jvm(java, classPath, BaselineNetty.class.getName(), Integer.toString(port),
                        Integer.toString(threads)), Map.of())));
        Host.executable("nginx").ifPresent(nginx -> targets.add(nginx(nginx)));
        for (Path peer : peers(repoRoot)) {
            String name = peer.getFileName().toString();
            String cp = peer.resolve("target/classes") + ":" + read(peer.resolve("target/classpath.txt"));
            targets.add(new Target(name, "peer", true, false, (port, threads, dir) ->
                    new Target.Command(jvm(java, cp, "dev.tidemill.bench.peers." + name.replace("-", "") + ".Main",
                            Integer.toString(port), Integer.toString(threads)), Map.of())));
        }
    }

    /**
     * Tidemill's bench app as the Tidemill-only suites start it: the runner's own class path, the
     * common JVM flags, and the given {@code TIDEMILL_*} settings on top of port, I/O threads
     * (one per server CPU) and worker loops.
     *
     * @param name the target's name in results
     * @param settings extra {@code TIDEMILL_*} variables (mode, concurrency...)
     * @param loops worker loops
     * @return the target
     */
    public static Target tidemill(String name, Map<String, String> settings, int loops) {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String cp = System.getProperty("java.class.path");
        return new Target(name, "tidemill", true, false, (port, threads, dir) -> {
            Map<String, String> env = new java.util.LinkedHashMap<>(settings);
            env.put("TIDEMILL_PORT", Integer.toString(port));
            env.put("TIDEMILL_IO_THREADS", Integer.toString(threads));
            env.put("TIDEMILL_LOOPS", Integer.toString(loops));
            return new Target.Command(jvm(java, cp, TidemillApp.class.getName()), env);
        });
    }

    /**
     * @param nginx the nginx executable
     * @return the native reference: nginx answering {@code /plaintext} with one worker ({@link Nginx#command})
     */
    static Target nginx(Path nginx) {
        return new Target("nginx", "native", false, true, (port, threads, dir) -> new Target.Command(Nginx.command(nginx, port, dir), Map.of()));
    }

    private static List<String> jvm(String java, String cp, String main, String... args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(java);
        cmd.addAll(JVM_FLAGS);
        cmd.addAll(List.of("-cp", cp, main));
        cmd.addAll(List.of(args));
        return cmd;
    }

    private static List<Path> peers(Path root) {
        Path dir = root.resolve("tidemill-bench/peers");
        if (!Files.isDirectory(dir)) return List.of();
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> Files.isRegularFile(p.resolve("target/classpath.txt"))).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String read(Path p) {
        try {
            return Files.readString(p).trim();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** @return every target found, Tidemill's first */
    public List<Target> all() {
        return List.copyOf(targets);
    }

    /**
     * @param names target names; empty for all
     * @return those targets, the baseline always included (ratios need it)
     * @throws IllegalArgumentException naming an unknown target and the known ones
     */
    public List<Target> select(List<String> names) {
        // Metrics off is measured by ./tidemill bench metrics; a full run measures what ships.
        if (names.isEmpty()) return all().stream().filter(t -> !t.name().equals(MetricsCost.OFF)).toList();
        List<Target> out = new ArrayList<>();
        for (String n : names) out.add(byName(n));
        if (out.stream().noneMatch(t -> t.name().equals(BASELINE))) out.add(byName(BASELINE));
        return out;
    }

    private Target byName(String n) {
        return targets.stream().filter(t -> t.name().equals(n)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown target " + n + "; found: "
                        + String.join(", ", targets.stream().map(Target::name).toList())));
    }
}
