package dev.tidemill;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
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
    /** The indexes found so far, in the order found. */
    private final List<ControllerIndex> known = new ArrayList<>();
    /** Per class loader, its service lookup, advanced only as far as a controller needed. */
    private final Map<ClassLoader, Iterator<ControllerIndex>> lookups = new LinkedHashMap<>();

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
        for (ControllerIndex index : known) {
            if (index.register(controller, app)) return index;
        }
        // The app's loader finds indexes on the class path and in named modules of the boot layer;
        // the controller's own loader those of a plugin layer or a test's loader. Each lookup goes only
        // as far as the first index that knows the controller: on the class path the JDK reads ahead
        // to the next service file, opening every jar up to it (every jar, when the app has one index),
        // so each step saved is a scan saved; in named modules a step costs no jar.
        ClassLoader own = controller.getClass().getClassLoader();
        ClassLoader context = Thread.currentThread().getContextClassLoader();
        if (context == null) context = ClassLoader.getSystemClassLoader(); // as ServiceLoader.load(service) does
        for (ClassLoader loader : own == null || own == context ? List.of(context) : List.of(context, own)) {
            Iterator<ControllerIndex> lookup = lookups.computeIfAbsent(loader, l -> ServiceLoader.load(ControllerIndex.class, l).iterator());
            while (lookup.hasNext()) {
                ControllerIndex index = lookup.next();
                if (isKnown(index)) continue;
                known.add(index);
                if (index.register(controller, app)) return index;
            }
        }
        throw new IllegalArgumentException(controller.getClass().getName() + " is not a controller any index knows: "
                + "annotate it with @Controller and compile it with tidemill-processor (JDK 23 and later run an "
                + "annotation processor only when the build names it: Maven's annotationProcessorPaths, Gradle's "
                + "annotationProcessor configuration), then give it to app.controllers(...)");
    }

    /** @return whether an index of that class was found already (through another loader that sees it too) */
    private boolean isKnown(ControllerIndex index) {
        for (ControllerIndex k : known) {
            if (k.getClass() == index.getClass()) return true;
        }
        return false;
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
