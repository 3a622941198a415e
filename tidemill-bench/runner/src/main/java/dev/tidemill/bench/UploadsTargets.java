package dev.tidemill.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The servers the uploads suite measures, each serving {@code dev.tidemill.bench.common.UploadContract}:
 * Tidemill's uploads app in IO mode and LOOP mode (the non-blocking {@code forEach} and
 * {@code transferTo}; IO runs them on the event loop as Vert.x does) and in VIRTUAL mode (the
 * blocking {@code InputStream}), and the {@code UploadsMain} of the peers
 * (a class of its own per peer, so the HTTP suites' {@code Main} stays as they measure it):
 * Vert.x Web twice (its {@code BodyHandler}, and streaming without it), Helidon SE and Jetty 12.
 * Every target gets the common JVM flags and {@code -Djava.io.tmpdir} pointing at a directory of
 * its own start, where its temp files go and where the suite looks for files left behind.
 */
final class UploadsTargets {
    /** Tidemill's uploads app (a class of its own, so the shared bench app stays as the other suites measure it). */
    static final String TIDEMILL_MAIN = "dev.tidemill.bench.targets.TidemillUploads";
    /** Tidemill's modes measured, with the body API each uses. */
    static final Map<String, String> TIDEMILL_MODES = tidemillModes();
    /** Peer targets: name, peer module, the {@code UploadsMain} arguments after port and I/O threads. */
    static final List<List<String>> PEERS = List.of(
            List.of("vertx-web-bodyhandler", "vertx-web", "bodyhandler"),
            List.of("vertx-web-stream", "vertx-web", "stream"),
            List.of("helidon", "helidon"),
            List.of("jetty", "jetty"));
    /** The directory under a start's work directory that is its {@code java.io.tmpdir}. */
    static final String TMP = "tmp";

    private UploadsTargets() {}

    private static Map<String, String> tidemillModes() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("io", "IO: raw bodies on the event loop, RequestBody.forEach counting each piece (a view, no copy), or "
                + "transferTo(file); multipart on the event loop too, as in LOOP");
        m.put("loop", "LOOP: raw bodies non-blocking, RequestBody.forEach counting each piece (a view, no copy), or transferTo(file); "
                + "multipart non-blocking, Request.multipart(PartHandler) with the file part's pieces counted (views) or "
                + "Multipart.Sink.toFile(file)");
        m.put("virtual", "VIRTUAL: raw bodies through RequestBody.inputStream(), read into a 64 KiB buffer or Files.copy to "
                + "the file; multipart through the blocking Request.multipart(), the file part's content() read into a "
                + "64 KiB buffer or transferTo(file)");
        return java.util.Collections.unmodifiableMap(m);
    }

    /**
     * @param repoRoot where peers are looked for
     * @param notFound collects what is not here and why
     * @return every target found, Tidemill's first
     */
    static List<Target> all(Path repoRoot, List<String> notFound) {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<Target> out = new ArrayList<>();
        String cp = System.getProperty("java.class.path");
        if (present(TIDEMILL_MAIN)) {
            for (String mode : TIDEMILL_MODES.keySet()) {
                out.add(new Target("tidemill-" + mode, "tidemill", true, false, (port, threads, dir) -> {
                    Map<String, String> env = new LinkedHashMap<>();
                    env.put("TIDEMILL_MODE", mode);
                    env.put("TIDEMILL_PORT", Integer.toString(port));
                    env.put("TIDEMILL_IO_THREADS", Integer.toString(threads));
                    env.put("TIDEMILL_LOOPS", Integer.toString(threads));
                    return new Target.Command(jvm(java, cp, dir, TIDEMILL_MAIN), env);
                }));
            }
        } else {
            notFound.add("tidemill: " + TIDEMILL_MAIN + " is not on the runner's class path (the streamed body API is not on this branch yet)");
        }
        for (List<String> peer : PEERS) {
            String name = peer.get(0), module = peer.get(1);
            Path dir = repoRoot.resolve("tidemill-bench/peers").resolve(module);
            if (!Files.isRegularFile(dir.resolve("target/classpath.txt"))) {
                notFound.add(name + ": peer module " + module + " is not built (./tidemill bench builds it with -Ppeers)");
                continue;
            }
            String peerCp = dir.resolve("target/classes") + ":" + read(dir.resolve("target/classpath.txt"));
            String main = "dev.tidemill.bench.peers." + module.replace("-", "") + ".UploadsMain";
            List<String> extra = peer.subList(2, peer.size());
            out.add(new Target(name, "peer", true, false, (port, threads, work) -> {
                List<String> argv = jvm(java, peerCp, work, main);
                argv.add(Integer.toString(port));
                argv.add(Integer.toString(threads));
                argv.addAll(extra);
                return new Target.Command(argv, Map.of());
            }));
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

    /** @return the java command line up to the main class, with the start's own temp directory */
    private static List<String> jvm(String java, String cp, Path workDir, String main) {
        Path tmp = workDir.resolve(TMP);
        try {
            Files.createDirectories(tmp);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<String> cmd = new ArrayList<>();
        cmd.add(java);
        cmd.addAll(TargetCatalog.JVM_FLAGS);
        cmd.add("-Djava.io.tmpdir=" + tmp);
        cmd.addAll(List.of("-cp", cp, main));
        return cmd;
    }

    private static boolean present(String className) {
        try {
            Class.forName(className, false, UploadsTargets.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }

    private static String read(Path p) {
        try {
            return Files.readString(p).trim();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
