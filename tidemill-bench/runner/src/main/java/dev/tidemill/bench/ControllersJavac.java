package dev.tidemill.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The javac part of {@code ./tidemill bench controllers} ({@link ControllersSuite}): what tidemill-processor
 * adds to a build. {@link ControllerSources} writes the generated controllers, and fresh javac processes
 * ({@link JavacProbe}, on every CPU) compile them with {@code -proc:none}, with the processor on
 * {@code -processorpath}, and with {@code -proc:none} over the controllers and the sources the processor
 * wrote, the variants' order rotated each run. Keeps every process ({@link #runs()}) and the first run's
 * command lines. Also compiles the start-up part's controllers ({@link #compile}).
 */
final class ControllersJavac {
    /**
     * The compilations: the controllers alone ({@code -proc:none}), with the processor
     * ({@code -processorpath}), and the controllers with the sources the processor wrote, compiled as
     * ordinary sources ({@code -proc:none}): what the same routes cost javac written by hand.
     */
    static final List<String> VARIANTS = List.of("none", "processor", "generated");
    /**
     * The same two compilations in one JVM that stays, as a build daemon (Gradle's) or an IDE runs javac: {@code -proc:none}
     * and with the processor, alternating, {@value #WARM_PAIRS} times each ({@link JavacProbe} with {@code PAIRS}).
     */
    static final List<String> WARM_VARIANTS = List.of("warm-none", "warm-processor");
    /** Compilations of each variant in the warm JVM; the later half count ({@link #WARM_COUNTED_FROM} on), once javac's code is compiled. */
    static final int WARM_PAIRS = 10;
    /** The first warm pair that counts. */
    static final int WARM_COUNTED_FROM = WARM_PAIRS / 2 + 1;
    /** Where the processor's jars are listed, under the repository root (written by the controllers module's build). */
    static final String PROCESSOR_PATH_FILE = "tidemill-bench/controllers/target/processor-classpath.txt";
    /** The class path javac compiles the generated controllers against: tidemill-core and what it needs (the launcher writes it). */
    static final String COMPILE_PATH_FILE = "tidemill-bench/controllers/target/classpath.txt";

    /**
     * One fresh javac process.
     *
     * @param run the run
     * @param variant {@link #VARIANTS}: {@code none} ({@code -proc:none}), {@code processor} ({@code -processorpath}) or
     *     {@code generated} ({@code -proc:none} over the controllers and the sources the processor wrote)
     * @param wallSeconds the process, from launch to exit
     * @param compileSeconds the compiler's call inside it
     * @param classes class files written
     * @param generated sources the processor wrote
     * @param ok whether it compiled
     */
    public record JavacRun(int run, String variant, double wallSeconds, double compileSeconds, long classes, long generated, boolean ok) {}

    private static final Pattern JAVAC = Pattern.compile("javac ok=(true|false) nanos=(\\d+) classes=(\\d+) generated=(\\d+)");
    private static final Pattern WARM = Pattern.compile("javac warm=(\\d+) variant=(none|processor) ok=(true|false) nanos=(\\d+) classes=(\\d+) "
            + "generated=(\\d+)");

    private final ControllersSettings settings;
    private final PrintStream out;
    private final List<JavacRun> runs = new ArrayList<>();
    private final List<Map<String, Object>> records = new ArrayList<>();
    private String processorPath;

    /**
     * @param settings the options
     * @param out progress
     */
    ControllersJavac(ControllersSettings settings, PrintStream out) {
        this.settings = settings;
        this.out = out;
    }

    /** @param path the processor's class path to use instead of the one the controllers module's build listed */
    void processorPath(String path) {
        this.processorPath = path;
    }

    /** @return the javac processes so far */
    List<JavacRun> runs() {
        return List.copyOf(runs);
    }

    /** @return the command line of each variant's first recorded process */
    List<Map<String, Object>> records() {
        return List.copyOf(records);
    }

