package dev.tidemill.controller;

import dev.tidemill.ExecutionMode;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Where the method runs ({@link dev.tidemill.Route#mode}); on the class, for every method without
 * its own. A method that declares {@code throws InterruptedException} blocks, so the processor
 * refuses {@code IO} and {@code LOOP} for it: only {@code VIRTUAL} honours a blocking call.
 */
@Retention(RetentionPolicy.CLASS)
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface Mode {
    /** @return the execution mode */
    ExecutionMode value();
}
