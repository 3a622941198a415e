package dev.tidemill.processor;

import com.palantir.javapoet.ClassName;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javax.annotation.processing.ProcessingEnvironment;
import javax.lang.model.element.Element;
import javax.lang.model.element.ModuleElement;
import javax.lang.model.element.PackageElement;
import javax.lang.model.element.TypeElement;
import javax.tools.FileObject;
import javax.tools.StandardLocation;

/**
 * The one aggregate output: the module's index of its controllers, the service file naming it,
 * and a list of the controllers it was written for ({@value #LIST}).
 *
 * <p>Why the list: an IDE's partial recompile (and javac given only the changed files) shows the
 * processor only the controllers it recompiles. Writing the index from those alone would drop the
 * others, so the processor reads the list the last compilation left in the class output and keeps
 * every controller on it that still exists, still carries {@code @Controller} (kept in the class
 * file: the annotations have CLASS retention) and still has its generated routes. A controller that
 * was deleted or lost its annotation drops out. Gradle runs the processor as "aggregating" (its
 * META-INF/gradle file): every annotated class is handed over on each incremental run, and the list
 * then adds nothing.
 */
final class ModuleIndex {
    static final String LIST = "META-INF/tidemill/controllers";
    static final String SERVICE = "META-INF/services/" + Names.INDEX_SERVICE;
    static final String SIMPLE_NAME = "TidemillControllers";

    private final ProcessingEnvironment env;
    private final Problems problems;
    private final String option;
    private final List<String> previous;
    /** The named module whose {@code provides} is checked in the next round, and the index it must name. */
    private String moduleToCheck;
    private ClassName indexToCheck;

    ModuleIndex(ProcessingEnvironment env, Problems problems, String option) {
        this.env = env;
        this.problems = problems;
        this.option = option;
        this.previous = readPrevious();
    }

    boolean hasPrevious() {
        return !previous.isEmpty();
    }

    private List<String> readPrevious() {
        List<String> out = new ArrayList<>();
        try {
            FileObject f = env.getFiler().getResource(StandardLocation.CLASS_OUTPUT, "", LIST);
            for (String line : f.getCharContent(true).toString().split("\n")) {
                if (!line.isBlank() && !line.startsWith("#")) out.add(line.strip());
            }
        } catch (IOException | IllegalArgumentException | UnsupportedOperationException e) {
            // no earlier compilation left a list (a clean build, or an in-memory file manager)
        }
        return out;
    }

    /** Writes the index for the controllers of this compilation and those kept from the last one. */
    void write(Map<String, TypeElement> current) {
        Map<String, TypeElement> all = new TreeMap<>(current);
        for (String name : previous) {
            if (all.containsKey(name)) continue;
            TypeElement t = env.getElementUtils().getTypeElement(name);
            if (t == null || Annotations.find(t, Names.CONTROLLER) == null) continue;
            ClassName routes = ControllerModel.routesClass(ClassName.get(t));
            if (env.getElementUtils().getTypeElement(routes.canonicalName()) == null) continue;
            all.put(name, t);
        }
        if (all.isEmpty()) return;
        ClassName index = indexName(all);
        if (index == null) return;
        ModuleElement module = env.getElementUtils().getModuleOf(all.values().iterator().next());
        if (module != null && !module.isUnnamed()) {
            // javac leaves out of the module's directives a `provides` whose class does not exist yet:
            // the index is generated now, so the line shows from the next round on
            moduleToCheck = module.getQualifiedName().toString();
            indexToCheck = index;
        }
        List<Element> origins = new ArrayList<>(current.values());
        try {
            RoutesWriter.index(index, ControllerProcessor.names(all), origins).writeTo(env.getFiler());
            resource(LIST, "# the controllers " + index.canonicalName() + " lists, for the next partial recompile\n"
                    + String.join("\n", all.keySet()) + "\n", origins);
            resource(SERVICE, index.reflectionName() + "\n", origins);
        } catch (IOException e) {
            problems.error(all.values().iterator().next(), "cannot write the controllers' index " + index + ": " + e.getMessage());
        }
    }

    /**
     * Checks, in a round after {@link #write}, that a named module provides the index it wrote:
     * {@code Tidemill.controllers(...)} finds the index only as a service of the module.
     */
    void checkProvides() {
        if (moduleToCheck == null) return;
        ModuleElement module = env.getElementUtils().getModuleElement(moduleToCheck);
        if (module != null && !provides(module, indexToCheck)) {
            problems.error(module, "module " + module.getQualifiedName() + " has controllers, but Tidemill.controllers(...) finds them "
                    + "through its index: add `provides " + Names.INDEX_SERVICE + " with " + indexToCheck.canonicalName() + ";` to module-info.java");
        }
        moduleToCheck = null;
    }

    private void resource(String path, String text, List<Element> origins) throws IOException {
        FileObject f = env.getFiler().createResource(StandardLocation.CLASS_OUTPUT, "", path, origins.toArray(Element[]::new));
        try (Writer w = new java.io.OutputStreamWriter(f.openOutputStream(), StandardCharsets.UTF_8)) {
            w.write(text);
        }
    }

    /** @return the option's class, else TidemillControllers in the package all controllers share, else null after an error */
    private ClassName indexName(Map<String, TypeElement> all) {
        if (option != null && !option.isBlank()) {
            int dot = option.lastIndexOf('.');
            return dot < 0 ? ClassName.get("", option) : ClassName.get(option.substring(0, dot), option.substring(dot + 1));
        }
        String common = null;
        for (TypeElement t : all.values()) {
            String p = packageOf(t);
            common = common == null ? p : commonPackage(common, p);
        }
        if (common == null || common.isEmpty()) {
            problems.error(all.values().iterator().next(), "the controllers share no package, so the index has no home: "
                    + "name it with the compiler option -A" + ControllerProcessor.INDEX_OPTION + "=com.example.Controllers");
            return null;
        }
        return ClassName.get(common, SIMPLE_NAME);
    }

    private String packageOf(TypeElement t) {
        PackageElement p = env.getElementUtils().getPackageOf(t);
        return p.getQualifiedName().toString();
    }

    static String commonPackage(String a, String b) {
        String[] x = a.split("\\.");
        String[] y = b.split("\\.");
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < Math.min(x.length, y.length) && x[i].equals(y[i]); i++) {
            if (out.length() > 0) out.append('.');
            out.append(x[i]);
        }
        return out.toString();
    }

    private static boolean provides(ModuleElement module, ClassName index) {
        for (ModuleElement.Directive d : module.getDirectives()) {
            if (d instanceof ModuleElement.ProvidesDirective p && p.getService().getQualifiedName().contentEquals(Names.INDEX_SERVICE)) {
                for (TypeElement impl : p.getImplementations()) {
                    if (impl.getQualifiedName().contentEquals(index.canonicalName())) return true;
                }
            }
        }
        return false;
    }
}
