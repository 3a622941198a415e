package dev.tidemill.bench.cluster;

import dev.tidemill.bench.Target;
import dev.tidemill.bench.TargetCatalog;
import dev.tidemill.bench.targets.RedisRelay;
import dev.tidemill.bench.targets.TidemillClusterApp;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The systems the cluster suite measures, each one or two server processes on the server CPUs:
 * {@value #TIDEMILL_REDIS}, two Tidemill nodes sharing a topic on Redis ({@link TidemillClusterApp}
 * with {@code TIDEMILL_REDIS_URL}); {@value #TIDEMILL_LOCAL}, one node with the topic in process (the
 * same app and class path, without the variable); and {@value #RELAY}, two {@link RedisRelay}
 * processes, plain pub/sub on Lettuce and Netty. The Tidemill nodes run handlers on the event loop
 * ({@code TIDEMILL_MODE=io}), as the relay does. Every process gets the runner's class path plus
 * {@code target/cluster-classpath.txt} (tidemill-redis and Lettuce, which the runner itself is built
 * without).
 */
final class ClusterTargets {
    /** Two Tidemill nodes, the topic on Redis. */
    static final String TIDEMILL_REDIS = "tidemill-redis";
    /** One Tidemill node, the topic in process. */
    static final String TIDEMILL_LOCAL = "tidemill-local";
    /** Two plain pub/sub relays. */
    static final String RELAY = "relay";
    /** Every system, in the order a full run measures them. */
    static final List<String> ALL = List.of(RELAY, TIDEMILL_REDIS, TIDEMILL_LOCAL);
    /** Where the runner's module writes the cluster class path, from the repository root. */
    static final String CLASS_PATH_FILE = "tidemill-bench/runner/target/cluster-classpath.txt";

    private ClusterTargets() {}

    /**
     * A system.
     *
     * @param name its name in results
     * @param nodes 1 (publish and subscribe on the same node) or 2 (publish on A, subscribe on B)
     * @param redis whether it uses Redis
     * @param what what it is, for the report
     */
    record Spec(String name, int nodes, boolean redis, String what) {}

    /**
     * @param name a system's name
     * @return the system
     */
    static Spec spec(String name) {
        return switch (name) {
            case TIDEMILL_REDIS -> new Spec(name, 2, true, "two Tidemill nodes (TidemillClusterApp), Topic<String> on Redis Streams "
                    + "(tidemill-redis, TIDEMILL_REDIS_URL), publishAsync on A, Response.sse(topic, ...) on B, TIDEMILL_MODE=io");
            case TIDEMILL_LOCAL -> new Spec(name, 1, false, "one Tidemill node (the same app and class path, no TIDEMILL_REDIS_URL): "
                    + "the topic in process, publish and subscribe on that node, TIDEMILL_MODE=io");
            case RELAY -> new Spec(name, 2, true, "two plain relays (RedisRelay): raw Netty HTTP, POST /publish -> Lettuce PUBLISH, "
                    + "GET /events fed by one Lettuce SUBSCRIBE connection per process, each message one shared chunk for every stream");
            default -> throw new IllegalArgumentException("unknown target " + name + "; known: " + ALL);
        };
    }

    /**
     * @param system the system
     * @param node {@code a} or {@code b}
     * @param redisUrl the run's Redis
     * @param maxConnections the most connections a row holds on one node
     * @param repoRoot the repository root
     * @return how its node starts (RunningTarget picks the port)
     */
    static Target node(Spec system, String node, String redisUrl, int maxConnections, Path repoRoot) {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String cp = System.getProperty("java.class.path") + ":" + clusterClassPath(repoRoot);
        String name = system.name() + (system.nodes() > 1 ? "-" + node : "");
        if (system.name().equals(RELAY)) {
            return new Target(name, "relay", true, false, (port, threads, dir) -> new Target.Command(
                    jvm(java, cp, RedisRelay.class.getName(), Integer.toString(port), Integer.toString(threads), redisUrl), Map.of()));
        }
        return new Target(name, "tidemill", true, false, (port, threads, dir) -> {
            Map<String, String> env = new LinkedHashMap<>();
            env.put("TIDEMILL_MODE", "io");
            env.put("TIDEMILL_PORT", Integer.toString(port));
            env.put("TIDEMILL_IO_THREADS", Integer.toString(threads));
            env.put("TIDEMILL_LOOPS", Integer.toString(threads));
            // Each stream holds a connection and a concurrency slot while it is open: room for every subscriber and the publishes.
            env.put("TIDEMILL_MAX_CONNECTIONS", Integer.toString(maxConnections + 1_000));
            env.put("TIDEMILL_CONCURRENCY_PER_LOOP", Integer.toString(maxConnections + 1_000));
            if (system.redis()) {
                env.put("TIDEMILL_REDIS_URL", redisUrl);
                env.put("TIDEMILL_NODE_ID", "bench-" + node);
            }
            return new Target.Command(jvm(java, cp, TidemillClusterApp.class.getName()), env);
        });
    }

    /** @return the class path the cluster nodes need on top of the runner's */
    static String clusterClassPath(Path repoRoot) {
        Path file = repoRoot.resolve(CLASS_PATH_FILE);
        if (!Files.isRegularFile(file)) {
            throw new IllegalStateException("no " + CLASS_PATH_FILE + ": build the runner with Maven's package phase "
                    + "(./tidemill bench cluster does), which writes tidemill-redis's and Lettuce's class path there");
        }
        try {
            return Files.readString(file).trim();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<String> jvm(String java, String cp, String main, String... args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(java);
        cmd.addAll(TargetCatalog.JVM_FLAGS);
        cmd.addAll(List.of("-cp", cp, main));
        cmd.addAll(List.of(args));
        return cmd;
    }
}
