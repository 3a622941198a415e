package dev.tidemill.bench;

import dev.tidemill.Config;
import dev.tidemill.Routes;
import dev.tidemill.Server;
import dev.tidemill.Tidemill;
import java.lang.reflect.Method;
import java.util.Locale;

/**
 * The start-up part's measuring JVM ({@code ./tidemill bench controllers}): started fresh by the
 * runner for each reading, pinned to the server CPUs, with the generated controllers' classes on its
 * class path. Arguments {@code VARIANT JVM COUNT}:
 *
 * <ul>
 *   <li>VARIANT {@code empty}: an app without routes of its own; {@code controllers}: the COUNT
 *       generated controllers given to {@code app.controllers(...)}; {@code dsl}: the same routes
 *       registered by calling each controller's generated routes class directly
 *       ({@link ControllerSources#REGISTRAR}), the DSL without the index.</li>
 *   <li>JVM {@code cold}: the timed app is the JVM's first; {@code primed}: an app with one DSL route
 *       was started and closed first, so Tidemill's and Netty's classes are loaded; {@code repeat}: an
 *       app with the same routes (same variant) was started and closed first, so the generated classes
 *       are loaded and linked, and what is left is registering and building the table; {@code aot}: as
 *       cold here, the timed app is the JVM's first, but the runner starts the JVM with the variant's
 *       AOT cache ({@code -XX:AOTCache}), which a training run of this probe (the variant, cold) wrote.</li>
 * </ul>
 *
 * The controllers are constructed first (the application's work, untimed), then
 * {@code Tidemill.create} (untimed); the clock runs from there over the registration
 * ({@code controllers} or {@code dsl}) and {@code app.start()} on port 0 (binding, the route table, the
 * checks at start) until {@code start()} returns. Prints one line:
 * {@code probe routes=N controllersNanos=N startNanos=N}, where routes counts the app's routes after
 * start (its operational ones included) and controllersNanos is the registration.
 */
public final class ControllersStartProbe {
    private ControllersStartProbe() {}

    /**
     * @param args {@code empty|controllers|dsl}, {@code cold|primed|repeat|aot}, the number of generated controllers
     * @throws ReflectiveOperationException when a generated class is missing from the class path
     */
    public static void main(String[] args) throws ReflectiveOperationException {
        String variant = args[0], jvm = args[1];
        if (!ControllersStartup.VARIANTS.contains(variant)) throw new IllegalArgumentException("variant " + variant);
        if (!ControllersStartup.JVMS.contains(jvm)) throw new IllegalArgumentException("jvm " + jvm);
        int count = Integer.parseInt(args[2]);
        Object[] controllers = new Object[variant.equals("empty") ? 0 : count];
        for (int i = 0; i < controllers.length; i++) {
            controllers[i] = Class.forName(ControllerSources.className(i)).getDeclaredConstructor().newInstance();
        }
        Method registrar = variant.equals("dsl") ? Class.forName(ControllerSources.REGISTRAR).getMethod("register", Object[].class, Routes.class)
                : null;
        if (jvm.equals("primed") || (jvm.equals("repeat") && variant.equals("empty"))) {
            Tidemill prime = Tidemill.create(config());
            prime.get("/prime", req -> "primed");
            prime.start().close();
        } else if (jvm.equals("repeat")) {
            Tidemill first = Tidemill.create(config());
            register(first, variant, controllers, registrar);
            first.start().close();
        }
        Tidemill app = Tidemill.create(config());
        long t0 = System.nanoTime();
        register(app, variant, controllers, registrar);
        long t1 = System.nanoTime();
        Server server = app.start();
        long t2 = System.nanoTime();
        int routes = app.routes().size();
        server.close();
        System.out.printf(Locale.ROOT, "probe routes=%d controllersNanos=%d startNanos=%d%n", routes, t1 - t0, t2 - t1);
        System.exit(0);
    }

    private static void register(Tidemill app, String variant, Object[] controllers, Method registrar) throws ReflectiveOperationException {
        switch (variant) {
            case "controllers" -> app.controllers(controllers);
            case "dsl" -> registrar.invoke(null, controllers, app);
            default -> { }
        }
    }

    private static Config config() {
        return Config.builder().port(0).build();
    }
}
