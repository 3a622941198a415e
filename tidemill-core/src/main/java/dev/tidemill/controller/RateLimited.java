package dev.tidemill.controller;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A rate limit per client address ({@link dev.tidemill.RateLimit}): one budget per annotated
 * element, so on the class one budget shared by all its methods. 429 past it.
 */
@Retention(RetentionPolicy.CLASS)
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface RateLimited {
    /** @return the limit's name, in its problems and metrics */
    String name();

    /** @return requests allowed per period, at least 1 */
    int requests();

    /** @return the period in seconds, at least 1; 1 by default */
    long perSeconds() default 1;
}
