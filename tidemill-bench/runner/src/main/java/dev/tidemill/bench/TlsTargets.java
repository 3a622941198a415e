package dev.tidemill.bench;

import dev.tidemill.bench.common.TlsContract;
import dev.tidemill.bench.targets.TidemillApp;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The servers the TLS suite measures ({@code dev.tidemill.bench.common.TlsContract}): Tidemill's
 * bench app in LOOP mode (the default mode) twice, with the OpenSSL provider (BoringSSL through
 * netty-tcnative) and with the JDK's ({@code TIDEMILL_TLS_PROVIDER}), and in IO mode with OpenSSL
 * (handlers on the event loop, as Vert.x runs its own; the HTTP suites measure the same three ways);
 * the {@code TlsMain} of Vert.x Web (its OpenSSL engine; {@code vertx-web-jdk}, the JDK engine, on
 * request), Jetty 12 and Helidon SE; and nginx with a generated config. Each serves a plain port
 * (HTTP/1.1 and h2c by prior knowledge) and a TLS port (ALPN h2 and http/1.1); nginx takes h2c on a
 * third port, because its plain {@code listen ... http2} port speaks only HTTP/2.
 */
final class TlsTargets {
    /** What a full run measures when no {@code --targets} are given. */
    static final List<String> DEFAULT = List.of("tidemill-openssl", "tidemill-jdk", "tidemill-io", "vertx-web", "jetty", "helidon", "nginx");

    private TlsTargets() {}

    /**
     * The ports of one start.
     *
     * @param plain HTTP/1.1 (and h2c, for every target but nginx)
     * @param tls TLS
     * @param h2c h2c by prior knowledge
     */
    record Ports(int plain, int tls, int h2c) {}

    /** Builds how a target is started. */
    @FunctionalInterface
    interface Launch {
        /**
         * @param ports its ports
         * @param ioThreads I/O threads matching the server CPU set
         * @param workDir a scratch directory for this start
         * @param certDir the certificate, key and key store ({@link TlsContract})
         * @return the command line (without taskset) and environment additions
         */
        Target.Command at(Ports ports, int ioThreads, Path workDir, Path certDir);
    }

    /**
     * A target of this suite.
     *
     * @param name its name in results
     * @param kind {@code tidemill}, {@code peer} or {@code native}
     * @param jvm whether it is a JVM
     * @param ownH2cPort whether h2c has a port of its own
     * @param tlsStack what does its TLS, for the report
     * @param launch how it is started
     */
    record Spec(String name, String kind, boolean jvm, boolean ownH2cPort, String tlsStack, Launch launch) {
        /**
         * @param tlsPort the TLS port chosen for the start
         * @param h2cPort the h2c port chosen for it (used only when {@link #ownH2cPort})
         * @param certDir the certificate of the start
         * @return the start as the shared {@link RunningTarget} takes it (which picks the plain port)
         */
        Target target(int tlsPort, int h2cPort, Path certDir) {
            return new Target(name, kind, jvm, false, (port, threads, dir) ->
                    launch.at(new Ports(port, tlsPort, ownH2cPort ? h2cPort : port), threads, dir, certDir));
        }
    }

