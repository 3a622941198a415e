package dev.tidemill.cli;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * {@code dev}: runs an app's main class in a child JVM and restarts it when its compiled classes
 * change. Recompiling is someone else's job (the IDE, or {@code mvn compile} in another
 * terminal); this only watches, with the JDK's {@link WatchService} on every directory under the
 * watched roots.
 *
 * <p>A compile writes many files over a moment, so a restart waits until nothing has changed for
 * {@link #QUIET} (the first write of a compile would otherwise restart an app whose other classes
 * are half written). The old JVM is stopped with SIGTERM (a Tidemill app stops gracefully and
 * frees its port) and killed if it is still there after {@link #STOP_WAIT}; only then does the
 * new one start, so the port is free for it.
 */
final class DevRunner implements AutoCloseable {
    /** How long the classes must stay unchanged before a restart: 300 ms. */
    static final Duration QUIET = Duration.ofMillis(300);
    /** How long a stopping app gets after SIGTERM before it is killed: 10 s. */
    static final Duration STOP_WAIT = Duration.ofSeconds(10);
    /** How often the loop looks at the child and the watch keys when nothing happens: 100 ms. */
    private static final long POLL_MILLIS = 100;

    private final String mainClass;
    private final Path classes;
    private final String classpath;
    private final List<Path> roots;
    private final List<String> javaOpts;
    private final List<String> appArgs;
    private final PrintStream out;
    private final WatchService watcher;
    private final Map<Path, WatchKey> rootKeys = new HashMap<>();
    private final AtomicInteger starts = new AtomicInteger();
    private volatile Process child;
    private volatile boolean closed;

    private DevRunner(String mainClass, Path classes, String classpath, List<Path> roots, List<String> javaOpts,
            List<String> appArgs, PrintStream out) throws IOException {
        this.mainClass = mainClass;
        this.classes = classes;
        this.classpath = classpath;
        this.roots = roots;
        this.javaOpts = javaOpts;
        this.appArgs = appArgs;
        this.out = out;
        this.watcher = FileSystems.getDefault().newWatchService();
    }

    /**
     * Parses {@code --main CLASS --classes DIR [--classpath CP] [--watch DIR]... [--java-opt OPT]... [-- ARGS...]}.
     *
     * @param args what follows {@code dev}
     * @param out where the runner says what it does
     * @return the runner, not yet running
     * @throws UsageException naming the first problem
     */
    static DevRunner fromArgs(List<String> args, PrintStream out) {
        String main = null;
        Path classes = null;
        String cp = "";
        List<Path> watch = new ArrayList<>();
        List<String> opts = new ArrayList<>();
        List<String> appArgs = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            switch (a) {
                case "--main" -> main = Main.value(args, i++);
                case "--classes" -> classes = Path.of(Main.value(args, i++));
                case "--classpath", "-cp" -> cp = Main.value(args, i++);
                case "--watch" -> watch.add(Path.of(Main.value(args, i++)));
                case "--java-opt" -> {
                    if (i + 1 >= args.size()) throw new UsageException("--java-opt needs a value");
                    opts.add(args.get(++i));
                }
                case "--" -> {
                    appArgs.addAll(args.subList(i + 1, args.size()));
                    i = args.size();
                }
                default -> throw new UsageException("dev: unknown option " + a + " (app arguments go after --)");
            }
        }
        if (main == null) throw new UsageException("dev: --main CLASS missing (the app's main class)");
        if (classes == null) throw new UsageException("dev: --classes DIR missing (where the app's classes are compiled to)");
        if (!Files.isDirectory(classes)) {
            throw new UsageException("dev: --classes " + classes + " is not a directory (compile the app first)");
        }
        List<Path> roots = new ArrayList<>();
        roots.add(classes.toAbsolutePath().normalize());
        for (Path w : watch) {
            if (!Files.isDirectory(w)) throw new UsageException("dev: --watch " + w + " is not a directory");
            roots.add(w.toAbsolutePath().normalize());
        }
        try {
            return new DevRunner(main, classes.toAbsolutePath().normalize(), cp, roots, opts, appArgs, out);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot watch files: " + e.getMessage(), e);
        }
    }

    /** The flags every Tidemill JVM gets (Netty's native access; on JDK 23+ its use of sun.misc.Unsafe). */
    static List<String> tidemillFlags(int javaFeature) {
        List<String> flags = new ArrayList<>();
        if (javaFeature >= 23) flags.add("--sun-misc-unsafe-memory-access=allow");
        flags.add("--enable-native-access=ALL-UNNAMED");
        return flags;
    }

    /**
     * Starts the app, then restarts it after each change until {@link #close()}; blocks.
     *
     * @throws IOException if the watch cannot be set up
     * @throws InterruptedException if interrupted
     */
    void run() throws IOException, InterruptedException {
        for (Path root : roots) rootKeys.put(root, registerTree(root));
        start();
        boolean pending = false;
        boolean exitReported = false;
        long lastChange = 0;
        while (!closed) {
            WatchKey key;
            try {
                key = watcher.poll(POLL_MILLIS, TimeUnit.MILLISECONDS);
            } catch (ClosedWatchServiceException e) {
                break;
            }
            if (key != null) {
                for (WatchEvent<?> event : key.pollEvents()) {
                    if (event.kind() == StandardWatchEventKinds.ENTRY_CREATE && key.watchable() instanceof Path dir
                            && event.context() instanceof Path name && Files.isDirectory(dir.resolve(name))) {
                        tryRegister(dir.resolve(name)); // a new package directory: watch it and what it holds
                    }
                }
                key.reset();
                pending = true;
                lastChange = System.nanoTime();
            }
            pending |= reregisterDeletedRoots(); // `mvn clean compile` removes target/classes itself
            if (pending && System.nanoTime() - lastChange >= QUIET.toNanos()) {
                pending = false;
                exitReported = false;
                out.println("tidemill dev: classes changed, restarting " + mainClass);
                stopChild();
                if (!closed) start();
            }
            Process p = child;
            if (!exitReported && p != null && !p.isAlive() && !closed) {
                exitReported = true;
                out.println("tidemill dev: " + mainClass + " exited with status " + p.exitValue()
                        + "; it starts again on the next change");
            }
        }
    }

    /** @return how many times the app was started */
    int starts() {
        return starts.get();
    }

    /** Stops the app and the watch; idempotent, from any thread. */
    @Override
    public void close() {
        if (closed) return;
        closed = true;
        stopChild();
        try {
            watcher.close();
        } catch (IOException ignored) {
            // closing the watch: nothing to do about a failure
        }
    }

    private void start() throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(tidemillFlags(Runtime.version().feature()));
        cmd.addAll(javaOpts);
        cmd.add("-cp");
        cmd.add(classpath.isEmpty() ? classes.toString() : classes + File.pathSeparator + classpath);
        cmd.add(mainClass);
        cmd.addAll(appArgs);
        child = new ProcessBuilder(cmd).inheritIO().start();
        starts.incrementAndGet();
        out.println("tidemill dev: started " + mainClass + " (pid " + child.pid() + "), watching " + roots);
    }

    private synchronized void stopChild() {
        Process p = child;
        if (p == null || !p.isAlive()) return;
        p.destroy(); // SIGTERM: a Tidemill app stops gracefully and frees its port
        try {
            if (!p.waitFor(STOP_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                out.println("tidemill dev: " + mainClass + " still running " + STOP_WAIT.toSeconds() + " s after SIGTERM; killing it");
                p.destroyForcibly().waitFor();
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    private WatchKey registerTree(Path root) throws IOException {
        WatchKey rootKey = null;
        try (Stream<Path> dirs = Files.walk(root)) {
            for (Path d : (Iterable<Path>) dirs.filter(Files::isDirectory)::iterator) {
                WatchKey k = d.register(watcher, StandardWatchEventKinds.ENTRY_CREATE, StandardWatchEventKinds.ENTRY_MODIFY,
                        StandardWatchEventKinds.ENTRY_DELETE);
                if (d.equals(root)) rootKey = k;
            }
        }
        return rootKey;
    }

    /** @return the root's key, or null if the tree vanished while it was walked (a clean running meanwhile) */
    private WatchKey tryRegister(Path root) throws IOException {
        try {
            return registerTree(root);
        } catch (java.nio.file.NoSuchFileException | UncheckedIOException gone) {
            return null;
        }
    }

    /** @return true if a root came back after being deleted (its contents are new, so they count as a change) */
    private boolean reregisterDeletedRoots() throws IOException {
        boolean any = false;
        for (Map.Entry<Path, WatchKey> e : rootKeys.entrySet()) {
            WatchKey k = e.getValue();
            if ((k == null || !k.isValid()) && Files.isDirectory(e.getKey())) {
                WatchKey again = tryRegister(e.getKey());
                if (again != null) {
                    e.setValue(again);
                    any = true;
                }
            }
        }
        return any;
    }
}
