package dev.tidemill.bench;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The start-up part of {@code ./tidemill bench controllers} ({@link ControllersSuite}): what generated
 * controllers add to an app's start. {@link ControllerSources} writes the controllers, javac compiles them
 * with the processor into a jar, and fresh JVMs ({@link ControllersStartProbe}) time {@code app.controllers(...)}
 * and {@code start()} with them, and the same routes by direct DSL calls, against an empty app: in a JVM whose
 * first app it is (cold), in one where an app already started (primed), in one where the same routes were
 * registered before (repeat), and in a JVM whose first app it is, started with a JDK AOT cache that an untimed
 * training run of the same app wrote (aot). Keeps every JVM ({@link #runs()}), the JVM kinds this host could
 * not measure ({@link #notAvailable()}) and the command lines and training runs.
 */
final class ControllersStartup {
    /** The apps: none of its own routes, the generated controllers, the same routes by direct DSL calls. */
    static final List<String> VARIANTS = List.of("empty", "controllers", "dsl");
    /**
     * The JVMs: the app is the first, the framework is loaded, the same routes were registered once
     * before, and the app is the first of a JVM started with an AOT cache ({@code -XX:AOTCache}, JEP
     * 483/514) that a training run of the same variant wrote.
     */
    static final List<String> JVMS = List.of("cold", "primed", "repeat", "aot");
    /** The state whose JVMs run with an AOT cache. */
    static final String AOT = "aot";

    /**
     * One fresh JVM.
     *
     * @param run the run
     * @param variant {@link #VARIANTS}: {@code empty}, {@code controllers} ({@code app.controllers(...)}) or
     *     {@code dsl} (the generated routes classes called directly)
     * @param jvm {@link #JVMS}: {@code cold} (the JVM's first app), {@code primed} (an app with one route started
     *     and closed before), {@code repeat} (an app with the same routes started and closed before) or {@code aot} (the
     *     JVM's first app, the JVM started with the variant's AOT cache)
     * @param routes the app's routes after start, its operational ones included
     * @param registerMs the registration: {@code app.controllers(...)} or the direct calls (0 for the empty app)
     * @param startMs {@code start()}
     * @param wallMs the process, from launch to exit
     */
    public record StartRun(int run, String variant, String jvm, int routes, double registerMs, double startMs, double wallMs) {
        /** @return the registration and start() together: what the timed part of an app's start took */
        public double totalMs() {
            return registerMs + startMs;
        }
    }

    private static final Pattern PROBE = Pattern.compile("probe routes=(\\d+) controllersNanos=(\\d+) startNanos=(\\d+)");

    private final ControllersSettings settings;
    private final PrintStream out;
    private final ControllersJavac javac;
    private final List<StartRun> runs = new ArrayList<>();
    private final Map<String, String> notAvailable = new LinkedHashMap<>();
    private final List<Map<String, Object>> records = new ArrayList<>();

    /**
     * @param settings the options
     * @param out progress
     * @param javac compiles the controllers with the processor
     */
    ControllersStartup(ControllersSettings settings, PrintStream out, ControllersJavac javac) {
        this.settings = settings;
        this.out = out;
        this.javac = javac;
    }

    /** @return the start-up JVMs so far */
    List<StartRun> runs() {
        return List.copyOf(runs);
    }

    /** @return the JVM kinds that could not be measured, and why (the JVM's message) */
    Map<String, String> notAvailable() {
        return Map.copyOf(notAvailable);
    }

    /** @return the training runs, and the command lines of the first run's cold and aot JVMs */
    List<Map<String, Object>> records() {
        return List.copyOf(records);
    }

    /**
     * Compiles the controllers, trains the AOT caches, then runs the JVMs; the caches are deleted after.
     *
     * @param cpus the server's CPUs pin every JVM
     * @param dir a fresh directory
     * @throws IllegalStateException when the controllers do not compile or a JVM fails
     */
    void measure(CpuSets cpus, Path dir) {
        int count = settings.startControllers();
        Path jar = compile(dir, count);
        // The app's own jar first, as Maven, Gradle's start scripts and Spring Boot's layout put an
        // application's classes.
        String cp = jar + File.pathSeparator + System.getProperty("java.class.path");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        int expected = count * ControllerSources.METHODS;
        Map<String, Path> caches = trainAotCaches(cpus, dir, java, cp, count);
        try {
            measureJvms(cpus, dir, java, cp, count, caches);
        } finally {
            for (Path cache : caches.values()) {
                try {
                    Files.deleteIfExists(cache); // about 30 MB each, of no use after the run
                } catch (IOException e) {
                    out.println("start: could not delete " + cache + ": " + e.getMessage());
                }
            }
        }
        ControllersStartupReport.summary(runs).forEach(s -> out.printf(Locale.ROOT, "  start %s: controllers %+.1f ms, dsl %+.1f ms, with %d "
                + "and %d routes (%d expected)%n", s.jvm(), s.addedMs(), s.dslAddedMs(), s.routesAdded(), s.dslRoutesAdded(), expected));
    }

    /** The JVMs: {@link #JVMS} x {@link #VARIANTS}, {@code runs} times, the variants' order rotated each run. */
    private void measureJvms(CpuSets cpus, Path dir, String java, String cp, int count, Map<String, Path> caches) {
        for (int run = 1; run <= settings.startRuns(); run++) {
            for (String jvm : JVMS) {
                if (jvm.equals(AOT) && notAvailable.containsKey(AOT)) continue;
                for (String variant : ControllersSuite.rotated(VARIANTS, run)) {
                    Preflight.serverBusyPercent(cpus, 200);
                    List<String> cmd = probeCommand(cpus, java, cp, variant, jvm, count,
                            jvm.equals(AOT) ? List.of("-XX:AOTCache=" + caches.get(variant)) : List.of());
                    if (run == 1 && variant.equals("controllers") && (jvm.equals("cold") || jvm.equals(AOT))) {
                        records.add(Map.of("part", jvm.equals(AOT) ? "start aot" : "start", "commandLine", cmd));
                    }
                    TimedProcess e = TimedProcess.run(cmd, dir.resolve("probe-" + run + "-" + jvm + "-" + variant + ".log"), 120);
                    Matcher m = PROBE.matcher(e.output());
                    if (e.exit() != 0 || !m.find()) {
                        throw new IllegalStateException("the start-up probe (" + variant + ", " + jvm + ") exited " + e.exit() + ":\n" + e.tail());
                    }
                    String refused = jvm.equals(AOT) ? aotRefusal(e.output()) : null;
                    if (refused != null) {
                        // the JVM says it did not use its cache (or not all of it): its reading is not a start with the cache
                        notAvailable.put(AOT, "the " + variant + " JVM did not use its AOT cache: " + refused);
                        runs.removeIf(r -> r.jvm().equals(AOT));
                        out.println("  start: " + notAvailable.get(AOT) + "; the aot JVMs are not measured");
                        break;
                    }
                    StartRun s = new StartRun(run, variant, jvm, Integer.parseInt(m.group(1)), Long.parseLong(m.group(2)) / 1e6,
                            Long.parseLong(m.group(3)) / 1e6, e.seconds() * 1e3);
                    runs.add(s);
                    out.printf(Locale.ROOT, "  start run %d %-6s %-11s routes %4d  registration %7.1f ms  start() %7.1f ms  process %6.0f ms%n",
                            run, jvm, variant, s.routes(), s.registerMs(), s.startMs(), s.wallMs());
                }
            }
        }
    }

    /** @return the probe's command line: pinned to the server CPUs, the targets' JVM flags, then {@code extra} */
    private static List<String> probeCommand(CpuSets cpus, String java, String cp, String variant, String jvm, int count, List<String> extra) {
        List<String> cmd = new ArrayList<>(List.of("taskset", "-c", cpus.serverList(), java));
        cmd.addAll(TargetCatalog.JVM_FLAGS);
        cmd.addAll(extra);
        cmd.addAll(List.of("-cp", cp, ControllersStartProbe.class.getName(), variant, jvm, Integer.toString(count)));
        return cmd;
    }

    /**
     * The AOT caches of the {@code aot} JVMs, one per variant, each written by one training run (untimed): the
     * variant's cold probe, with the same flags, class path and CPUs as the measured JVMs, plus
     * {@code -XX:AOTCacheOutput} (JDK 25: the JVM records the run and writes the cache as it exits, in a second
     * JVM), as docs/aot.md trains an app's. When a cache is not written, the {@code aot} JVMs are not measured
     * and {@link #notAvailable} says why, with the JVM's message.
     *
     * @return the cache of each variant; empty when one could not be written
     */
    private Map<String, Path> trainAotCaches(CpuSets cpus, Path dir, String java, String cp, int count) {
        Map<String, Path> caches = new LinkedHashMap<>();
        for (String variant : VARIANTS) {
            Path cache = dir.resolve(variant + ".aot");
            List<String> cmd = probeCommand(cpus, java, cp, variant, "cold", count, List.of("-XX:AOTCacheOutput=" + cache));
            TimedProcess e = TimedProcess.run(cmd, dir.resolve("aot-training-" + variant + ".log"), 600);
            boolean written = Files.isRegularFile(cache) && PROBE.matcher(e.output()).find();
            Map<String, Object> rec = new LinkedHashMap<>();
            rec.put("part", "start aot training " + variant);
            rec.put("commandLine", cmd);
            rec.put("exit", e.exit());
            rec.put("seconds", Math.round(e.seconds() * 10) / 10.0);
            if (!written) {
                String why = e.output().lines().filter(l -> l.contains("[error]")).findFirst()
                        .orElse(e.output().lines().filter(l -> !l.contains(" INFO ")).reduce((a, b) -> b).orElse("no output"));
                rec.put("failed", why);
                records.add(rec);
                notAvailable.put(AOT, "the " + variant + " training run (exit " + e.exit() + ") wrote no AOT cache: " + why.strip());
                out.println("start: " + notAvailable.get(AOT) + "; the aot JVMs are not measured");
                return Map.of();
            }
            try {
                rec.put("cacheBytes", Files.size(cache));
            } catch (IOException ex) {
                throw new UncheckedIOException(ex);
            }
            records.add(rec);
            out.printf(Locale.ROOT, "start: the %s AOT cache, %,d KiB, written by a training run of %.1f s%n", variant,
                    ((Number) rec.get("cacheBytes")).longValue() / 1024, e.seconds());
            caches.put(variant, cache);
        }
        return caches;
    }

    /** @return the first line of a JVM's output that says it did not use its AOT cache (unified logging, aot or cds), or null */
    static String aotRefusal(String output) {
        return output.lines().filter(l -> l.startsWith("[") && (l.contains("][aot") || l.contains("][cds")) && AotTraining.refused(l))
                .findFirst().orElse(null);
    }

    /**
     * Writes and compiles (with the processor) the controllers, and puts their classes in a jar, as an
     * app ships them (an AOT cache holds classes from jars only: a non-empty directory on the class path
     * stops the JVM writing one).
     *
     * @return the jar
     */
    private Path compile(Path dir, int count) {
        Path src = dir.resolve("src");
        List<Path> files = new ArrayList<>(ControllerSources.write(src, count));
        files.add(ControllerSources.writeRegistrar(src, count));
        ControllersJavac.JavacRun r = javac.compile(dir.resolve("compiled"), files, javac.processorPath(), 0, "processor",
                ControllersJavac.allCpus(CpuSets.derive()));
        if (!r.ok() || r.generated() != count + 1L) {
            throw new IllegalStateException("the " + count + " controllers did not compile with the processor (" + r.generated()
                    + " sources generated; the log is in " + dir.resolve("compiled") + ")");
        }
        out.printf(Locale.ROOT, "start: %d controllers compiled with the processor in %.1f s%n", count, r.wallSeconds());
        return jar(dir.resolve("compiled").resolve("classes"), dir.resolve("controllers.jar"));
    }

    /** Writes every file under {@code classes} (class files and the processor's service file) into {@code jar}. @return the jar */
    static Path jar(Path classes, Path jar) {
        try (Stream<Path> files = Files.walk(classes);
             java.util.jar.JarOutputStream j = new java.util.jar.JarOutputStream(Files.newOutputStream(jar))) {
            for (Path f : files.filter(Files::isRegularFile).sorted().toList()) {
                j.putNextEntry(new java.util.jar.JarEntry(classes.relativize(f).toString().replace(File.separatorChar, '/')));
                Files.copy(f, j);
                j.closeEntry();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return jar;
    }
}
