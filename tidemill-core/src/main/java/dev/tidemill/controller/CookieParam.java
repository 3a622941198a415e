package dev.tidemill.controller;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A cookie of the {@code Cookie} header, as {@link dev.tidemill.Param#cookie} declares one: one
 * value of a type {@link PathParam} lists, required unless it has a {@link #defaultValue()} or is
 * an {@code Optional}.
 */
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.PARAMETER)
public @interface CookieParam {
    /** @return the cookie's name; {@code ""} (the default) for the parameter's own name */
    String value() default "";

    /** @return the value used when the cookie is absent; none by default (it is then required) */
    String defaultValue() default Unset.TEXT;
}
