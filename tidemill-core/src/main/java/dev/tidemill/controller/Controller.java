package dev.tidemill.controller;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A public, top-level (or static nested), non-generic class whose methods annotated {@link Get},
 * {@link Post}, {@link Put}, {@link Patch} or {@link Delete} are routes. The application constructs
 * it (any injector or none) and gives it to {@link dev.tidemill.Tidemill#controllers(Object...)}.
 * Annotations on the class ({@link Requires}, {@link Anonymous}, {@link Mode}, {@link RateLimited},
 * {@link Operation} tags) apply to every method that does not say otherwise.
 */
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.TYPE)
public @interface Controller {
    /** @return the path prefix of every route, e.g. {@code /items}; {@code ""} (the default) for none */
    String value() default "";
}
