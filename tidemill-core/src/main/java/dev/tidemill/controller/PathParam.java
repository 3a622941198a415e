package dev.tidemill.controller;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A {@code {name}} segment of the route's pattern, coerced as {@link dev.tidemill.Param#path} does:
 * {@code String}, {@code int}, {@code long}, {@code double}, {@code boolean} (or their boxes),
 * {@code UUID}, {@code LocalDate}, {@code OffsetDateTime}, {@code Instant} or an enum. A value that
 * does not parse is a 422 naming it.
 */
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.PARAMETER)
public @interface PathParam {
    /** @return the segment's name; {@code ""} (the default) for the parameter's own name */
    String value() default "";
}
