package dev.tidemill.processor;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.Compiler;
import com.google.testing.compile.JavaFileObjects;
import javax.tools.JavaFileObject;

/** Compiles test sources with the processor, the way a strict build does: every lint warning an error. */
final class Sources {
    /** The imports every test source starts with. */
    static final String IMPORTS = """
            import dev.tidemill.controller.*;
            import dev.tidemill.ExecutionMode;
            import dev.tidemill.Principal;
            import dev.tidemill.Request;
            import dev.tidemill.Response;
            import java.util.List;
            import java.util.Optional;
            """;

    private Sources() {}

    /** @return a source of package {@code demo}: the {@link #IMPORTS}, then {@code body} */
    static JavaFileObject demo(String simpleName, String body) {
        return JavaFileObjects.forSourceString("demo." + simpleName, "package demo;\n\n" + IMPORTS + "\n" + body);
    }

    static Compilation compile(JavaFileObject... files) {
        return Compiler.javac().withProcessors(new ControllerProcessor()).withOptions("-Xlint:all", "-Werror").compile(files);
    }
}
