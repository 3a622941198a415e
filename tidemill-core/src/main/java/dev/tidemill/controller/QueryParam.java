package dev.tidemill.controller;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A query parameter, as {@link dev.tidemill.Param#query} declares one: of a type
 * {@link PathParam} lists, required unless it has a {@link #defaultValue()} or is an
 * {@code Optional}; a {@code List} collects every value of a repeated key.
 */
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.PARAMETER)
public @interface QueryParam {
    /** @return the query key; {@code ""} (the default) for the parameter's own name */
    String value() default "";

    /**
     * @return the value used when the key is absent, as text that the processor parses for the
     *     parameter's type at compile time; none by default (the key is then required)
     */
    String defaultValue() default Unset.TEXT;
}
