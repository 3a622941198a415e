package dev.tidemill;

import java.util.List;

/**
 * The controllers of one module, as {@code tidemill-processor} wrote them down at compile time:
 * the index class it generates implements this, and the module provides it as a service
 * ({@code provides dev.tidemill.ControllerIndex with ...;} in module-info, or a
 * {@code META-INF/services} file on the class path, which the processor writes).
 * {@link Tidemill#controllers(Object...)} finds it with {@link java.util.ServiceLoader}; nothing
 * is scanned and nothing reflective is called. Not implemented by hand.
 */
public interface ControllerIndex {

    /** @return every {@code @Controller} class of the module, in name order */
    List<Class<?>> controllers();

    /**
     * Registers a controller's routes, by calling the generated {@code <Class>Routes.register}.
     *
     * @param controller an object the application constructed
     * @param routes where its routes go
     * @return whether {@code controller} is one of this index's classes (false: nothing registered)
     */
    boolean register(Object controller, Routes routes);
}
