package dev.tidemill.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/**
 * One javac run of the javac part ({@code ./tidemill bench controllers}), in a fresh JVM the runner
 * starts and times: {@code OUT SOURCES-LIST CLASSPATH PROCESSORPATH|- [PAIRS]} compiles every source the
 * list names with the JDK's own compiler ({@code javax.tools}), into {@code OUT/classes} and
 * {@code OUT/generated}, with {@value #OPTIONS} and either {@code -proc:none} ({@code -}) or
 * {@code -processorpath PROCESSORPATH}. Prints {@code javac ok=true|false nanos=N classes=N generated=N}
 * (the call's own time; files written), diagnostics on stderr; exits 1 when the compilation failed.
 *
 * <p>With a fifth argument {@code PAIRS}, the JVM stays: it compiles the sources {@code PAIRS} times with
 * {@code -proc:none} and with the processor, alternating, each into fresh directories under {@code OUT},
 * and prints {@code javac warm=I variant=none|processor ok=.. nanos=N classes=N generated=N} per
 * compilation: javac as a build daemon or an IDE runs it, its own code compiled by the JIT after the
 * first few. javac loads the processor afresh for each compilation ({@code -processorpath} is a new
 * class loader each time), as it does in a daemon.
 */
public final class JavacProbe {
    /** The options both runs share, as the build passes them. */
    static final String OPTIONS = "--release 21 -parameters";

    private JavacProbe() {}

    /**
     * @param args the output directory, a file listing the sources one a line, the class path, the processor path or {@code -}
     * @throws IOException when a file cannot be read or listed
     */
    public static void main(String[] args) throws IOException {
        Path out = Path.of(args[0]);
        List<String> sources = Files.readAllLines(Path.of(args[1])).stream().filter(l -> !l.isBlank()).toList();
        if (args.length > 4) {
            boolean all = true;
            for (int pair = 1; pair <= Integer.parseInt(args[4]); pair++) {
                for (String variant : List.of("none", "processor")) {
                    Path dir = out.resolve("warm-" + pair + "-" + variant);
                    long t0 = System.nanoTime();
                    boolean ok = compile(dir, sources, args[2], variant.equals("none") ? "-" : args[3]);
                    long nanos = System.nanoTime() - t0;
                    all &= ok;
                    System.out.printf(Locale.ROOT, "javac warm=%d variant=%s ok=%b nanos=%d classes=%d generated=%d%n", pair, variant, ok, nanos,
                            count(dir.resolve("classes"), ".class"), count(dir.resolve("generated"), ".java"));
                }
            }
            System.exit(all ? 0 : 1);
        }
        long t0 = System.nanoTime();
        boolean ok = compile(out, sources, args[2], args[3]);
        long nanos = System.nanoTime() - t0;
        System.out.printf(Locale.ROOT, "javac ok=%b nanos=%d classes=%d generated=%d%n", ok, nanos, count(out.resolve("classes"), ".class"),
                count(out.resolve("generated"), ".java"));
        System.exit(ok ? 0 : 1);
    }

    /** @return whether javac compiled {@code sources} into {@code out/classes}, with the processor on {@code processorPath} unless it is {@code -} */
    private static boolean compile(Path out, List<String> sources, String classPath, String processorPath) throws IOException {
        List<String> options = new ArrayList<>(List.of(OPTIONS.split(" ")));
        options.addAll(List.of("-d", out.resolve("classes").toString(), "-s", out.resolve("generated").toString(), "-cp", classPath));
        if (processorPath.equals("-")) options.add("-proc:none");
        else options.addAll(List.of("-processorpath", processorPath));
        Files.createDirectories(out.resolve("classes"));
        Files.createDirectories(out.resolve("generated"));
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        try (var files = javac.getStandardFileManager(null, null, null)) {
            return javac.getTask(null, files, null, options, null, files.getJavaFileObjectsFromStrings(sources)).call();
        }
    }

    private static long count(Path dir, String suffix) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(p -> p.getFileName().toString().endsWith(suffix)).count();
        }
    }
}