    /**
     * @param repoRoot where peers are looked for
     * @param notFound collects what is not here and why
     * @return every target found, Tidemill's first
     */
    static List<Spec> all(Path repoRoot, List<String> notFound) {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String cp = System.getProperty("java.class.path");
        List<Spec> out = new ArrayList<>();
        // LOOP with each provider (the default mode: the provider comparison), and IO with OpenSSL: handlers on
        // the event loop, as Vert.x runs its own and as the HTTP suites' tidemill-io does
        for (String[] t : List.of(new String[] {"tidemill-openssl", "openssl", "loop"}, new String[] {"tidemill-jdk", "jdk", "loop"},
                new String[] {"tidemill-io", "openssl", "io"})) {
            String provider = t[1], mode = t[2];
            String stack = (provider.equals("openssl") ? "BoringSSL (netty-tcnative), TIDEMILL_TLS_PROVIDER=openssl"
                    : "the JDK's SSLEngine, TIDEMILL_TLS_PROVIDER=jdk") + ", TIDEMILL_MODE=" + mode;
            out.add(new Spec(t[0], "tidemill", true, false, stack, (ports, threads, dir, certs) -> {
                Map<String, String> env = new LinkedHashMap<>();
                env.put("TIDEMILL_MODE", mode);
                env.put("TIDEMILL_PORT", Integer.toString(ports.plain()));
                env.put("TIDEMILL_IO_THREADS", Integer.toString(threads));
                env.put("TIDEMILL_LOOPS", Integer.toString(threads));
                env.put("TIDEMILL_TLS_PORT", Integer.toString(ports.tls()));
                env.put("TIDEMILL_TLS_CERT", TlsContract.cert(certs).toString());
                env.put("TIDEMILL_TLS_KEY", TlsContract.key(certs).toString());
                env.put("TIDEMILL_TLS_PROVIDER", provider);
                return new Target.Command(jvm(java, cp, TidemillApp.class.getName()), env);
            }));
        }
        peer(out, notFound, repoRoot, java, "vertx-web", "vertx-web", "Vert.x's OpenSSL engine (BoringSSL, netty-tcnative)", "openssl");
        peer(out, notFound, repoRoot, java, "vertx-web-jdk", "vertx-web", "Vert.x's JDK engine", "jdk");
        peer(out, notFound, repoRoot, java, "jetty", "jetty", "the JDK's SSLEngine (SslContextFactory, jetty-alpn-java-server)");
        peer(out, notFound, repoRoot, java, "helidon", "helidon", "the JDK's SSLEngine (Helidon's Tls)");
        Host.executable("nginx").ifPresentOrElse(nginx -> out.add(new Spec("nginx", "native", false, true,
                        opensslVersion(nginx), (ports, threads, dir, certs) ->
                        new Target.Command(Nginx.tlsCommand(nginx, ports, threads, dir, certs), Map.of()))),
                () -> notFound.add("nginx: not installed (Debian nginx-light)"));
        return out;
    }

    private static void peer(List<Spec> out, List<String> notFound, Path repoRoot, String java, String name, String module, String stack,
                             String... extra) {
        Path dir = repoRoot.resolve("tidemill-bench/peers").resolve(module);
        if (!Files.isRegularFile(dir.resolve("target/classpath.txt"))) {
            notFound.add(name + ": peer module " + module + " is not built (./tidemill bench builds it with -Ppeers)");
            return;
        }
        String cp = peerClassPath(dir);
        String main = "dev.tidemill.bench.peers." + module.replace("-", "") + ".TlsMain";
        out.add(new Spec(name, "peer", true, false, stack, (ports, threads, work, certs) -> {
            List<String> argv = jvm(java, cp, main);
            argv.addAll(List.of(Integer.toString(ports.plain()), Integer.toString(ports.tls()), Integer.toString(threads), certs.toString()));
            argv.addAll(List.of(extra));
            return new Target.Command(argv, Map.of());
        }));
    }

    /**
     * @param all every target found
     * @param names the names asked for (empty: {@link #DEFAULT}, those of it that were found)
     * @return those targets
     */
    static List<Spec> select(List<Spec> all, List<String> names) {
        if (names.isEmpty()) return all.stream().filter(s -> DEFAULT.contains(s.name())).toList();
        List<Spec> out = new ArrayList<>();
        for (String n : names) {
            out.add(all.stream().filter(t -> t.name().equals(n)).findFirst().orElseThrow(() -> new IllegalArgumentException(
                    "unknown target " + n + "; found: " + String.join(", ", all.stream().map(Spec::name).toList()))));
        }
        return out;
    }

    /** @return {@code java}, the common JVM flags, {@code -cp cp main}: how every JVM target starts */
    static List<String> jvm(String java, String cp, String main) {
        List<String> cmd = new ArrayList<>();
        cmd.add(java);
        cmd.addAll(TargetCatalog.JVM_FLAGS);
        cmd.addAll(List.of("-cp", cp, main));
        return cmd;
    }

    /** @return the OpenSSL nginx was built with, from {@code nginx -V} */
    private static String opensslVersion(Path nginx) {
        return Host.output(nginx.toString(), "-V").flatMap(s -> s.lines().filter(l -> l.startsWith("built with OpenSSL ")).findFirst())
                .map(l -> l.substring("built with ".length())).orElse("OpenSSL (version unknown)");
    }

    /** @return a built peer module's class path: its classes, then the runtime class path Maven wrote */
    static String peerClassPath(Path moduleDir) {
        return moduleDir.resolve("target/classes") + ":" + read(moduleDir.resolve("target/classpath.txt"));
    }

    private static String read(Path p) {
        try {
            return Files.readString(p).trim();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
