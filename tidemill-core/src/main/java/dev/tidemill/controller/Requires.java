package dev.tidemill.controller;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Who may call ({@link dev.tidemill.Route#requires}): an authenticated caller holding every scope in
 * {@link #scopes()} and every role in {@link #roles()} (with neither, any authenticated caller). On
 * the class, for every method without its own {@code @Requires} or {@link Anonymous}.
 */
@Retention(RetentionPolicy.CLASS)
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface Requires {
    /** @return scopes the caller must all hold; none by default */
    String[] scopes() default {};

    /** @return roles the caller must all hold; none by default */
    String[] roles() default {};
}