    /**
     * Writes the controllers, compiles them once with the processor (unrecorded), then runs the variants.
     *
     * @param cpus the machine's CPUs
     * @param dir a fresh directory
     * @throws IllegalStateException when a compilation fails or writes other than it should
     */
    void measure(CpuSets cpus, Path dir) {
        int count = settings.javacControllers();
        List<Path> files = ControllerSources.write(dir.resolve("src"), count);
        String pp = processorPath();
        String all = allCpus(cpus);
        // One compilation with the processor first, unrecorded: its output is the "generated" variant's extra sources, and every
        // recorded run then finds the jars and sources in the page cache alike
        JavacRun first = compile(dir.resolve("pregenerated"), files, pp, 0, "processor", all);
        if (!first.ok() || first.generated() != count + 1L) {
            throw new IllegalStateException("the first javac run with the processor generated " + first.generated() + " sources, not " + (count + 1));
        }
        List<Path> withGenerated = new ArrayList<>(files);
        try (Stream<Path> s = Files.walk(dir.resolve("pregenerated").resolve("generated"))) {
            s.filter(p -> p.toString().endsWith(".java")).sorted().forEach(withGenerated::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        for (int run = 1; run <= settings.javacRuns(); run++) {
            for (String variant : ControllersSuite.rotated(VARIANTS, run)) {
                Preflight.serverBusyPercent(cpus, 200);
                Path out = dir.resolve(variant + "-" + run);
                JavacRun r = compile(out, variant.equals("generated") ? withGenerated : files, variant.equals("processor") ? pp : null, run,
                        variant, all);
                runs.add(r);
                this.out.printf(Locale.ROOT, "  javac run %d %-9s %6.2f s (the call %6.2f s)  %d class files, %d generated sources%n", run,
                        variant, r.wallSeconds(), r.compileSeconds(), r.classes(), r.generated());
                if (!r.ok()) throw new IllegalStateException("javac (" + variant + ") failed; its log is in " + out);
                long expectedGenerated = variant.equals("processor") ? count + 1L : 0;
                if (r.generated() != expectedGenerated) {
                    throw new IllegalStateException("javac (" + variant + ") generated " + r.generated() + " sources, not " + expectedGenerated);
                }
                if (variant.equals("generated") && r.classes() != first.classes()) {
                    throw new IllegalStateException("javac (generated) wrote " + r.classes() + " class files, the processor's run " + first.classes());
                }
            }
        }
        warm(cpus, dir.resolve("warm"), files, pp, first.classes(), count);
    }

    /**
     * The warm variants: one JVM compiles with {@code -proc:none} and with the processor {@value #WARM_PAIRS} times each, alternating.
     * Every compilation is kept; the summary counts the later half.
     */
    private void warm(CpuSets cpus, Path dir, List<Path> files, String pp, long processorClasses, int count) {
        Preflight.serverBusyPercent(cpus, 200);
        TimedProcess e = probe(dir, files, pp, String.valueOf(WARM_PAIRS), 1, "warm", allCpus(cpus));
        Matcher m = WARM.matcher(e.output());
        int seen = 0;
        while (m.find()) {
            seen++;
            String variant = "warm-" + m.group(2);
            double seconds = Long.parseLong(m.group(4)) / 1e9;
            JavacRun r = new JavacRun(Integer.parseInt(m.group(1)), variant, seconds, seconds, Long.parseLong(m.group(5)),
                    Long.parseLong(m.group(6)), Boolean.parseBoolean(m.group(3)));
            runs.add(r);
            this.out.printf(Locale.ROOT, "  javac warm %2d %-14s %6.2f s  %d class files, %d generated sources%n", r.run(), variant, seconds,
                    r.classes(), r.generated());
            boolean processor = variant.equals("warm-processor");
            if (!r.ok() || r.generated() != (processor ? count + 1L : 0) || processor && r.classes() != processorClasses) {
                throw new IllegalStateException("javac (" + variant + ", compilation " + r.run() + ") failed or wrote other files; its log is in " + dir);
            }
        }
        if (seen != 2 * WARM_PAIRS || e.exit() != 0) {
            throw new IllegalStateException("the warm javac JVM exited " + e.exit() + " after " + seen + " compilations:\n" + e.tail());
        }
    }

    /** @return every CPU of the machine in taskset's list syntax: a build uses them all */
    static String allCpus(CpuSets cpus) {
        List<Integer> all = new ArrayList<>(cpus.server());
        cpus.client().stream().filter(c -> !all.contains(c)).forEach(all::add);
        return String.join(",", all.stream().map(String::valueOf).toList());
    }

    /**
     * Runs {@link JavacProbe} in a fresh JVM on {@code cpuList}; run 1 records each variant's command line.
     *
     * @param dir its output directory (fresh)
     * @param sources the sources
     * @param processorPath the processor path, or null for {@code -proc:none}
     * @param run the run, 0 for an unrecorded one
     * @param variant the variant it is
     * @param cpuList the CPUs, in taskset's list syntax
     * @return what it did
     */
    JavacRun compile(Path dir, List<Path> sources, String processorPath, int run, String variant, String cpuList) {
        TimedProcess e = probe(dir, sources, processorPath == null ? "-" : processorPath, null, run, variant, cpuList);
        Matcher m = JAVAC.matcher(e.output());
        if (!m.find()) throw new IllegalStateException("javac probe exited " + e.exit() + " without its line:\n" + e.tail());
        return new JavacRun(run, variant, e.seconds(), Long.parseLong(m.group(2)) / 1e9, Long.parseLong(m.group(3)),
                Long.parseLong(m.group(4)), e.exit() == 0 && Boolean.parseBoolean(m.group(1)));
    }

    /** Runs {@link JavacProbe} in a fresh JVM ({@code pairs} null: one compilation); run 1 records the variant's command line. */
    private TimedProcess probe(Path dir, List<Path> sources, String processorPath, String pairs, int run, String variant, String cpuList) {
        try {
            Files.createDirectories(dir);
            Path list = dir.resolve("sources.txt");
            Files.write(list, sources.stream().map(Path::toString).toList());
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            List<String> cmd = new ArrayList<>(List.of("taskset", "-c", cpuList, java, "-cp", probeLocation(), JavacProbe.class.getName(),
                    dir.toString(), list.toString(), compilePath(), processorPath));
            if (pairs != null) cmd.add(pairs);
            if (run == 1 && records.stream().noneMatch(r -> ("javac " + variant).equals(r.get("part")))) {
                records.add(Map.of("part", "javac " + variant, "commandLine", List.copyOf(cmd)));
            }
            return TimedProcess.run(cmd, dir.resolve("javac.log"), 600);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** @return where {@link JavacProbe} is: the runner's jar, or its classes in a test */
    private static String probeLocation() {
        try {
            return Path.of(JavacProbe.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** @return the processor's class path: given, else the list the controllers module's build wrote */
    String processorPath() {
        if (processorPath != null) return processorPath;
        Path file = settings.repoRoot().resolve(PROCESSOR_PATH_FILE);
        try {
            String p = Files.isRegularFile(file) ? Files.readString(file).strip() : "";
            if (p.isEmpty()) throw new IllegalStateException("no processor class path in " + file + "; ./tidemill bench controllers builds it");
            return p;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** @return the class path javac compiles against: the controllers module's (tidemill-core and its dependencies), else the runner's */
    String compilePath() {
        Path file = settings.repoRoot().resolve(COMPILE_PATH_FILE);
        try {
            String p = Files.isRegularFile(file) ? Files.readString(file).strip() : "";
            return p.isEmpty() ? System.getProperty("java.class.path") : p;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
