package dev.tidemill.controller;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A request header, as {@link dev.tidemill.Param#header} declares one: one value of a type
 * {@link PathParam} lists, required unless it has a {@link #defaultValue()} or is an
 * {@code Optional}. Missing or unparsable: 422 with {@code loc} {@code ["header", name]}.
 */
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.PARAMETER)
public @interface HeaderParam {
    /** @return the header's name (any case); there is no default: Java names are not header names */
    String value();

    /** @return the value used when the header is absent; none by default (it is then required) */
    String defaultValue() default Unset.TEXT;
}
