package dev.tidemill.bench;

import dev.tidemill.bench.common.TlsContract;
import dev.tidemill.bench.targets.LoopsNetty;
import dev.tidemill.bench.targets.LoopsTidemill;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The server columns of the event-loop matrix ({@code dev.tidemill.bench.common.LoopsContract}):
 * Tidemill ({@link LoopsTidemill}) in IO and LOOP mode on each of Netty's transports (io_uring also
 * with its buffer ring, {@code TIDEMILL_TRANSPORT=io_uring_buffer_ring}) and in VIRTUAL mode on epoll; raw Netty ({@link LoopsNetty}) per transport, io_uring also with a provided-buffer
 * ring; and each peer's {@code LoopsMain}: the JDK's {@code HttpServer} on virtual threads (its TCP
 * echo a blocking socket per virtual thread), Helidon SE 4, Jetty 12 on virtual threads and Vert.x 5.
 */
final class LoopsTargets {
    /** Peers: column name, module under tidemill-bench/peers. */
    private static final Map<String, String> PEERS = orderedPeers();

    /**
     * Rows a column does not serve, and why, known before anything starts. Everything else that
     * cannot run (a transport this kernel refuses, a peer not built, an upgrade refused over TLS) is
     * found when the cell starts and reported with the server's own message.
     */
    private static final Map<String, Map<LoopsRow, String>> NOT_SERVED = notServed();

    private LoopsTargets() {}

