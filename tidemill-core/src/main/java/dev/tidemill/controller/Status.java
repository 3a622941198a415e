package dev.tidemill.controller;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The success status of a method that returns a value (not a {@link dev.tidemill.Response}), e.g.
 * 201 for a created resource; 200 by default, 204 for {@code void}. The OpenAPI document says it
 * ({@link dev.tidemill.Route#returns(int, Class)}).
 */
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.METHOD)
public @interface Status {
    /** @return a 2xx status */
    int value();
}
