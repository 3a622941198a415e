package dev.tidemill.controller;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Makes the method a tool of the app's MCP endpoint ({@link dev.tidemill.Route#tool}). It needs an
 * auth decision ({@link Requires} or {@link Anonymous}, on it or its class): the processor refuses
 * one without.
 */
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.METHOD)
public @interface Tool {
    /** @return the tool's name, 1 to 128 of A-Z, a-z, 0-9, '_', '-', '.' */
    String name();

    /** @return what it does, for the agent */
    String description();
}
