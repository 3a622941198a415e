package dev.tidemill;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.ServiceLoader;
import java.util.Set;

/**
 * The controllers an app was given ({@link Tidemill#controllers(Object...)}), and the check at start
 * that every controller of an index that contributed one was given too: a controller written but
 * never constructed would otherwise be a route silently missing.
 */
final class Controllers {
    /** Each index that registered at least one given controller, with the classes it was given. */
    private final Map<ControllerIndex, List<Class<?>>> given = new LinkedHashMap<>();
    /** Every class given, of whichever index. */
    private final Set<Class<?>> classes = new HashSet<>();
    private List<ControllerIndex> indexes;

    void register(Tidemill app, Object[] controllers) {
        for (Object c : controllers) {
            Objects.requireNonNull(c, "controller");
            // before registering: a refused call leaves no route behind
            if (classes.contains(c.getClass())) {
                throw new IllegalArgumentException("controller " + c.getClass().getName() + " was given twice: its routes are registered once");
            }
            given.computeIfAbsent(indexFor(c, app), i -> new ArrayList<>()).add(c.getClass());
            classes.add(c.getClass());
        }
    }

    private ControllerIndex indexFor(Object controller, Tidemill app) {
        for (ControllerIndex index : indexes(controller.getClass().getClassLoader())) {
            if (index.register(controller, app)) return index;
        }
        throw new IllegalArgumentException(controller.getClass().getName() + " is not a controller any index knows: "
                + "annotate it with @Controller and compile it with tidemill-processor (JDK 23 and later run an "
                + "annotation processor only when the build names it: Maven's annotationProcessorPaths, Gradle's "
                + "annotationProcessor configuration), then give it to app.controllers(...)");
    }

    private List<ControllerIndex> indexes(ClassLoader loader) {
        if (indexes == null) {
            // The app's loader finds indexes on the class path and in named modules of the boot layer;
            // the controller's own loader those of a plugin layer or a test's loader.
            List<ControllerIndex> found = new ArrayList<>();
            ServiceLoader.load(ControllerIndex.class).forEach(found::add);
            if (loader != null && loader != Thread.currentThread().getContextClassLoader()) {
                ServiceLoader.load(ControllerIndex.class, loader).forEach(i -> {
                    if (found.stream().noneMatch(f -> f.getClass() == i.getClass())) found.add(i);
                });
            }
            indexes = found;
        }
        return indexes;
    }

    /** @throws IllegalStateException naming each controller of a contributing index that was not given */
    void checkComplete() {
        List<String> missing = new ArrayList<>();
        for (Map.Entry<ControllerIndex, List<Class<?>>> e : given.entrySet()) {
            for (Class<?> c : e.getKey().controllers()) {
                if (!classes.contains(c)) missing.add(c.getName() + " (index " + e.getKey().getClass().getName() + ")");
            }
        }
        if (!missing.isEmpty()) {
            throw new IllegalStateException("controllers compiled into the app but not given to app.controllers(...): "
                    + String.join(", ", missing) + "; construct each and pass it, or remove its @Controller");
        }
    }
}
