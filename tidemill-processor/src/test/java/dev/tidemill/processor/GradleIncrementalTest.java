package dev.tidemill.processor;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.CompilationSubject;
import com.google.testing.compile.Compiler;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import javax.annotation.processing.Completion;
import javax.annotation.processing.Filer;
import javax.annotation.processing.ProcessingEnvironment;
import javax.annotation.processing.Processor;
import javax.annotation.processing.RoundEnvironment;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.FileObject;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileManager;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The contract of a Gradle "aggregating" annotation processor, checked from this side: there is no
 * Gradle here. The jar declares the processor aggregating; it reads only annotations kept in the
 * class file (CLASS retention); it writes only sources and CLASS_OUTPUT resources through the Filer,
 * each with its originating elements. And Gradle hands it the annotated classes it does not recompile
 * as class files (javac's "class names for annotation processing"), simulated here with javac itself:
 * their parameter names are there only with {@code -parameters}.
 */
class GradleIncrementalTest {

    private static List<String> lines(String resource) throws IOException {
        try (InputStream in = ControllerProcessor.class.getResourceAsStream("/" + resource)) {
            assertThat(in).as(resource).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().map(String::strip)
                    .filter(l -> !l.isEmpty() && !l.startsWith("#")).toList();
        }
    }

    @Test
    void theJarDeclaresTheProcessorAggregating() throws IOException {
        assertThat(lines("META-INF/gradle/incremental.annotation.processors"))
                .containsExactly("dev.tidemill.processor.ControllerProcessor,aggregating");
        assertThat(lines("META-INF/services/javax.annotation.processing.Processor"))
                .containsExactly("dev.tidemill.processor.ControllerProcessor");
    }

    /** A processor for "*" would make every class of the module one Gradle reprocesses on each run. */
    @Test
    void theProcessorSupportsTidemillsAnnotationsOnly() {
        assertThat(new ControllerProcessor().getSupportedAnnotationTypes()).containsExactly("dev.tidemill.controller.*");
    }

    @Test
    void everyAnnotationOfTheControllerPackageHasClassRetention() throws Exception {
        String core = Stream.of(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(e -> e.contains("tidemill-core")).findFirst().orElseThrow();
        List<String> names = new ArrayList<>();
        Path entry = Path.of(core);
        if (Files.isDirectory(entry)) {
            try (Stream<Path> s = Files.list(entry.resolve("dev/tidemill/controller"))) {
                s.map(p -> "dev/tidemill/controller/" + p.getFileName()).forEach(names::add);
            }
        } else {
            try (JarFile jar = new JarFile(entry.toFile())) {
                jar.stream().map(e -> e.getName()).filter(n -> n.startsWith("dev/tidemill/controller/")).forEach(names::add);
            }
        }
        List<Class<?>> annotations = new ArrayList<>();
        for (String n : names) {
            if (!n.endsWith(".class") || n.contains("$") || n.endsWith("package-info.class")) continue;
            Class<?> c = Class.forName(n.substring(0, n.length() - ".class".length()).replace('/', '.'), false, getClass().getClassLoader());
            if (c.isAnnotation()) annotations.add(c);
        }

        assertThat(annotations).map(Class::getSimpleName).containsExactlyInAnyOrder("Anonymous", "Body", "Controller", "CookieParam",
                "Delete", "Form", "Get", "HeaderParam", "Mode", "MultipartForm", "Operation", "Patch", "PathParam", "Post", "Produces",
                "Put", "QueryParam", "RateLimited", "Requires", "Returns", "Status", "Tool");
        for (Class<?> a : annotations) {
            Retention retention = a.getAnnotation(Retention.class);
            assertThat(retention).as(a.getName()).isNotNull();
            assertThat(retention.value()).as(a.getName()).isEqualTo(RetentionPolicy.CLASS);
        }
    }

    /** One call on the Filer. */
    record Written(String call, String location, String name, List<String> origins) {}

    @Test
    void itWritesOnlySourcesAndClassOutputResourcesThroughTheFilerEachWithItsOriginatingElements() {
        List<Written> calls = new ArrayList<>();
        Compilation c = Compiler.javac().withProcessors(new RecordingFiler(new ControllerProcessor(), calls)).withOptions("-Xlint:all", "-Werror")
                .compile(Sources.demo("A", """
                        @Controller("/a")
                        @Anonymous
                        public class A {
                            @Get
                            public String get() { return "a"; }
                        }
                        """), Sources.demo("B", """
                        @Controller("/b")
                        @Anonymous
                        public class B {
                            @Get
                            public String get() { return "b"; }
                        }
                        """));

        CompilationSubject.assertThat(c).succeededWithoutWarnings();
        assertThat(calls).containsExactlyInAnyOrder(
                // the list the last compilation left, read (there is none here)
                new Written("getResource", "CLASS_OUTPUT", "META-INF/tidemill/controllers", List.of()),
                new Written("createSourceFile", null, "demo.ARoutes", List.of("demo.A")),
                new Written("createSourceFile", null, "demo.BRoutes", List.of("demo.B")),
                new Written("createSourceFile", null, "demo.TidemillControllers", List.of("demo.A", "demo.B")),
                new Written("createResource", "CLASS_OUTPUT", "META-INF/tidemill/controllers", List.of("demo.A", "demo.B")),
                new Written("createResource", "CLASS_OUTPUT", "META-INF/services/dev.tidemill.ControllerIndex", List.of("demo.A", "demo.B")));
    }

    // ---- a controller Gradle does not recompile is reprocessed from its class file

    private static final String IMPLICIT_NAMES = """
            package demo;

            import dev.tidemill.controller.*;

            @Controller("/a")
            @Anonymous
            public class A {
                @Get("/{id}")
                public String get(@PathParam String id, @QueryParam(defaultValue = "1") int page) { return id + page; }
            }
            """;

    private static final String EXPLICIT_NAMES = """
            package demo;

            import dev.tidemill.controller.*;

            @Controller("/a")
            @Anonymous
            public class A {
                @Get("/{id}")
                public String get(@PathParam("id") String id, @QueryParam(value = "page", defaultValue = "1") int page) { return id + page; }
            }
            """;

    private static final String CHANGED = """
            package demo;

            import dev.tidemill.controller.*;

            @Controller("/b")
            @Anonymous
            public class B {
                @Get
                public String get() { return "b"; }
            }
            """;

    /** The outcome of one javac run: success, and the errors' messages. */
    record Javac(boolean success, List<String> errors) {}

    /**
     * @param classes the names of the classes to process from the class output, as Gradle passes the
     *     aggregating processor's unchanged types
     */
    private static Javac javac(Path dir, List<String> options, List<String> classes, String... sources) throws IOException {
        Path src = Files.createDirectories(dir.resolve("src/demo"));
        Path out = Files.createDirectories(dir.resolve("classes"));
        Path generated = Files.createDirectories(dir.resolve("generated-sources"));
        List<Path> files = new ArrayList<>();
        for (String s : sources) {
            String name = s.substring(s.indexOf("public class ") + "public class ".length()).split(" ")[0];
            files.add(Files.writeString(src.resolve(name + ".java"), s));
        }
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        try (StandardJavaFileManager fm = compiler.getStandardFileManager(diagnostics, Locale.ROOT, null)) {
            List<String> all = new ArrayList<>(List.of("-d", out.toString(), "-s", generated.toString(), "-implicit:none",
                    "-cp", out + File.pathSeparator + System.getProperty("java.class.path")));
            all.addAll(options);
            JavaCompiler.CompilationTask task = compiler.getTask(null, fm, diagnostics, all, classes, fm.getJavaFileObjectsFromPaths(files));
            task.setProcessors(List.of(new ControllerProcessor()));
            boolean ok = task.call();
            return new Javac(ok, diagnostics.getDiagnostics().stream().filter(d -> d.getKind() == Diagnostic.Kind.ERROR)
                    .map(d -> d.getMessage(Locale.ROOT)).toList());
        }
    }

    @Test
    void aControllerReprocessedFromAClassFileWithoutParameterNamesIsAnErrorSayingToCompileWithParameters(@TempDir Path dir) throws IOException {
        assertThat(javac(dir, List.of(), null, IMPLICIT_NAMES, CHANGED).success()).isTrue();

        Javac incremental = javac(dir, List.of(), List.of("demo.A"), CHANGED);

        assertThat(incremental.success()).isFalse();
        // not a route reading query key "arg1" instead of "page"
        assertThat(incremental.errors()).contains(
                "the name of parameter 1 of A.get is not in its class file, which is what the processor reads when a build hands it "
                        + "a controller it does not recompile (Gradle's incremental compile): compile with -parameters, or write the name, "
                        + "@PathParam(\"name\")",
                "the name of parameter 2 of A.get is not in its class file, which is what the processor reads when a build hands it "
                        + "a controller it does not recompile (Gradle's incremental compile): compile with -parameters, or write the name, "
                        + "@QueryParam(\"name\")");
    }

    @Test
    void withParameterNamesAReprocessedControllerGetsTheRoutesItsSourceGave(@TempDir Path dir) throws IOException {
        assertThat(javac(dir, List.of("-parameters"), null, IMPLICIT_NAMES, CHANGED).success()).isTrue();
        String fromSource = Files.readString(dir.resolve("generated-sources/demo/ARoutes.java"));

        Javac incremental = javac(dir, List.of("-parameters"), List.of("demo.A"), CHANGED);

        assertThat(incremental.errors()).isEmpty();
        assertThat(Files.readString(dir.resolve("generated-sources/demo/ARoutes.java"))).isEqualTo(fromSource)
                .contains("Param.path(\"id\", ParamType.STRING)", "Param.query(\"page\", ParamType.INT).withDefault(1)");
        assertThat(Files.readString(dir.resolve("classes/" + ModuleIndex.LIST))).contains("demo.A\ndemo.B\n");
    }

    @Test
    void withNamesWrittenOutAReprocessedControllerNeedsNoParameterNames(@TempDir Path dir) throws IOException {
        assertThat(javac(dir, List.of(), null, EXPLICIT_NAMES, CHANGED).success()).isTrue();

        Javac incremental = javac(dir, List.of(), List.of("demo.A"), CHANGED);

        assertThat(incremental.errors()).isEmpty();
        assertThat(Files.readString(dir.resolve("generated-sources/demo/ARoutes.java")))
                .contains("Param.path(\"id\", ParamType.STRING)", "Param.query(\"page\", ParamType.INT).withDefault(1)");
    }

    /** Runs a processor with a Filer that records each call, its location and its originating elements. */
    private static final class RecordingFiler implements Processor {
        private final Processor processor;
        private final List<Written> calls;

        RecordingFiler(Processor processor, List<Written> calls) {
            this.processor = processor;
            this.calls = calls;
        }

        @Override
        public void init(ProcessingEnvironment env) {
            Filer filer = env.getFiler();
            Filer recording = new Filer() {
                @Override
                public JavaFileObject createSourceFile(CharSequence name, Element... origins) throws IOException {
                    calls.add(new Written("createSourceFile", null, name.toString(), names(origins)));
                    return filer.createSourceFile(name, origins);
                }

                @Override
                public JavaFileObject createClassFile(CharSequence name, Element... origins) throws IOException {
                    calls.add(new Written("createClassFile", null, name.toString(), names(origins)));
                    return filer.createClassFile(name, origins);
                }

                @Override
                public FileObject createResource(JavaFileManager.Location location, CharSequence pkg, CharSequence relativeName,
                        Element... origins) throws IOException {
                    calls.add(new Written("createResource", location.getName(), pkg + relativeName.toString(), names(origins)));
                    return filer.createResource(location, pkg, relativeName, origins);
                }

                @Override
                public FileObject getResource(JavaFileManager.Location location, CharSequence pkg, CharSequence relativeName) throws IOException {
                    calls.add(new Written("getResource", location.getName(), pkg + relativeName.toString(), List.of()));
                    return filer.getResource(location, pkg, relativeName);
                }
            };
            processor.init((ProcessingEnvironment) Proxy.newProxyInstance(getClass().getClassLoader(),
                    new Class<?>[] {ProcessingEnvironment.class}, (proxy, method, args) -> {
                        if (method.getName().equals("getFiler")) return recording;
                        try {
                            return method.invoke(env, args);
                        } catch (InvocationTargetException e) {
                            throw e.getCause();
                        }
                    }));
        }

        private static List<String> names(Element[] origins) {
            return Arrays.stream(origins).map(e -> ((TypeElement) e).getQualifiedName().toString()).toList();
        }

        @Override
        public Set<String> getSupportedOptions() {
            return processor.getSupportedOptions();
        }

        @Override
        public Set<String> getSupportedAnnotationTypes() {
            return processor.getSupportedAnnotationTypes();
        }

        @Override
        public SourceVersion getSupportedSourceVersion() {
            return processor.getSupportedSourceVersion();
        }

        @Override
        public boolean process(Set<? extends TypeElement> annotations, RoundEnvironment round) {
            return processor.process(annotations, round);
        }

        @Override
        public Iterable<? extends Completion> getCompletions(Element element, AnnotationMirror annotation, ExecutableElement member,
                String userText) {
            return Collections.emptyList();
        }
    }
}
