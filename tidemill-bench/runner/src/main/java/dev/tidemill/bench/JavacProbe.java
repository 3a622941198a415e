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
 * starts and times: {@code OUT SOURCES-LIST CLASSPATH PROCESSORPATH|-} compiles every source the
 * list names with the JDK's own compiler ({@code javax.tools}), into {@code OUT/classes} and
 * {@code OUT/generated}, with {@value #OPTIONS} and either {@code -proc:none} ({@code -}) or
 * {@code -processorpath PROCESSORPATH}. Prints {@code javac ok=true|false nanos=N classes=N generated=N}
 * (the call's own time; files written), diagnostics on stderr; exits 1 when the compilation failed.
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
        List<String> options = new ArrayList<>(List.of(OPTIONS.split(" ")));
        options.addAll(List.of("-d", out.resolve("classes").toString(), "-s", out.resolve("generated").toString(), "-cp", args[2]));
        if (args[3].equals("-")) options.add("-proc:none");
        else options.addAll(List.of("-processorpath", args[3]));
        Files.createDirectories(out.resolve("classes"));
        Files.createDirectories(out.resolve("generated"));
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        long t0 = System.nanoTime();
        boolean ok;
        try (var files = javac.getStandardFileManager(null, null, null)) {
            ok = javac.getTask(null, files, null, options, null, files.getJavaFileObjectsFromStrings(sources)).call();
        }
        long nanos = System.nanoTime() - t0;
        System.out.printf(Locale.ROOT, "javac ok=%b nanos=%d classes=%d generated=%d%n", ok, nanos, count(out.resolve("classes"), ".class"),
                count(out.resolve("generated"), ".java"));
        System.exit(ok ? 0 : 1);
    }

    private static long count(Path dir, String suffix) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(p -> p.getFileName().toString().endsWith(suffix)).count();
        }
    }
}