    private static Map<String, String> orderedPeers() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("jdk", "jdk-httpserver");
        m.put("helidon", "helidon");
        m.put("jetty", "jetty");
        m.put("vertx", "vertx-core");
        return java.util.Collections.unmodifiableMap(m);
    }

    private static Map<String, Map<LoopsRow, String>> notServed() {
        Map<String, Map<LoopsRow, String>> m = new LinkedHashMap<>();
        String noTcp = "Tidemill serves HTTP and WebSocket; it has no raw TCP API";
        for (String c : tidemillColumns()) m.put(c, Map.of(LoopsRow.TCP, noTcp));
        String noWs = "the JDK's HttpServer has no WebSocket";
        m.put("jdk", Map.of(LoopsRow.WS, noWs, LoopsRow.WSS, noWs));
        m.put("helidon", Map.of(LoopsRow.TCP, "Helidon SE 4 has no raw TCP server API"));
        m.put("jetty", Map.of(LoopsRow.TCP, "Jetty 12's connectors serve HTTP protocols; no raw TCP API is exposed"));
        return m;
    }

    private static List<String> tidemillColumns() {
        List<String> out = new ArrayList<>();
        for (String mode : List.of("io", "loop")) {
            for (String t : List.of("nio", "epoll", "io_uring", "io_uring_buffer_ring")) out.add("tidemill-" + mode + "-" + t);
        }
        out.add("tidemill-virtual-epoll");
        return out;
    }

    /** @return every column, in table order */
    static List<String> names() {
        List<String> out = new ArrayList<>(tidemillColumns());
        for (String t : List.of("nio", "epoll", "io_uring", "io_uring-rings")) out.add("netty-" + t);
        out.addAll(PEERS.keySet());
        return List.copyOf(out);
    }

    /**
     * @param column a column
     * @param row a network row
     * @return why the column does not serve the row, if it does not
     */
    static java.util.Optional<String> notServed(String column, LoopsRow row) {
        return java.util.Optional.ofNullable(NOT_SERVED.getOrDefault(column, Map.of()).get(row));
    }

    /**
     * The ports of one start.
     *
     * @param tls the TLS port
     * @param tcp the TCP echo port (0: none)
     */
    record Ports(int tls, int tcp) {}

    /**
     * @param column a column of {@link #names()}
     * @param repoRoot where the peers are looked for
     * @param ports the TLS and TCP ports chosen for the start
     * @param certDir the run's certificate ({@link TlsContract})
     * @return how it starts, for {@link RunningTarget} (which picks the plain port)
     * @throws IllegalStateException naming why when it cannot start here (a peer not built)
     */
    static Target target(String column, Path repoRoot, Ports ports, Path certDir) {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String cp = System.getProperty("java.class.path");
        if (column.startsWith("tidemill-")) {
            String[] parts = column.split("-", 3);
            return new Target(column, "tidemill", true, false, (port, threads, dir) -> {
                Map<String, String> env = new LinkedHashMap<>();
                env.put("TIDEMILL_MODE", parts[1]);
                env.put("TIDEMILL_TRANSPORT", parts[2]);
                env.put("TIDEMILL_PORT", Integer.toString(port));
                env.put("TIDEMILL_IO_THREADS", Integer.toString(threads));
                env.put("TIDEMILL_LOOPS", Integer.toString(threads));
                env.put("TIDEMILL_TLS_PORT", Integer.toString(ports.tls()));
                env.put("TIDEMILL_TLS_CERT", TlsContract.cert(certDir).toString());
                env.put("TIDEMILL_TLS_KEY", TlsContract.key(certDir).toString());
                return new Target.Command(TlsTargets.jvm(java, cp, LoopsTidemill.class.getName()), env);
            });
        }
        if (column.startsWith("netty-")) {
            String transport = column.substring("netty-".length());
            return new Target(column, "netty", true, false, (port, threads, dir) -> new Target.Command(
                    args(TlsTargets.jvm(java, cp, LoopsNetty.class.getName()), port, ports, threads, certDir, transport), Map.of()));
        }
        String module = PEERS.get(column);
        if (module == null) throw new IllegalArgumentException("unknown server " + column);
        Path dir = repoRoot.resolve("tidemill-bench/peers").resolve(module);
        String main = "dev.tidemill.bench.peers." + module.replace("-", "") + ".LoopsMain";
        if (!Files.isRegularFile(dir.resolve("target/classpath.txt"))
                || !Files.isRegularFile(dir.resolve("target/classes").resolve(main.replace('.', '/') + ".class"))) {
            throw new IllegalStateException("peer module " + module + " is not built (./tidemill bench loops builds it with -Ppeers)");
        }
        String peerCp = TlsTargets.peerClassPath(dir);
        return new Target(column, "peer", true, false, (port, threads, work) ->
                new Target.Command(args(TlsTargets.jvm(java, peerCp, main), port, ports, threads, certDir), Map.of()));
    }

    private static List<String> args(List<String> argv, int port, Ports ports, int threads, Path certDir, String... extra) {
        List<String> out = new ArrayList<>(argv);
        out.addAll(List.of(Integer.toString(port), Integer.toString(ports.tls()), Integer.toString(ports.tcp()), Integer.toString(threads),
                certDir.toString()));
        out.addAll(List.of(extra));
        return out;
    }

    /**
     * @param column a column
     * @return its transport as the auto rule reads it ({@code nio}, {@code epoll}, {@code io_uring}), or empty for a peer
     */
    static String transport(String column) {
        if (column.startsWith("tidemill-")) return column.split("-", 3)[2];
        if (column.startsWith("netty-")) return column.substring("netty-".length());
        return "";
    }

    /**
     * @param column a column
     * @return what it is, for the report
     */
    static String describe(String column) {
        if (column.startsWith("tidemill-")) {
            String[] p = column.split("-", 3);
            return "Tidemill, TIDEMILL_MODE=" + p[1] + ", TIDEMILL_TRANSPORT=" + p[2] + ", TLS by TIDEMILL_TLS_PROVIDER=auto";
        }
        if (column.equals("netty-io_uring-rings")) {
            return "raw Netty on io_uring with a provided-buffer ring (IoUringIoHandlerConfig.setBufferRingConfig: group 1, "
                    + "512 buffers, IoUringAdaptiveBufferRingAllocator; child option IO_URING_BUFFER_GROUP_ID=1)";
        }
        if (column.startsWith("netty-")) return "raw Netty on " + transport(column) + " (codec, aggregator, pre-built response)";
        return switch (column) {
            case "jdk" -> "the JDK's HttpServer (and HttpsServer) with a virtual-thread-per-task executor; TCP echo: a ServerSocket, "
                    + "a virtual thread per connection";
            case "helidon" -> "Helidon SE 4 (a virtual thread per connection and request)";
            case "jetty" -> "Jetty 12 with virtual threads (QueuedThreadPool.setVirtualThreadsExecutor), blocking handlers";
            case "vertx" -> "Vert.x 5 core (HttpServer, NetServer), handlers on its event loop";
            default -> column;
        };
    }
}
