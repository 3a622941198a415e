package dev.tidemill.processor;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.lang.module.ModuleDescriptor;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The index across compilations, with the JDK's own javac and real directories. An IDE (or javac
 * given only the changed files) recompiles some controllers into the class output of the last
 * build, with that output on the class path: the index must still list every controller that
 * exists, and only those. And a named module must provide the index as a service.
 */
class PartialRecompileTest {
    /** The test's own class path: tidemill-core and what it requires. */
    private static final String CLASS_PATH = System.getProperty("java.class.path");
    /** The module path of a named module's compilation: tidemill-core's entry of the class path, which is all javac needs. */
    private static final String CORE = Stream.of(CLASS_PATH.split(File.pathSeparator)).filter(e -> e.contains("tidemill-core"))
            .findFirst().orElseThrow(() -> new IllegalStateException("no tidemill-core on the class path " + CLASS_PATH));
    /** What javac says (lint "processing") when a processor regenerates a type whose class is on the class path. */
    private static final String REGENERATED = "already exists on the sourcepath or classpath";

    @TempDir
    Path dir;
    Path src;
    Path out;
    Path generated;

    @BeforeEach
    void directories() throws IOException {
        src = Files.createDirectories(dir.resolve("src"));
        out = Files.createDirectories(dir.resolve("classes"));
        generated = Files.createDirectories(dir.resolve("generated-sources"));
    }

    /** One diagnostic: the file's name (null for none), its line, its message. */
    record Said(String file, long line, String message) {}

    /** The outcome of one javac run. */
    record Javac(boolean success, List<Said> errors, List<Said> warnings) {
        List<String> warningMessages() {
            return warnings.stream().map(Said::message).toList();
        }
    }

