package dev.tidemill.controller;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** A public method of a {@link Controller} that answers {@code PATCH} requests (see {@link dev.tidemill.Routes}). */
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.METHOD)
public @interface Patch {
    /**
     * @return the path pattern after the controller's prefix, {@code ""} (the default) for the prefix
     *     itself; {@code {name}} segments are bound to {@link PathParam} parameters, one each
     */
    String value() default "";
}
