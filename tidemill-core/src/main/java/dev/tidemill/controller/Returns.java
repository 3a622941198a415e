package dev.tidemill.controller;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * What a method returning {@link dev.tidemill.Response} (or a {@code CompletionStage} of one)
 * answers on success, for the OpenAPI document and the MCP output schema: a method returning a
 * value is described from its return type without it.
 */
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.METHOD)
public @interface Returns {
    /** @return the body's type */
    Class<?> value();

    /** @return the success status, 200 by default */
    int status() default 200;
}