    private Javac javac(List<String> options, Path... sources) throws IOException {
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        try (StandardJavaFileManager files = compiler.getStandardFileManager(diagnostics, Locale.ROOT, null)) {
            List<String> all = new ArrayList<>(List.of("-d", out.toString(), "-s", generated.toString(), "-implicit:none",
                    "-Xlint:all,-path"));
            all.addAll(options);
            JavaCompiler.CompilationTask task = compiler.getTask(null, files, diagnostics, all, null, files.getJavaFileObjects(sources));
            task.setProcessors(List.of(new ControllerProcessor()));
            boolean ok = task.call();
            List<Said> errors = new ArrayList<>();
            List<Said> warnings = new ArrayList<>();
            for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
                Said said = new Said(d.getSource() == null ? null : Path.of(d.getSource().toUri()).getFileName().toString(),
                        d.getLineNumber(), d.getMessage(Locale.ROOT));
                if (d.getKind() == Diagnostic.Kind.ERROR) errors.add(said);
                else if (d.getKind() != Diagnostic.Kind.NOTE && d.getKind() != Diagnostic.Kind.OTHER) warnings.add(said);
            }
            return new Javac(ok, errors, warnings);
        }
    }

    /** Compiles on the class path with the last build's output first, as an IDE's partial recompile does. */
    private Javac compile(Path... sources) throws IOException {
        return javac(List.of("-cp", out + File.pathSeparator + CLASS_PATH), sources);
    }

    private Path source(String name, String text) throws IOException {
        Path p = src.resolve(name.replace('.', '/') + ".java");
        Files.createDirectories(p.getParent());
        return Files.writeString(p, text);
    }

    private static String controller(String name, String path) {
        return """
                package demo;

                import dev.tidemill.controller.*;

                @Controller("/%s")
                @Anonymous
                public class %s {
                    @Get("%s")
                    public String get() { return "%s"; }
                }
                """.formatted(name.toLowerCase(Locale.ROOT), name, path, name);
    }

    private static String plainClass(String name) {
        return """
                package demo;

                public class %s {
                    public String get() { return "%s"; }
                }
                """.formatted(name, name);
    }

    /** @return the controllers the index in the class output lists, loaded and asked as the app asks it */
    private List<String> indexed() throws Exception {
        try (URLClassLoader loader = new URLClassLoader(new URL[] {out.toUri().toURL()}, getClass().getClassLoader())) {
            Object index = loader.loadClass("demo.TidemillControllers").getConstructor().newInstance();
            List<?> classes = (List<?>) index.getClass().getMethod("controllers").invoke(index);
            return classes.stream().map(c -> ((Class<?>) c).getName()).toList();
        }
    }

    /** @return the controllers of the list left for the next partial recompile */
    private List<String> listed() throws IOException {
        return Files.readAllLines(out.resolve(ModuleIndex.LIST)).stream().filter(l -> !l.startsWith("#") && !l.isBlank()).toList();
    }

    private String indexSource() throws IOException {
        return Files.readString(generated.resolve("demo/TidemillControllers.java"));
    }

    private void deleteClassesOf(String simpleName) throws IOException {
        try (Stream<Path> s = Files.list(out.resolve("demo"))) {
            for (Path p : s.filter(p -> p.getFileName().toString().matches(simpleName + "(\\$.*)?\\.class")).toList()) Files.delete(p);
        }
    }

    @Test
    void recompilingOneOfTwoControllersKeepsBothInTheIndex() throws Exception {
        Path a = source("demo.A", controller("A", ""));
        Path b = source("demo.B", controller("B", ""));
        Javac clean = compile(a, b);
        assertThat(clean.errors()).isEmpty();
        assertThat(clean.warnings()).isEmpty();
        assertThat(indexed()).containsExactly("demo.A", "demo.B");
        assertThat(listed()).containsExactly("demo.A", "demo.B");
        assertThat(Files.readString(out.resolve(ModuleIndex.SERVICE))).isEqualTo("demo.TidemillControllers\n");

        Files.writeString(a, controller("A", "/changed"));
        Javac partial = compile(a);

        assertThat(partial.success()).isTrue();
        assertThat(partial.errors()).isEmpty();
        // javac's lint notes that ARoutes and the index are written anew over the classes on the class path
        assertThat(partial.warningMessages()).allMatch(w -> w.contains(REGENERATED));
        assertThat(indexed()).containsExactly("demo.A", "demo.B");
        assertThat(listed()).containsExactly("demo.A", "demo.B");
        assertThat(indexSource()).contains("A.class,", "B.class);", "ARoutes.register((A) controller, routes);",
                "BRoutes.register((B) controller, routes);");
        assertThat(Files.readString(generated.resolve("demo/ARoutes.java"))).contains("routes.get(\"/a/changed\"");
    }

    @Test
    void aDeletedControllerDropsOutOfTheIndex() throws Exception {
        Path a = source("demo.A", controller("A", ""));
        Path b = source("demo.B", controller("B", ""));
        assertThat(compile(a, b).success()).isTrue();

        // what an IDE does when B.java is deleted; BRoutes.class, generated, may well stay behind
        Files.delete(b);
        deleteClassesOf("B");
        Javac partial = compile(a);

        assertThat(partial.errors()).isEmpty();
        assertThat(partial.warningMessages()).allMatch(w -> w.contains(REGENERATED));
        assertThat(indexed()).containsExactly("demo.A");
        assertThat(listed()).containsExactly("demo.A");
        assertThat(indexSource()).doesNotContain("B.class", "BRoutes");
    }

    @Test
    void aControllerThatLostItsAnnotationDropsOutWhenCompiledWithAnother() throws Exception {
        Path a = source("demo.A", controller("A", ""));
        Path b = source("demo.B", controller("B", ""));
        Path c = source("demo.C", controller("C", ""));
        assertThat(compile(a, b, c).success()).isTrue();

        Files.writeString(a, plainClass("A"));
        Files.writeString(b, controller("B", "/changed"));
        Javac partial = compile(a, b);

        assertThat(partial.errors()).isEmpty();
        assertThat(indexed()).containsExactly("demo.B", "demo.C");
        assertThat(listed()).containsExactly("demo.B", "demo.C");
    }

    /**
     * A limitation, pinned down so that it is known: javac calls a processor only for a compilation in
     * which one of the annotations it supports appears. Recompiled alone, a class that lost its last
     * Tidemill annotation does not run the processor at all, so the index of the last compilation stays
     * in the class output as it was, listing it. (Gradle deletes an aggregating processor's outputs
     * itself, and Maven recompiles the whole module; an IDE's partial recompile keeps the stale index
     * until a compilation that has a Tidemill annotation, or a rebuild.)
     */
    @Test
    void aCompilationWithoutAnyTidemillAnnotationDoesNotRunTheProcessorSoTheLastIndexStays() throws Exception {
        Path a = source("demo.A", controller("A", ""));
        Path b = source("demo.B", controller("B", ""));
        assertThat(compile(a, b).success()).isTrue();
        Files.delete(b);
        deleteClassesOf("B");
        assertThat(compile(a).success()).isTrue();
        assertThat(indexed()).containsExactly("demo.A");

        Files.writeString(a, plainClass("A"));
        Javac partial = compile(a);

        assertThat(partial.success()).isTrue();
        assertThat(partial.errors()).isEmpty();
        assertThat(partial.warnings()).isEmpty();
        assertThat(indexed()).containsExactly("demo.A");
        assertThat(listed()).containsExactly("demo.A");
    }

    @Test
    void aNamedModuleThatDoesNotProvideTheIndexFailsNamingTheLineToAdd() throws Exception {
        Path module = source("module-info", "module m {\n    requires dev.tidemill;\n}\n");
        Path a = source("demo.A", controller("A", ""));

        Javac result = javac(List.of("--module-path", CORE), module, a);

        assertThat(result.success()).isFalse();
        assertThat(result.errors()).containsExactly(new Said("module-info.java", 1,
                "module m has controllers, but Tidemill.controllers(...) finds them through its index: "
                        + "add `provides dev.tidemill.ControllerIndex with demo.TidemillControllers;` to module-info.java"));
    }

    @Test
    void aNamedModuleThatProvidesTheIndexCompiles() throws Exception {
        // the index is generated in the compilation that names it: javac shows the provides only once it exists
        Path module = source("module-info", """
                module m {
                    requires dev.tidemill;
                    provides dev.tidemill.ControllerIndex with demo.TidemillControllers;
                }
                """);
        Path a = source("demo.A", controller("A", ""));

        Javac result = javac(List.of("--module-path", CORE), module, a);

        assertThat(result.errors()).isEmpty();
        assertThat(result.warnings()).isEmpty();
        assertThat(result.success()).isTrue();
        ModuleDescriptor descriptor;
        try (InputStream in = Files.newInputStream(out.resolve("module-info.class"))) {
            descriptor = ModuleDescriptor.read(in);
        }
        assertThat(descriptor.provides()).containsExactly(
                ModuleDescriptor.newModule("x").provides("dev.tidemill.ControllerIndex", List.of("demo.TidemillControllers")).build()
                        .provides().iterator().next());
        assertThat(indexSource()).contains("A.class);");
    }

    @Test
    void aNamedModuleRecompiledAloneKeepsProvidingTheIndex() throws Exception {
        Path module = source("module-info", """
                module m {
                    requires dev.tidemill;
                    provides dev.tidemill.ControllerIndex with demo.TidemillControllers;
                }
                """);
        Path a = source("demo.A", controller("A", ""));
        Path b = source("demo.B", controller("B", ""));
        assertThat(javac(List.of("--module-path", CORE), module, a, b).success()).isTrue();

        Files.writeString(a, controller("A", "/changed"));
        Javac partial = javac(List.of("--module-path", CORE, "--patch-module", "m=" + out), module, a);

        assertThat(partial.errors()).isEmpty();
        assertThat(indexed()).containsExactly("demo.A", "demo.B");
    }
}
